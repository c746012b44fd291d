from transformer_figures import show
from transformer_figures.scale_figs import path_length_vs_n

# 制限付き注意は「窓の中だけ見る」層を何層重ねれば端から端まで届くかを、到達範囲を 1 層ずつ広げて数える
show(
    path_length_vs_n(k=3, r=33),
    alt="最初と最後の位置を結ぶのに必要な層数。Self-Attention は常に 1、Recurrent は n、"
    "膨張畳み込みは log_k n、窓 r の制限付き注意は約 2n/r で増える。",
)
