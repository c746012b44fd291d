from transformer_figures.chapter_figs import cross_shapes_table
from transformer_math import experiments

# n = 3 個のデコーダ位置が m = 5 個のエンコーダ位置を見る。重みは乱数、形は実際に計算した配列から読む
assert experiments.CROSS.shapes["scores"][-2:] == (experiments.CROSS_N, experiments.CROSS_M)
print(cross_shapes_table())
