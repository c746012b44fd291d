import numpy as np

from transformer_figures import figure_html
from transformer_figures.notes_attention_figs import positional_heatmap_figure
from transformer_math import ops

T, d_model = 5, 16
i = np.arange(d_model // 2)  # 次元の組の番号, (d_model/2,) = (8,)
omega = 10000.0 ** (-2 * i / d_model)  # 組 i の角周波数
t = np.arange(T)[:, None]  # (T, 1): 位置を縦に並べ、t * omega で (T, 8)
W_P = np.empty((T, d_model))
W_P[:, 0::2] = np.sin(t * omega)  # 偶数次元 2i
W_P[:, 1::2] = np.cos(t * omega)  # 奇数次元 2i+1
assert np.allclose(W_P, ops.positional_encoding(T, d_model))

print(
    figure_html(
        positional_heatmap_figure(W_P),
        alt="W_P のヒートマップ。5 位置 × 16 次元。左端の d0, d1 は位置によって −1 から +1 まで大きく変わり、"
        "右にいくほど偶数次元は 0 付近、奇数次元は 1 付近でほとんど変わらない。",
    )
)
