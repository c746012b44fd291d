from transformer_figures import markdown_table
from transformer_math import configs

d, h = configs.TRANSFORMER_BASE.d_model, configs.TRANSFORMER_BASE.n_heads
d_k = d // h

# 掛け算の回数: 内積は長さぶん、ベクトル × 行列は (入力次元) × (出力次元)
dot_one, dot_heads = d, h * d_k  # 1 ヘッドで d 次元 / h ヘッドで d/h 次元ずつ
vec_one, vec_heads = d * d, h * d * d_k
assert dot_one == dot_heads and vec_one == vec_heads  # ヘッドに分けても合計は同じ
rows = [
    ["内積 q · k", f"{dot_one:,}", f"{h} × {d_k} = {dot_heads:,}"],
    ["ベクトル × W（d → d）", f"{vec_one:,}", f"{h} × {d * d_k:,} = {vec_heads:,}"],
]

print(markdown_table(["演算", "1 ヘッドで d 次元", "h ヘッドで d/h 次元ずつ（合計）"], rows, "lrr"))
