from transformer_math import comparisons, configs, counting

d, d_ff = configs.TRANSFORMER_BASE.d_model, configs.TRANSFORMER_BASE.d_ff
shapes = {"W_Q": (d, d), "W_K": (d, d), "W_V": (d, d), "W_O": (d, d), "W_1": (d, d_ff), "W_2": (d_ff, d)}

# ノートと同じく重み行列だけを 1 枚ずつ数え、最後にバイアスと LayerNorm を足す
print("| 項 | 形 | 個数 |")
print("|---|---|---:|")
for name, count in comparisons.block_weight_terms(d, d_ff).items():
    rows, cols = shapes[name]
    print(f"| ${name}$ | {rows} × {cols} | {count:,} |")
weights = counting.block_params(d, d_ff, bias=False, layer_norm=False)
print(f"| **重みの合計** | | **{weights:,}** |")
for name, count in comparisons.block_small_terms(d, d_ff).items():
    print(f"| {name} | | {count:,} |")
print(f"| **ブロック全体** | | **{counting.block_params(d, d_ff):,}** |")
