from transformer_figures import figure_html
from transformer_figures.notes_ffn_figs import pe_column_mean_figure
from transformer_math import ops

W_P = ops.positional_encoding(5, 16)  # (T, d_model)
means = W_P.mean(axis=0)  # 各次元を 5 つの位置で平均: どのトークンにも同じだけ足される量, (16,)

print(
    figure_html(
        pe_column_mean_figure(means),
        alt=f"W_P を位置で平均した値を次元ごとに示す棒グラフ。d9 大きさ は {means[9]:.2f}、"
        f"d11 人気度 は {means[11]:.2f} と"
        f"ほぼ 1 で、d8 美しさ ({means[8]:.2f}) と d10 書物 ({means[10]:.2f}) はほぼ 0。",
    )
)
