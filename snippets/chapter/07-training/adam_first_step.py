import numpy as np

from transformer_figures import markdown_table
from transformer_math import adam, schedules
from transformer_pages.chapter import training

# 勾配の大きさが 100 万倍違う 3 つのパラメータに、Adam の最初の 1 歩をかける
g = np.array([training.WARMUP_DEMO_GRADIENTS])  # (steps, parameters) = (1, 3)
no_warmup = np.abs(adam.adam_updates(g, schedules.noam_peak_lr())[0])  # いきなりピークの学習率で始めた場合
with_warmup = np.abs(adam.adam_updates(g, schedules.noam_lr(1))[0])  # 原論文のスケジュール (Noam) の step 1
# 1 歩目は m̂ = g, v̂ = g² なので |Δθ| = η·|g| / (|g| + ε) ≈ η: 勾配の大きさによらない
assert np.allclose(no_warmup, schedules.noam_peak_lr(), rtol=1e-2)
rows = [[f"{g:.0e}", f"{a:.3e}", f"{b:.3e}"] for g, a, b in zip(g[0], no_warmup, with_warmup, strict=True)]

headers = ["最初の勾配 g", "動く量 |Δθ|（ウォームアップなし）", "動く量 |Δθ|（原論文のスケジュールの step 1）"]

print(markdown_table(headers, rows, "rrr"))
