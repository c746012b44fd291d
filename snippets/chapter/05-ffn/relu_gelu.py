from transformer_figures import show
from transformer_figures.chapter_figs import relu_gelu_figure
from transformer_math import experiments

a = experiments.ACTIVATIONS
show(
    relu_gelu_figure(),
    alt=f"ReLU と GELU の値（左）と傾き（右）。GELU は x = {a.gelu_argmin:.2f} で最小値 {a.gelu_min:.3f} をとり、"
    "負の入力でも傾きが 0 にならない。ReLU の傾きは負の側で 0、正の側で 1。",
)
