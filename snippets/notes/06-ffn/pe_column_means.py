from transformer_figures import show
from transformer_figures.notes_ffn_figs import pe_column_mean_figure
from transformer_math import analysis_ffn

means = analysis_ffn.pe_column_means()  # W_P の各列を 5 つの位置で平均
show(
    pe_column_mean_figure(),
    alt=f"W_P を位置で平均した値を次元ごとに示す棒グラフ。d9 大きさ は {means[9]:.2f}、d11 人気度 は {means[11]:.2f} と"
    f"ほぼ 1 で、d8 美しさ ({means[8]:.2f}) と d10 書物 ({means[10]:.2f}) はほぼ 0。",
)
