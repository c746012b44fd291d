import numpy as np

from transformer_figures import ColourScale, heat_figure, heat_table, show
from transformer_math import SENTENCES, ops, preset_trace

sentence, trace = SENTENCES[0], preset_trace(1)  # 文1「これ は 美しい 花 です」
words = list(sentence.words)

# (T, h, d_k) → (h, T, d_k): ヘッドごとに独立に scores = Q·Kᵀ / √d_k を計算する
Q, K, V = (np.swapaxes(a, 0, 1) for a in (trace.Q, trace.K, trace.V))
out, scores, attn = ops.scaled_dot_product_attention(Q, K, V)
assert np.allclose(scores, trace.scores)  # ブロック全体の順伝播と同じ値

scale = ColourScale.for_values(scores, center=0.0)  # 2 つのヘッドで色の目盛りをそろえる (0 が白)
tables = [
    heat_table(scores[head], words, words, fmt="{:+.2f}", scale=scale, title=f"ヘッド {head} の scores",
               corner="クエリ i ＼ キー j")
    for head in range(len(scores))
]
fig = heat_figure(*tables, columns=2, legend_fmt="{:+.1f}")

h, i, j = np.unravel_index(np.argmax(scores), scores.shape)
show(
    fig,
    alt=f"文1 の scores を 2 つのヘッドについて 5×5 の色付きの表にした図。行がクエリ、列がキー。"
    f"最大はヘッド {h} の {words[i]}→{words[j]} で {scores[h, i, j]:+.2f}。",
)
