from transformer_figures import markdown_table
from transformer_math import configs, counting

d, d_ff = configs.TRANSFORMER_BASE.d_model, configs.TRANSFORMER_BASE.d_ff
shapes = {"W_Q": (d, d), "W_K": (d, d), "W_V": (d, d), "W_O": (d, d), "W_1": (d, d_ff), "W_2": (d_ff, d)}

# 重み行列を 1 枚ずつ数え (形の積)、最後にバイアスと LayerNorm を足す
terms = {name: rows * cols for name, (rows, cols) in shapes.items()}
weights = sum(terms.values())  # 4·d² + 2·d·d_ff
assert terms == counting.block_weight_terms(d, d_ff) and weights == counting.block_params(d, d_ff, False, False)
small = counting.block_small_terms(d, d_ff)  # b_Q … b_2 と LayerNorm の γ, β
table = [[f"${name}$", f"{r} × {c}", f"{terms[name]:,}"] for name, (r, c) in shapes.items()]
table += [["**重みの合計**", "", f"**{weights:,}**"]] + [[name, "", f"{n:,}"] for name, n in small.items()]
table += [["**ブロック全体**", "", f"**{weights + sum(small.values()):,}**"]]

print(markdown_table(["項", "形", "個数"], table, "llr"))
