from transformer_figures import show
from transformer_figures.scale_figs import cost_vs_n
from transformer_math import comparisons

d = 512
cross = comparisons.crossover_n(d)  # n²·d = n·d² となる n
show(
    cost_vs_n(d=d, k=3, r=32),
    alt=f"d = {d} での 1 層の掛け算の回数を系列長 n に対して両対数で描いた図。Self-Attention の n²·d は "
    f"n = {cross} で Recurrent の n·d² と交わり、それより短い系列では Self-Attention の方が少ない。",
)
