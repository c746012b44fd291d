import numpy as np

from transformer_figures import show
from transformer_figures.chapter_figs import cross_heads_figure
from transformer_math import experiments

attn = experiments.CROSS.attn  # (h, n, m): デコーダ n 位置 × エンコーダ m 位置の重みがヘッドごとに 1 枚
assert np.allclose(attn.sum(axis=-1), 1.0)  # どのヘッドのどの行も和は 1
show(
    cross_heads_figure(),
    alt=f"Source-Target Attention の例で、{attn.shape[0]} 個のヘッドそれぞれの {attn.shape[1]}×{attn.shape[2]} の重みを"
    "並べたヒートマップ。ヘッドごとに重みの置き方が違う。",
)
