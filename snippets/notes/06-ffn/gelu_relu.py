from transformer_figures import show
from transformer_figures.notes_ffn_figs import gelu_relu_figure
from transformer_math import analysis_ffn

x_star = analysis_ffn.gelu_threshold()  # GELU(x) = 0.5 となる x
x_min, y_min = analysis_ffn.gelu_minimum()
show(
    gelu_relu_figure(),
    alt=f"GELU と ReLU の曲線。GELU は x = {x_min:.2f} 付近で最小値 {y_min:.3f} をとり、"
    f"x = {x_star:.3f} で 0.5 を超える。ReLU は負の側で常に 0。",
)
