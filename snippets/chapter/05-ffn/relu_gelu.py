import numpy as np

from transformer_figures import figure_html
from transformer_figures.chapter_figs import relu_gelu_figure
from transformer_math import activations, ops

x = np.linspace(-4, 4, 401)
values = {"ReLU": ops.relu(x), "GELU": ops.gelu(x)}
slopes = {"ReLU": (x > 0).astype(float), "GELU": activations.gelu_derivative(x)}  # 勾配として逆伝播する量
h = 1e-6  # 解析的な GELU′ を中心差分で確かめる
assert np.allclose(slopes["GELU"], (ops.gelu(x + h) - ops.gelu(x - h)) / (2 * h), atol=1e-8)
x_min, y_min = activations.gelu_minimum()

print(
    figure_html(
        relu_gelu_figure(x, values, slopes, (x_min, y_min)),
        alt=f"ReLU と GELU の値（図「値」）と傾き（図「傾き」）。GELU は x = {x_min:.2f} で最小値 {y_min:.3f} をとり、"
        "負の入力でも傾きが 0 にならない。ReLU の傾きは負の側で 0、正の側で 1。",
    )
)
