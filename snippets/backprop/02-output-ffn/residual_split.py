import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import row_terms_figure
from transformer_figures.notes_attention_figs import DIM_LABELS
from transformer_math import backward as bw

g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
p = 3
skip = g.d_residual2[p]  # 残差の道: residual2 = ln1_out + ffn_out の ln1_out の項は、勾配をそのまま渡す
through_ffn = g.d_ln1_out_ffn[p]  # FFN を通ってきた分 (∂L/∂ffn_pre · W1ᵀ)
d_ln1_out = skip + through_ffn  # 2 つの道の勾配を足す
assert np.allclose(d_ln1_out, g.d_ln1_out[p])

rows = {"残差の道 (∂L/∂residual2)": skip, "FFN の道": through_ffn, "∂L/∂ln1_out (和)": d_ln1_out}
norms = {k: np.linalg.norm(v) for k, v in rows.items()}
print(
    figure_html(
        row_terms_figure(rows, DIM_LABELS, "∂L/∂ln1_out[3] = 残差の道 + FFN の道"),
        alt="∂L/∂ln1_out[3] の 2 つの道と和。ノルムは " + "、".join(f"{k} {v:.2f}" for k, v in norms.items()) + "。",
    )
)
