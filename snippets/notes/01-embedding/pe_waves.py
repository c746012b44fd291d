from transformer_figures import show
from transformer_figures.notes_attention_figs import positional_waves_figure
from transformer_math import analysis_attention

# 組 i = (d2i, d2i+1) の周期 = 2π · 10000^(2i/d_model) (位置いくつ分で波が一周するか)
periods = analysis_attention.pe_periods()

show(
    positional_waves_figure(),
    alt="次元の組ごとの sin と cos の連続曲線に、実際に使う 5 つの位置 t = 0〜4 を点で重ねた 8 枚の小さなグラフ。"
    f"周期は d0,d1 の {periods[0]:.1f} から d14,d15 の {periods[-1]:,.0f} まで増え、"
    "高い次元ほど 5 位置の間で平らになる。",
)
