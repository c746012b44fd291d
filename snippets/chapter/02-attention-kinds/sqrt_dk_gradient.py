import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import sqrt_dk_figure
from transformer_math import backward, ops

# 1 つの d_k で、式のとおりに計算する: q, k と上流の勾配 ∂L/∂A は平均 0・分散 1 の乱数 (seed 固定)
d_k = 64
raw, d_A = backward.random_scores(d_k, backward.SQRT_DK_KEYS, backward.SQRT_DK_QUERIES, backward.SQRT_DK_SEED)
for scaled in (True, False):
    S = raw / np.sqrt(d_k) if scaled else raw  # (行, キー) スコア
    A = ops.softmax(S)  # 各行が 8 個のキーへの重み
    J = A[:, :, None] * np.eye(A.shape[1]) - A[:, :, None] * A[:, None, :]  # ∂A_i/∂S_j = A_i(δ_ij − A_j)
    d_S = np.einsum("ni,nij->nj", d_A, J)  # ∂L/∂S = J · ∂L/∂A (J は対称)
    measured = backward.softmax_gradient_size(d_k, scaled)
    assert np.isclose(np.linalg.eigvalsh(J)[:, -1].mean(), measured.jacobian_norm)  # ‖J‖₂ の行平均
    assert np.isclose(np.sqrt(np.mean(d_S**2)), measured.d_scores_rms)

# d_k = 1, 2, 4, …, 512 のすべてで同じ測定をしたもの (backward.sqrt_dk_sweep)
sweep = backward.sqrt_dk_sweep()
measures = {
    "‖∂A/∂S‖ (行の平均)": (sweep.column("jacobian_norm", True), sweep.column("jacobian_norm", False)),
    "∂L/∂S の RMS": (sweep.column("d_scores_rms", True), sweep.column("d_scores_rms", False)),
    "飽和した行の割合": (sweep.column("saturated_fraction", True), sweep.column("saturated_fraction", False)),
}
print(
    figure_html(
        sqrt_dk_figure(sweep.d_k, measures),
        alt="d_k を 1 から 512 まで変えたときの、softmax のヤコビアンの大きさ、"
        "スコアに届く勾配の RMS、飽和した行の割合。"
        f"√d_k で割るとどれもほぼ一定、割らないと d_k = 512 でヤコビアンは {sweep.unscaled[-1].jacobian_norm:.3f}、"
        f"勾配は {sweep.unscaled[-1].d_scores_rms:.3f} まで下がる。",
    )
)
