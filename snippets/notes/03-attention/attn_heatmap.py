import numpy as np

from transformer_figures import heat_figure, heat_table, show
from transformer_math import SENTENCES, ops, preset_trace

sentence, trace = SENTENCES[0], preset_trace(1)
words = list(sentence.words)

# 各行に softmax をかける: attn[h, i, :] はクエリ i の「どこを見るか」の確率分布
attn = ops.softmax(trace.scores, axis=-1)
assert np.allclose(attn.sum(axis=-1), 1.0) and np.allclose(attn, trace.attn)

tables = [
    heat_table(attn[head], words, words, fmt="{:.2f}", vmin=0.0, vmax=1.0, title=f"ヘッド {head} の attn",
               corner="クエリ i ＼ キー j")
    for head in range(len(attn))
]
fig = heat_figure(*tables, columns=2, legend_fmt="{:.1f}")

show(
    fig,
    alt="文1 の attn (scores の各行に softmax をかけた注意の重み) を 2 つのヘッドについて並べた色付きの表。"
    f"ヘッド 0 では これ と 美しい の行が 花 の列に集中し、それぞれ {attn[0, 0, 3]:.2f} と {attn[0, 2, 3]:.2f}。",
)
