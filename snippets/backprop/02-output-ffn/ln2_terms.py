import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import row_terms_figure
from transformer_figures.notes_attention_figs import DIM_LABELS
from transformer_math import backward as bw
from transformer_math import preset_weights

W = preset_weights()
g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
p = 3
x = g.loss.trace.residual2[p]  # (d_model,) LayerNorm 2 の入力の行
d = x.shape[0]
mu = x.mean()
sigma = np.sqrt(((x - mu) ** 2).mean() + W.eps)  # √(有偏分散 + ε)
x_hat = (x - mu) / sigma  # (d_model,)
g_hat = g.d_ln2_out[p] * W.ln2_gamma  # ĝ = ∂L/∂y ⊙ γ

direct = g_hat / sigma  # x が x̂ を直接動かす分
via_mean = np.full(d, -g_hat.mean() / sigma)  # x が μ を動かし、μ がすべての x̂ を動かす分
via_sigma = -x_hat * (g_hat * x_hat).mean() / sigma  # x が σ を動かし、σ がすべての x̂ を動かす分
d_x = direct + via_mean + via_sigma  # ∂L/∂residual2[p]
assert np.allclose(d_x, g.d_residual2[p]) and np.allclose(via_sigma, g.d_residual2_variance[p])

rows = {
    "ĝ = ∂L/∂y ⊙ γ": g_hat,
    "直接の項 ĝ/σ": direct,
    "平均の項": via_mean,
    "分散の項": via_sigma,
    "∂L/∂x (3 項の和)": d_x,
}
print(
    figure_html(
        row_terms_figure(rows, DIM_LABELS, "LayerNorm 2 の逆伝播 (文1 の T3、「花」を隠す)"),
        alt=f"LayerNorm 2 の逆伝播の 3 つの項。平均の項はどの次元も {via_mean[0]:+.4f}。"
        f"行の和は 直接 {direct.sum():+.3f}、平均 {via_mean.sum():+.3f}、分散 {via_sigma.sum():+.3f}。",
    )
)
