from transformer_figures import show
from transformer_figures.chapter_figs import offset_dot_figure
from transformer_math import experiments

# pos をどこにとっても PE(pos)·PE(pos+k) は Σ_i cos(ω_i k) になる
show(
    offset_dot_figure(512, 200),
    alt="PE(pos) と PE(pos+k) の内積をオフセット k に対して描いた 3 本の曲線（pos = 0, 37, 400）。3 本は完全に重なる。"
    f"k = 0 で {experiments.pe_offset_dot_formula(512, 0):.0f}、k が増えると減っていく。",
)
