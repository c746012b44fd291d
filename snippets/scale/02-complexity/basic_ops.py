from transformer_math import configs

d, h = configs.TRANSFORMER_BASE.d_model, configs.TRANSFORMER_BASE.n_heads
d_k = d // h

# 掛け算の回数: 内積は長さぶん、ベクトル × 行列は (入力次元) × (出力次元)
print("| 演算 | 1 ヘッドで d 次元 | h ヘッドで d/h 次元ずつ（合計） |")
print("|---|---:|---:|")
print(f"| 内積 q · k | {d:,} | {h} × {d_k} = {h * d_k:,} |")
print(f"| ベクトル × W（d → d） | {d * d:,} | {h} × {d * d_k:,} = {h * d * d_k:,} |")
