import numpy as np

from transformer_figures import figure_html
from transformer_figures.scale_figs import label_smoothing_figure
from transformer_math import preset, schedules

# preset の語彙 16 語で、正解を「花」(id 4) としたときの目標分布
K, label, eps = preset.VOCAB_SIZE, preset.WORD_ID["花"], schedules.LABEL_SMOOTHING
onehot = np.eye(K)[label]  # (K,)
target = (1 - eps) * onehot + eps / K  # q′ = (1 − ε)·onehot + ε/K
assert np.allclose(target, schedules.label_smoothing_target(label, K)) and np.isclose(target.sum(), 1.0)
summary = f"<p>正解「花」: {target[label]:.5f}、それ以外の 15 語: 各 {target[0]:.5f}、合計 {target.sum():.1f}</p>"

print(
    summary
    + figure_html(
        label_smoothing_figure(onehot, target, list(preset.VOCAB), eps),
        alt=f"preset の {K} 語に対する目標分布。one-hot は花だけが 1、平滑化後は花が {target[label]:.5f}、"
        f"他の語が {target[0]:.5f} ずつ。",
    )
)
