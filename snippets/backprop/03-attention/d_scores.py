import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import attention_rows_figure
from transformer_math import backward as bw
from transformer_math.preset import SENTENCES

g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
A, d_attn = g.loss.trace.attn[:, 3], g.d_attn[:, 3]  # (h, T) 隠した行の重みと ∂L/∂attn

rows = {}
for a in range(2):  # ヘッド a = 0, 1
    J = bw.softmax_jacobian(A[a])  # (T, T)
    d_scores = d_attn[a] @ J  # (T,)  ∂L/∂S_j = Σ_i ∂L/∂A_i · A_i(δ_ij − A_j)
    assert np.allclose(d_scores, g.d_scores[a, 3])
    constant = np.full_like(d_attn[a], d_attn[a].mean())  # ∂L/∂A のうち、どのキーにも同じ値の部分
    assert np.allclose(constant @ J, 0.0)  # J は定数の部分を消す (全スコアに同じ数を足しても softmax は変わらない)
    rows[f"ヘッド {a}: ∂L/∂attn − 平均"] = d_attn[a] - constant
    rows[f"ヘッド {a}: ∂L/∂scores"] = d_scores

print(
    figure_html(
        attention_rows_figure(rows, SENTENCES[0].words, "∂L/∂attn の平均を除いた部分と ∂L/∂scores (T3)"),
        alt="各ヘッドについて、∂L/∂attn から平均を引いたものと、softmax を通った ∂L/∂scores。"
        f"ヘッド 1 の ∂L/∂scores は {np.abs(g.d_scores[1, 3]).max():.3f} 以下とごく小さい。",
    )
)
