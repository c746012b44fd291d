import numpy as np

from transformer_figures import figure_html
from transformer_figures.scale_figs import noam_schedule
from transformer_math import schedules

d_model, warmup = schedules.D_MODEL, schedules.WARMUP_STEPS  # 512, 4000
step = np.arange(1, 40_001)
rise = d_model**-0.5 * step * warmup**-1.5  # 増加の枝 (ウォームアップ)
decay = d_model**-0.5 * step**-0.5  # 減衰の枝
lr = np.minimum(rise, decay)  # η = d_model^−0.5 · min(step^−0.5, step · T_w^−1.5)
assert np.allclose(lr, schedules.noam_lr(step))
peak_step = int(step[np.argmax(lr)])  # 2 つの枝が交わる step = T_w
peak_lr = float(lr.max())
assert peak_step == schedules.noam_peak_step()
summary = f"<p>ピーク: step = {peak_step:,}、η = {peak_lr:.3e}</p>"

print(
    summary
    + figure_html(
        noam_schedule(step, lr, rise, decay, (peak_step, peak_lr)),
        alt=f"原論文の学習率のスケジュール。step {peak_step} まで直線的に増え、そこで最大 {peak_lr:.2e} に達し、"
        "その後 1/√step で減る。",
    )
)
