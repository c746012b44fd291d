import numpy as np

from transformer_figures import figure_html
from transformer_figures.scale_figs import dot_vs_cos
from transformer_math import similarity
from transformer_pages.scale import pre_ln

# 8 文それぞれの全トークン対（1 文 10 対 × 8 文）で、内積と cos を比べる
pairs = {stage: pre_ln.preset_dot_cos(stage) for stage in ("X", "ln1_out")}  # stage → (内積, cos), 各 (80,)
dots, coss = pairs["X"]
flips = similarity.rank_disagreements(dots, coss)  # 内積と cos で大小が食い違う「対の対」
assert np.allclose(*pairs["ln1_out"], atol=1e-4)  # LayerNorm の後は 内積 / d_model ≈ cos

print(
    figure_html(
        dot_vs_cos(pairs),
        alt=f"preset の 8 文の全トークン対 {dots.size} 組の、横軸 cos、縦軸 内積の散布図。"
        f"正規化前の X では点が散らばり、内積と cos で大小が食い違う組み合わせが {flips} ある。"
        "LayerNorm の後は内積 / d_model が cos に一致し、点が対角線に並ぶ。",
    )
)
