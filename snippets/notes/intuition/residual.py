from transformer_figures import figure_html
from transformer_figures.intuition_figs import residual_figure
from transformer_math import preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」
i, dims = 2, [0, 1, 2, 3]  # 「美しい」の、品詞を表す 4 つの次元 d0〜d3

x = trace.X[i, dims]  # 入力 (埋め込み + 位置)
y = trace.Y[i, dims]  # 注意が集めてきたもの (ヘッドを連結して W_O を掛けた後)
total = x + y  # 残差接続: 入力に足す
assert (total == (trace.X + trace.Y)[i, dims]).all()

print(
    figure_html(
        residual_figure(x, y, total),
        alt="「美しい」の品詞の 4 次元について、入力 X、注意の出力 Y、その和 X + Y を並べた棒グラフ。"
        f"形容詞の次元 d1 は X で {x[1]:.2f}、名詞の次元 d0 は X では {x[0]:.2f} だが Y で {y[0]:.2f} 加わり、"
        f"和では {total[0]:.2f}。",
    )
)
