import numpy as np

from transformer_figures import figure_html
from transformer_figures.chapter_figs import offset_dot_figure
from transformer_math import ops, positional
from transformer_pages.chapter import positional_encoding as page

d_model, k_max = 512, page.DOT_K_MAX  # ずれ k = 0 … 200
ks = np.arange(k_max + 1)
curves = {}
for pos in page.PE_DOT_POSITIONS:  # pos = 0, 37, 400
    pe = ops.positional_encoding(pos + k_max + 1, d_model)  # (pos + k_max + 1, d_model)
    curves[pos] = pe[pos + ks] @ pe[pos]  # PE(pos)·PE(pos+k), (k_max + 1,)
# pos をどこにとっても PE(pos)·PE(pos+k) は Σ_i cos(ω_i k) になる
formula = np.array([positional.pe_offset_dot_formula(d_model, int(k)) for k in ks])
assert all(np.allclose(c, formula) for c in curves.values())

print(
    figure_html(
        offset_dot_figure(ks, curves),
        alt="PE(pos) と PE(pos+k) の内積をオフセット k に対して描いた 3 本の曲線（pos = 0, 37, 400）。"
        "3 本は完全に重なる。"
        f"k = 0 で {formula[0]:.0f}、k が増えると減っていく。",
    )
)
