import numpy as np

from transformer_figures import figure_html
from transformer_figures.scale_figs import cost_vs_n
from transformer_math import counting

d, k, r = 512, 3, 32
n = np.unique(np.geomspace(8, 4096, 200).astype(int))  # 系列長 (対数で等間隔)
rows = {
    "Self-Attention  n²·d": n**2 * d,  # スコア n × n、1 つに d 回
    "Recurrent  n·d²": n * d**2,  # 1 ステップに d × d の行列、n ステップ
    f"Convolution (k = {k})  k·n·d²": k * n * d**2,
    f"制限付き Self-Attention (r = {r})  r·n·d": r * n * d,
}
assert rows["Recurrent  n·d²"][-1] == counting.recurrent_multiplies(int(n[-1]), d)
cross = counting.crossover_n(d)  # n²·d = n·d² となる n (= d)

print(
    figure_html(
        cost_vs_n(n, rows, (cross, counting.recurrent_multiplies(cross, d)), d),
        alt=f"d = {d} での 1 層の掛け算の回数を系列長 n に対して両対数で描いた図。Self-Attention の n²·d は "
        f"n = {cross} で Recurrent の n·d² と交わり、それより短い系列では Self-Attention の方が少ない。",
    )
)
