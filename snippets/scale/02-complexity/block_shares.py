from transformer_figures import show
from transformer_figures.scale_figs import block_cost_breakdown
from transformer_math import comparisons

d, d_ff = 512, 2048
over_proj = comparisons.first_n_where_core_exceeds(d, d_ff, "projections")
over_ffn = comparisons.first_n_where_core_exceeds(d, d_ff, "ffn")
show(
    block_cost_breakdown(d, d_ff),
    alt=f"ブロックの掛け算に占める各部分の割合を系列長 n に対して積み上げた図。短い系列では FFN が最大で、"
    f"スコアと重み付き和は n = {over_proj} で射影の合計に、n = {over_ffn} で FFN に追いつく。",
)
