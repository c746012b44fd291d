from transformer_figures import show
from transformer_figures.chapter_figs import padding_figure
from transformer_math import experiments

p = experiments.PADDING  # 6 位置のうち後ろ 2 つが詰め物、q = k = v = x（乱数、seed 固定）
show(
    padding_figure(),
    alt="6 位置（うち 2 つがパディング）の自己注意の重み。左はパディングマスクありで pad の列がすべて 0。"
    "右はマスクなしで、実トークンの行も pad の列に合計で最大 "
    f"{p.weight_on_padding_unmasked[:4].max():.2f} の重みを置いている。",
)
