import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import paired_rows_figure
from transformer_math import activations, preset_weights
from transformer_math import backward as bw
from transformer_math.preset import NEURON_NAMES

W = preset_weights()
g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
tr, p = g.loss.trace, 3

d_ffn_out = g.d_residual2  # (T, d_model) residual2 = ln1_out + ffn_out なので、そのまま写る
d_ffn_h = d_ffn_out @ W.W2.T  # (T, d_ff)
d_ffn_pre = d_ffn_h * activations.gelu_derivative(tr.ffn_pre)  # (T, d_ff) GELU′ を掛ける
d_ln1_out_ffn = d_ffn_pre @ W.W1.T  # (T, d_model) FFN を通って ln1_out に届く分
d_W2, d_b2 = tr.ffn_h.T @ d_ffn_out, d_ffn_out.sum(axis=0)  # (d_ff, d_model), (d_model,)
d_W1, d_b1 = tr.ln1_out.T @ d_ffn_pre, d_ffn_pre.sum(axis=0)  # (d_model, d_ff), (d_ff,)
for mine, name in ((d_ffn_h, "d_ffn_h"), (d_ffn_pre, "d_ffn_pre"), (d_ln1_out_ffn, "d_ln1_out_ffn"), (d_W1, "d_W1"),
                   (d_b1, "d_b1"), (d_W2, "d_W2"), (d_b2, "d_b2")):  # fmt: skip
    assert np.allclose(mine, getattr(g, name)), name

units = slice(0, 16)  # h16〜h31 は重みが 0 の未使用ユニット (勾配もすべて 0)
labels = NEURON_NAMES[units]
forward_rows = {"ffn_pre": tr.ffn_pre[p, units], "GELU′(ffn_pre)": activations.gelu_derivative(tr.ffn_pre[p, units])}
grad_rows = {"∂L/∂ffn_h": d_ffn_h[p, units], "∂L/∂ffn_pre": d_ffn_pre[p, units]}
print(
    figure_html(
        paired_rows_figure(
            forward_rows, grad_rows, labels, ("順伝播の値と GELU の傾き (T3)", "GELU を通る前と後の勾配 (T3)")
        ),
        alt=f"T3 の ffn_pre と GELU′、∂L/∂ffn_h と ∂L/∂ffn_pre (h0〜h15)。h0 では ∂L/∂ffn_h = {d_ffn_h[p, 0]:+.2f} が "
        f"GELU′ = {activations.gelu_derivative(tr.ffn_pre[p, 0]):+.3f} を掛けられて {d_ffn_pre[p, 0]:+.3f} になる。",
    )
)
