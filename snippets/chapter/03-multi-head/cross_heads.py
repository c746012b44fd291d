import numpy as np

from transformer_figures import figure_html
from transformer_figures.chapter_figs import cross_heads_figure
from transformer_pages.chapter import multi_head

run = multi_head.cross()  # 前のページの Source-Target Attention の例 (デコーダ 3 位置 × エンコーダ 5 位置)
attn = run.attn  # (h, n, m): ヘッドごとに 1 枚の重み
h, n, m = attn.shape
assert np.allclose(attn.sum(axis=-1), 1.0)  # どのヘッドのどの行も和は 1
spread = np.abs(attn - attn.mean(axis=0)).max()  # ヘッドどうしの違いの大きさ
assert spread > 0.1  # 8 枚は別々の分布

print(
    figure_html(
        cross_heads_figure(attn),
        alt=f"Source-Target Attention の例で、{h} 個のヘッドそれぞれの {n}×{m} の重みを並べたヒートマップ。"
        "ヘッドごとに重みの置き方が違う。",
    )
)
