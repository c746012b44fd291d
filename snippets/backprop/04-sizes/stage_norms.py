import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import gradient_norms_figure
from transformer_math import backward as bw
from transformer_math.preset import SENTENCES

# 40 例 (8 文 × 隠す位置 5 つ) それぞれで、段ごとの ‖∂L/∂·‖ (フロベニウスノルム) を測る
norms = {(s.number, p): bw.gradient_norms(bw.preset_gradients(s.number, p)) for s in SENTENCES for p in range(5)}
stages = list(norms[1, 3])  # ∂L/∂ln2_out から ∂L/∂X まで、勾配が流れる順
example = [norms[1, 3][name] for name in stages]  # 文1 で「花」を隠した例
others = np.array([[n[name] for name in stages] for key, n in norms.items() if key != (1, 3)])  # (39, stages)

print(
    figure_html(
        gradient_norms_figure(stages, example, others, "文1 で「花」を隠した例"),
        alt="段ごとの勾配のノルム (対数目盛)。∂L/∂attn で大きく増え、∂L/∂scores で大きく減る。"
        f"文1 の例では ∂L/∂attn が {norms[1, 3]['d_attn']:.1f}、∂L/∂scores が {norms[1, 3]['d_scores']:.2f}。",
    )
)
