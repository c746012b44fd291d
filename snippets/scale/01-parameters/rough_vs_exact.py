from transformer_figures import figure_html
from transformer_figures.scale_figs import parameters_rough_vs_exact
from transformer_math import counting

n, d, d_ff = 512, 512, 2048
exact_block = 4 * d**2 + 2 * d * d_ff  # 重みだけ: W_Q, W_K, W_V, W_O と W_1, W_2
assert exact_block == counting.block_params(d, d_ff, bias=False, layer_norm=False)
perceptron = (n * d) ** 2  # = 512⁴
rows = [
    ("ブロック（丼勘定 2Mi）", counting.ROUGH_BLOCK_ESTIMATE, 0, True),
    ("ブロック（重みのみ・厳密）", exact_block, 0, False),
    ("ブロック（バイアス・LN 込み）", counting.block_params(d, d_ff), 0, False),
    ("パーセプトロン（丼勘定 64Gi）", counting.ROUGH_PERCEPTRON_ESTIMATE, 1, True),
    ("パーセプトロン（$512^4$・厳密）", perceptron, 1, False),
]

print(
    figure_html(
        parameters_rough_vs_exact(rows),
        alt=f"パラメータ数の対数目盛の棒グラフ。ブロックは丼勘定の {counting.ROUGH_BLOCK_ESTIMATE:,} に対し"
        "厳密には "
        f"{exact_block:,}。パーセプトロンは丼勘定と厳密がどちらも {perceptron:,}。",
    )
)
