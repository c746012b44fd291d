import numpy as np

from transformer_figures import figure_html
from transformer_figures.scale_figs import block_cost_breakdown
from transformer_math import counting

d, d_ff = 512, 2048
n = np.unique(np.geomspace(16, 4096, 120).astype(int))
parts = {
    "Q, K, V の射影": 3 * n * d**2,
    "スコア $QK^T$ と重み付き和 $AV$": 2 * n**2 * d,  # n とともに 2 乗で増える
    "出力の射影 $W_O$": n * d**2,
    "FFN": 2 * n * d * d_ff,
}
assert parts["FFN"][0] == counting.ffn_multiplies(int(n[0]), d, d_ff)
over_proj = counting.first_n_where_core_exceeds(d, d_ff, "projections")  # n = 2·d
over_ffn = counting.first_n_where_core_exceeds(d, d_ff, "ffn")  # n = d_ff

print(
    figure_html(
        block_cost_breakdown(n, parts, d, d_ff),
        alt=f"ブロックの掛け算に占める各部分の割合を系列長 n に対して積み上げた図。短い系列では FFN が最大で、"
        f"スコアと重み付き和は n = {over_proj} で射影の合計に、n = {over_ffn} で FFN に追いつく。",
    )
)
