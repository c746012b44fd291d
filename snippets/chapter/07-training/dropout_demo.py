from transformer_math import comparisons, configs

p = configs.TRANSFORMER_BASE.dropout
# 512 × 512 の全要素 1 の配列にドロップアウトをかける（シード固定）
demo = comparisons.dropout_demo(p)
print("| 量 | 値 | 期待値 |")
print("|---|---|---|")
print(f"| 要素数 | {demo['size']:,} | — |")
print(f"| 0 になった割合 | {demo['zero_fraction']:.4f} | {p:g} |")
print(f"| 残った要素の値 1/(1 − p) | {1 / (1 - p):.4f} | — |")
print(f"| 全体の平均 | {demo['mean']:.4f} | 1 |")
