import numpy as np

from transformer_figures import figure_html
from transformer_figures.notes_attention_figs import positional_waves_figure

d_model = 16
omega = 10000.0 ** (-2 * np.arange(d_model // 2) / d_model)  # 組 i = (d2i, d2i+1) の角周波数, (8,)
periods = 2 * np.pi / omega  # 位置いくつ分で波が一周するか

print(
    figure_html(
        positional_waves_figure(omega, periods),
        alt="次元の組ごとの sin と cos の連続曲線に、実際に使う 5 つの位置 t = 0〜4 を点で重ねた 8 枚の小さなグラフ。"
        f"周期は d0,d1 の {periods[0]:.1f} から d14,d15 の {periods[-1]:,.0f} まで増え、"
        "高い次元ほど 5 位置の間で平らになる。",
    )
)
