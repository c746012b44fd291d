import numpy as np

from transformer_figures import figure_html
from transformer_figures.scale_figs import path_length_vs_n
from transformer_math import counting

k, r = 3, 33
n = np.unique(np.geomspace(2, 1024, 60).astype(int))
conv = counting.layer_complexity("convolutional")
curves = {
    "Self-Attention: 1": np.ones_like(n),  # どの 2 位置も 1 層で直接つながる
    "Recurrent: n": n,  # 1 ステップずつ
    f"膨張 Conv (k = {k}): " + r"$\lceil \log_k n \rceil$": [conv.max_path_length(int(v), k=k) for v in n],
    # 制限付き注意は「窓の中だけ見る」層を何層重ねれば端から端まで届くかを、到達範囲を 1 層ずつ広げて数える
    f"制限付き (r = {r}): 窓を伝播": [counting.window_reach_layers(int(v), r) for v in n],
}

print(
    figure_html(
        path_length_vs_n(n, curves),
        alt="最初と最後の位置を結ぶのに必要な層数。Self-Attention は常に 1、Recurrent は n、"
        "膨張畳み込みは log_k n、窓 r の制限付き注意は約 2n/r で増える。",
    )
)
