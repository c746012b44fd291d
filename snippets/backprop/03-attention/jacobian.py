import numpy as np

from transformer_figures import figure_html, tabs_html
from transformer_figures.backprop_figs import jacobian_figure
from transformer_math import backward as bw
from transformer_math.preset import SENTENCES

g = bw.preset_gradients(1, 3)  # 文1、花 を隠した例
A = g.loss.trace.attn[:, 3]  # (h, T) 隠した行 T3 の attention の重み
words = SENTENCES[0].words

J = {}
for h in range(2):
    J[h] = np.diag(A[h]) - np.outer(A[h], A[h])  # (T, T)  ∂A_i/∂S_j = A_i(δ_ij − A_j)
    assert np.allclose(J[h], bw.softmax_jacobian(A[h])) and np.allclose(J[h].sum(axis=1), 0.0)  # 各行の和は 0

print(
    tabs_html(
        {
            f"ヘッド {h}": figure_html(
                jacobian_figure(A[h], J[h], words, h),
                alt=f"ヘッド {h} の T3 の重み A (最小 {A[h].min():.3f}、最大 {A[h].max():.3f}) と、そのヤコビアン。"
                f"対角は {np.diag(J[h]).min():+.3f}〜{np.diag(J[h]).max():+.3f}、対角の外はすべて負。",
            )
            for h in range(2)
        },
        name="backprop03-jacobian",
    )
)
