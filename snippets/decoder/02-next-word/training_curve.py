from collections import Counter

import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import loss_curve_figure
from transformer_math import decoder_preset

run = decoder_preset.training_run()  # seed 0 の乱数から、Adam とウォームアップ付きの学習率で 150 ステップ
batch = decoder_preset.training_batch()  # (8, 7): 8 文
following: dict[tuple, Counter] = {}
for row in batch:
    for t in range(1, len(row)):
        following.setdefault(tuple(row[:t]), Counter())[int(row[t])] += 1  # 同じ語の並びのあとに来た語
entropy = -sum(c * np.log(c / sum(f.values())) for f in following.values() for c in f.values())
floor = entropy / (batch.shape[0] * (batch.shape[1] - 1))  # 文どうしが食い違う位置の分だけ、損失は 0 にならない

print(
    figure_html(
        loss_curve_figure(run.losses, run.lr, floor, "48 位置の平均損失"),
        alt=f"デコーダの学習曲線。平均損失は {run.losses[0]:.2f} から {run.final_loss:.4f} に下がり、"
        f"このデータの最小値 {floor:.4f} に近づく。"
        f"学習率は {np.argmax(run.lr) + 1} ステップ目の {run.lr.max():.3f} が最大。",
    )
)
