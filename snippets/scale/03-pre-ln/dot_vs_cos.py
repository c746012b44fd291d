from transformer_figures import show
from transformer_figures.scale_figs import dot_vs_cos
from transformer_math import comparisons

# 8 文それぞれの全トークン対（1 文 10 対 × 8 文）で、内積と cos を比べる
dots, coss = comparisons.preset_dot_cos("X")
flips = comparisons.rank_disagreements(dots, coss)
show(
    dot_vs_cos(),
    alt=f"preset の 8 文の全トークン対 {dots.size} 組の、横軸 cos、縦軸 内積の散布図。"
    f"正規化前の X では点が散らばり、内積と cos で大小が食い違う組み合わせが {flips} ある。"
    "LayerNorm の後は内積 / d_model が cos に一致し、点が対角線に並ぶ。",
)
