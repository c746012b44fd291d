import numpy as np

from transformer_figures import figure_html
from transformer_figures.chapter_figs import padding_figure
from transformer_math import ops
from transformer_pages.chapter import attention_kinds as kinds

p = kinds.padding()  # 6 位置のうち後ろ 2 つが詰め物、q = k = v = x（乱数、seed 固定）
valid = np.arange(kinds.PADDING_T) < kinds.PADDING_VALID  # (T,) 本物のトークンか
mask = ops.padding_mask(valid)  # (1, T): 詰め物のキーに −∞、どのクエリの行にも同じく足す
assert np.array_equal(valid, p.valid) and np.all(mask[0, ~valid] == -np.inf)
on_padding = p.weights_unmasked[:, ~valid].sum(axis=-1)  # マスクなしで各クエリが詰め物に置く重み

print(
    figure_html(
        padding_figure(p.weights, p.weights_unmasked, valid),
        alt="6 位置（うち 2 つがパディング）の自己注意の重み。左はパディングマスクありで pad の列がすべて 0。"
        f"右はマスクなしで、実トークンの行も pad の列に合計で最大 {on_padding[: kinds.PADDING_VALID].max():.2f} "
        "の重みを置いている。",
    )
)
