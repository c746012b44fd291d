import numpy as np

from transformer_figures import figure_html, tabs_html
from transformer_figures.backprop_figs import jacobian_figure
from transformer_math import backward as bw
from transformer_math.preset import SENTENCES

g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
A = g.loss.trace.attn[:, 3]  # (h, T) 隠した行 T3 の attention の重み
words = SENTENCES[0].words

J = {}
for a in range(2):  # ヘッド a = 0, 1
    J[a] = np.diag(A[a]) - np.outer(A[a], A[a])  # (T, T)  ∂A_i/∂S_j = A_i(δ_ij − A_j)
    assert np.allclose(J[a], bw.softmax_jacobian(A[a])) and np.allclose(J[a].sum(axis=1), 0.0)  # 各行の和は 0

print(
    tabs_html(
        {
            f"ヘッド {a}": figure_html(
                jacobian_figure(A[a], J[a], words, a),
                alt=f"ヘッド {a} の T3 の重み A (最小 {A[a].min():.3f}、最大 {A[a].max():.3f}) と、そのヤコビアン。"
                f"対角は {np.diag(J[a]).min():+.3f}〜{np.diag(J[a]).max():+.3f}、対角の外はすべて負。",
            )
            for a in range(2)
        },
        name="backprop03-jacobian",
    )
)
