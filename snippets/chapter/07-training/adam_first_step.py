from transformer_math import comparisons, schedules

# 勾配の大きさが 100 万倍違う 3 つのパラメータに、Adam の最初の 1 歩をかける
peak = schedules.noam_peak_lr()
warm = schedules.noam_lr(1)
no_warmup = comparisons.first_adam_step(peak)  # いきなりピークの学習率で始めた場合
with_warmup = comparisons.first_adam_step(warm)  # Noam スケジュールの step 1
print("| 最初の勾配 g | 動く量 \\|Δθ\\|（ウォームアップなし） | 動く量 \\|Δθ\\|（Noam の step 1） |")
print("|---:|---:|---:|")
for g, a, b in zip(comparisons.WARMUP_DEMO_GRADIENTS, no_warmup, with_warmup, strict=True):
    print(f"| {g:.0e} | {a:.3e} | {b:.3e} |")
