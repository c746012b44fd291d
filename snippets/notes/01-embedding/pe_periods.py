import numpy as np

from transformer_figures import figure_html
from transformer_figures.notes_attention_figs import positional_periods_figure
from transformer_math import ops

d_model = 16
i = np.arange(d_model // 2)  # 次元の組 (d2i, d2i+1) の番号
periods = 2 * np.pi * 10000.0 ** (2 * i / d_model)  # 周期 = 2π / ω_i, (8,)
assert np.allclose(periods, ops.pe_wavelengths(d_model))
ratio = periods[1] / periods[0]  # となりの組との比は一定: 10000^(2/16)

print(
    figure_html(
        positional_periods_figure(periods),
        alt=f"次元の組ごとの周期を対数軸の棒グラフにした図。となりの組へ行くごとに周期は {ratio:.2f} 倍になり、"
        "文の長さ T = 5 を超えるのは 2 組目から。",
    )
)
