# The site's two colour scales, as every heat table and figure uses them (transformer_figures.style):
# signed values (scores, residuals, gradients) on the diverging scale centred at 0, red positive and blue
# negative; weights and probabilities (attn, softmax outputs) on the sequential scale from 0 to 1.
import numpy as np

from transformer_figures import figure_html, heat_figure, heat_table

signed = np.linspace(-2.0, 2.0, 5)[None, :]  # (1, 5): −2 … +2
weights = np.linspace(0.0, 1.0, 6)[None, :]  # (1, 6): 0 … 1
alt = "色の凡例: 符号つきの値は −2 の青から 0 の白を経て +2 の赤へ、重みと確率は 0 の暗い紫から 1 の明るい黄へ"

print(figure_html(heat_figure(
    heat_table(signed, ["符号つきの値"], [""] * signed.shape[1], fmt="{:+.1f}", center=0.0,
               title="正は赤、負は青、0 は白"),
    heat_table(weights, ["重み・確率"], [""] * weights.shape[1], fmt="{:.1f}", vmin=0.0, vmax=1.0,
               title="0 から 1 へ、暗い紫から明るい黄"),
    legend_fmt="{:.1f}"), alt=alt))  # fmt: skip
