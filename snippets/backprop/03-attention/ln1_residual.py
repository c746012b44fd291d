import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import row_terms_figure
from transformer_figures.notes_attention_figs import DIM_LABELS
from transformer_math import backward as bw
from transformer_math import preset_weights

W = preset_weights()
g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
tr, p = g.loss.trace, 3

ln1 = bw.layer_norm_backward(tr.residual1, W.ln1_gamma, W.eps, g.d_ln1_out)  # 逆伝播 2 と同じ 3 つの項
d_residual1 = ln1.d_x  # (T, d_model)
d_Y, d_X_skip = d_residual1, d_residual1  # residual1 = X + Y: 同じ勾配が attention の出力 Y と、残差の道の X に渡る
d_concat = d_Y @ W.W_O.T  # (T, h·d_k) Y = concat·W_O
d_W_O = tr.concat.T @ d_Y  # (h·d_k, d_model)
assert np.allclose(d_residual1, g.d_residual1) and np.allclose(d_concat, g.d_concat) and np.allclose(d_W_O, g.d_W_O)

rows = {
    "直接の項": ln1.direct[p],
    "平均の項": ln1.mean[p],
    "分散の項": ln1.variance[p],
    "∂L/∂residual1 (和)": d_residual1[p],
}
print(
    figure_html(
        row_terms_figure(rows, DIM_LABELS, "LayerNorm 1 の逆伝播 (T3)"),
        alt=f"LayerNorm 1 の逆伝播の 3 つの項と和 (T3)。和の行和は {d_residual1[p].sum():+.3f}、ノルムは "
        f"{np.linalg.norm(d_residual1[p]):.2f}。",
    )
)
