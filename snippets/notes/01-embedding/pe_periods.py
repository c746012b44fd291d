from transformer_figures import show
from transformer_figures.notes_attention_figs import positional_periods_figure
from transformer_math import analysis_attention

periods = analysis_attention.pe_periods()  # 2π · 10000^(2i/16), i = 0 … 7
ratio = periods[1] / periods[0]  # となりの組との比は一定: 10000^(2/16)

show(
    positional_periods_figure(),
    alt=f"次元の組ごとの周期を対数軸の棒グラフにした図。となりの組へ行くごとに周期は {ratio:.2f} 倍になり、"
    f"文の長さ T = 5 を超えるのは 2 組目から。",
)
