from transformer_math import counting

d, k, r = 512, 3, 32  # 表現の次元、畳み込みの幅、制限付き注意の窓
names = {
    "self_attention": "Self-Attention",
    "recurrent": "Recurrent（RNN）",
    "convolutional": f"Convolutional（k = {k}）",
    "restricted": f"制限付き（r = {r}）",
}
# 上の表: 原論文の表 1 のオーダー。下の表: 定数を 1 として d = 512 で数えた回数
print("| 層の種類 | 1 層の計算量 | 逐次処理 | 最長経路 |")
print("|---|---|---|---|")
for row in counting.LAYER_COMPLEXITY:
    print(f"| {names[row.kind]} | ${row.complexity}$ | ${row.sequential}$ | ${row.max_path}$ |")
print()
print(f"| 層の種類 | 掛け算（n = 128） | 掛け算（n = 2048） | 経路の層数（n = {d}） |")
print("|---|---:|---:|---:|")
for row in counting.LAYER_COMPLEXITY:
    small = row.multiplies(128, d, k=k, r=r)
    large = row.multiplies(2048, d, k=k, r=r)
    path = row.max_path_length(d, k=k, r=r)
    print(f"| {names[row.kind]} | {small:,} | {large:,} | {path} |")
