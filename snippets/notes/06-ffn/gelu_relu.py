import numpy as np

from transformer_figures import figure_html
from transformer_figures.notes_ffn_figs import gelu_relu_figure
from transformer_math import activations, ops, preset

x = np.linspace(-3.0, 3.0, 601)
gelu = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + ops.GELU_CUBIC_COEFF * x**3)))  # tanh 近似の GELU
relu = np.maximum(x, 0.0)
assert np.allclose(gelu, ops.gelu(x))
x_star = activations.gelu_threshold(preset.FIRING_THRESHOLD)  # GELU(x) = 0.5 となる x (二分法)
x_min, y_min = activations.gelu_minimum()  # GELU′(x) = 0 をニュートン法で解いた最小点

print(
    figure_html(
        gelu_relu_figure(x, gelu, relu, x_star, (x_min, y_min)),
        alt=f"GELU と ReLU の曲線。GELU は x = {x_min:.2f} 付近で最小値 {y_min:.3f} をとり、"
        f"x = {x_star:.3f} で 0.5 を超える。ReLU は負の側で常に 0。",
    )
)
