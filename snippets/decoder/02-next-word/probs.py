import numpy as np

from transformer_figures import figure_html
from transformer_figures.decoder_figs import probabilities_figure
from transformer_math import decoder_preset, ops

model = decoder_preset.decoder_preset()
ids = decoder_preset.sentence_ids(1)  # <bos> これ は 美しい 花 です <eos>
trace = decoder_preset.decoder_trace(1)  # 入力は <eos> を除いた 6 トークン
logits = trace.blocks[-1].ln2_out @ model.W_E.T  # (T, vocab): 出力層は W_E の転置
probs = ops.softmax(logits)  # 行ごと: 行 t は「位置 0 … t を読んだあとの次の語」の確率
assert np.allclose(probs, trace.probs, rtol=0, atol=1e-15)
read = [f"{t} {w}" for t, w in enumerate(model.words(ids[:-1]))]
targets = [(t, int(ids[t + 1])) for t in range(len(read))]  # 本当の次の語

print(
    figure_html(
        probabilities_figure(probs, read, model.vocab, framed=targets),
        alt=f"文1 の各位置で、次の語の確率 (6 行 × 18 語)。枠は本当の次の語。<bos> の次は 私 {probs[0, 2]:.3f}、"
        f"これ {probs[0, 0]:.3f}。これ は の次は 大きい {probs[2, 7]:.3f} と 美しい {probs[2, 8]:.3f} に分かれる。"
        f"位置 3〜5 は本当の次の語に {min(probs[t, ids[t + 1]] for t in (3, 4, 5)):.3f} 以上。",
    )
)
