import numpy as np

from transformer_figures import figure_html
from transformer_figures.notes_attention_figs import head_tables
from transformer_math import SENTENCES, preset_trace

words, scores = list(SENTENCES[0].words), preset_trace(1).scores  # (h, T, T)

# 各行に softmax: 最大値を引いてから exp (値は変わらず、あふれない)、行の和で割る
e = np.exp(scores - scores.max(axis=-1, keepdims=True))
attn = e / e.sum(axis=-1, keepdims=True)  # (h, T, T): attn[h, i, :] はクエリ i の「どこを見るか」の確率分布
assert np.allclose(attn.sum(axis=-1), 1.0) and np.allclose(attn, preset_trace(1).attn)

print(
    figure_html(
        head_tables(attn, words, "attn", "{:.2f}", "{:.1f}", vmin=0.0, vmax=1.0),
        alt="文1 の attn (scores の各行に softmax をかけた注意の重み) を 2 つのヘッドについて並べた色付きの表。"
        f"ヘッド 0 では これ と 美しい の行が 花 の列に集中し、それぞれ {attn[0, 0, 3]:.2f} と {attn[0, 2, 3]:.2f}。",
    )
)
