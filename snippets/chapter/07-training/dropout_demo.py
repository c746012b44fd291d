import numpy as np

from transformer_figures import markdown_table
from transformer_math import configs, ops
from transformer_pages.chapter import training

p = configs.TRANSFORMER_BASE.dropout
x = np.ones((512, 512))  # 全要素 1 の配列
out = ops.dropout(x, p, training.DROPOUT_SEED)  # 確率 p で 0、残りは 1/(1 − p) 倍 (シード固定)
zero_fraction, mean = float(np.mean(out == 0.0)), float(out.mean())
assert zero_fraction == training.dropout_demo()["zero_fraction"]
rows = [
    ["要素数", f"{out.size:,}", "—"],
    ["0 になった割合", f"{zero_fraction:.4f}", f"{p:g}"],
    ["残った要素の値 1/(1 − p)", f"{1 / (1 - p):.4f}", "—"],
    ["全体の平均", f"{mean:.4f}", "1"],
]

print(markdown_table(["量", "値", "期待値"], rows))
