from transformer_figures import show
from transformer_figures.chapter_figs import mask_placement_figure
from transformer_math import experiments

m = experiments.MASK  # 文 1・ヘッド 0 の scores に因果マスクをかける
show(
    mask_placement_figure(),
    alt=f"文 {experiments.MASK_SENTENCE} のヘッド 0 の注意の重みを 2 通りに並べたヒートマップ。"
    "左は softmax の前にマスクを足したもので各行の和は 1。"
    "右は softmax の後で未来の列を 0 にしたもので、行の和は上から "
    f"{', '.join(f'{s:.2f}' for s in m.row_sums_zeroed)}。",
)
