from transformer_figures import show
from transformer_figures.scale_figs import noam_schedule
from transformer_math import schedules

# η = d_model^−0.5 · min(step^−0.5, step · T_w^−1.5)、d_model = 512、T_w = 4000
peak_step = schedules.noam_peak_step()
peak_lr = schedules.noam_peak_lr()
print(f"<p>ピーク: step = {peak_step:,}、η = {peak_lr:.3e}</p>")
show(
    noam_schedule(steps=40_000),
    alt=f"Noam 学習率の推移。step {peak_step} まで直線的に増え、そこで最大 {peak_lr:.2e} に達し、"
    "その後 1/√step で減る。",
)
