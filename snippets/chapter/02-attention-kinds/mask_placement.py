import numpy as np

from transformer_figures import figure_html
from transformer_figures.chapter_figs import mask_placement_figure
from transformer_math import ops, preset_trace
from transformer_pages.chapter import attention_kinds

scores = preset_trace(attention_kinds.MASK_SENTENCE).scores[0]  # 文 1・ヘッド 0 の scores (T, T)
M = ops.causal_mask(len(scores))  # j > i が −∞ の加算マスク
masked_before = ops.softmax(scores + M)  # 正しい: softmax の前に足す
zeroed_after = np.where(np.isinf(M), 0.0, ops.softmax(scores))  # 誤り: softmax の後で未来を 0 にする
assert np.array_equal(masked_before, attention_kinds.mask().masked_before)
row_sums = zeroed_after.sum(axis=-1)  # 1 に満たない行ができる

print(
    figure_html(
        mask_placement_figure(masked_before, zeroed_after, attention_kinds.MASK_WORDS),
        alt=f"文 {attention_kinds.MASK_SENTENCE} のヘッド 0 の注意の重みを 2 通りに並べたヒートマップ。"
        "1 つ目は softmax の前にマスクを足したもので各行の和は 1。"
        f"2 つ目は softmax の後で未来の列を 0 にしたもので、行の和は上から {', '.join(f'{s:.2f}' for s in row_sums)}。",
    )
)
