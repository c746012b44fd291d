import numpy as np

from transformer_figures import table_html
from transformer_math import decoder_model, decoder_preset, generation

model = decoder_preset.decoder_preset()
tokens = list(model.ids("<bos> 私 は"))
rows = []
while tokens[-1] != model.eos and len(tokens) < model.n_positions:
    probs = decoder_model.forward(model, np.array(tokens)).probs[-1]  # 最後の行: 次の語の確率
    top = np.argsort(-probs, kind="stable")[:3]  # 上位 3 語
    chosen = int(np.argmax(probs))  # 貪欲法: いちばん確率の高い語
    shown = "、".join(f"{model.vocab[i]} {probs[i]:.3f}" for i in top)
    rows.append([model.text(tokens[1:]), shown, model.vocab[chosen]])
    tokens.append(chosen)  # 選んだ語を足して、もう一度
assert tokens == list(generation.greedy(model, "<bos> 私 は".split()).tokens)  # generation.greedy と同じ

print(table_html(["読んだ語 (<bos> のあと)", "次の語の確率 (上位 3 語)", "選ぶ語"], rows))
