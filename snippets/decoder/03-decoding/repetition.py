import numpy as np

from transformer_figures import table_html
from transformer_math import decoder_model, decoder_preset, generation

model = decoder_preset.decoder_preset()
out = generation.greedy(model, "<bos> 私 私 を".split())  # 8 文にはない並び
rows, before = [], None
for step in out.steps:
    state = decoder_model.forward(model, step.context).out[-1]  # 最後の位置の ln2_out (ブロック 2)
    cos = "" if before is None else f"{state @ before / np.linalg.norm(state) / np.linalg.norm(before):.3f}"
    probs = step.choice.probs
    top = np.argsort(-probs, kind="stable")[:3]
    rows.append(
        [
            model.text(step.context[-3:]),
            "、".join(f"{model.vocab[i]} {probs[i]:.3f}" for i in top),
            model.vocab[step.word],
            cos,
        ]
    )
    before = state

print(table_html(["読んだ語 (最後の 3 語)", "次の語の確率 (上位 3 語)", "選ぶ語", "前のステップの状態との cos"], rows))
