from transformer_figures import show
from transformer_figures.scale_figs import label_smoothing_target
from transformer_math import preset, schedules

# preset の語彙 16 語で、正解を「花」(id 4) としたときの目標分布
label = preset.VOCAB.index("花")
target = schedules.label_smoothing_target(label, len(preset.VOCAB))
print(f"<p>正解「花」: {target[label]:.5f}、それ以外の 15 語: 各 {target[0]:.5f}、合計 {target.sum():.1f}</p>")
show(
    label_smoothing_target(label, list(preset.VOCAB)),
    alt=f"preset の {len(target)} 語に対する目標分布。one-hot は花だけが 1、平滑化後は花が {target[label]:.5f}、"
    f"他の語が {target[0]:.5f} ずつ。",
)
