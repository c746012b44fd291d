from transformer_figures import show
from transformer_figures.scale_figs import parameters_rough_vs_exact
from transformer_math import counting

exact_block = counting.block_params(512, 2048, bias=False, layer_norm=False)
show(
    parameters_rough_vs_exact(512, 512, 2048),
    alt=f"パラメータ数の対数目盛の棒グラフ。ブロックはノートの概算 {counting.ROUGH_BLOCK_ESTIMATE:,} に対し厳密には "
    f"{exact_block:,}。パーセプトロンは概算と厳密がどちらも {counting.perceptron_params(512, 512):,}。",
)
