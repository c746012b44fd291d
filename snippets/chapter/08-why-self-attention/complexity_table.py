from transformer_figures import markdown_table
from transformer_math import counting

d, k, r = 512, 3, 32  # 表現の次元、畳み込みの幅、制限付き注意の窓
names = {
    "self_attention": "Self-Attention",
    "recurrent": "Recurrent（RNN）",
    "convolutional": f"Convolutional（k = {k}）",
    "restricted": f"制限付き（r = {r}）",
}
# 上の表: 原論文の表 1 のオーダー。下の表: 定数を 1 として d = 512 で数えた回数
orders = [
    [names[row.kind], f"${row.complexity}$", f"${row.sequential}$", f"${row.max_path}$"]
    for row in counting.LAYER_COMPLEXITY
]
counts = [
    [
        names[row.kind],
        f"{row.multiplies(128, d, k=k, r=r):,}",
        f"{row.multiplies(2048, d, k=k, r=r):,}",
        str(row.max_path_length(d, k=k, r=r)),
    ]
    for row in counting.LAYER_COMPLEXITY
]
assert counting.self_attention_multiplies(d, d) == counting.recurrent_multiplies(d, d)  # n = d で並ぶ

print(
    markdown_table(["層の種類", "1 層の計算量", "逐次処理", "最長経路"], orders)
    + "\n\n"
    + markdown_table(["層の種類", "掛け算（n = 128）", "掛け算（n = 2048）", f"経路の層数（n = {d}）"], counts, "lrrr")
)
