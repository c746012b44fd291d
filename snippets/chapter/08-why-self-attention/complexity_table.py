from transformer_figures import markdown_table
from transformer_math import counting

d, k, r = 512, 3, 32  # 表現の次元、畳み込みの幅、制限付き注意の窓
names = {
    "self_attention": "Self-Attention",
    "recurrent": "Recurrent（RNN）",
    "convolutional": f"Convolutional（k = {k}）",
    "restricted": f"制限付き（r = {r}）",
}
# 表 1 の主要項を、定数を 1 として数える: 長さ n の系列 1 つ、1 層ぶんの掛け算
multiplies = {
    "self_attention": lambda n: n**2 * d,  # n × n のスコア、1 つに d 回
    "recurrent": lambda n: n * d**2,  # 1 ステップに d × d の行列、n ステップ
    "convolutional": lambda n: k * n * d**2,  # 位置ごとに d × d の行列を k 枚
    "restricted": lambda n: r * n * d,  # 窓の中の r 個のキーだけ
}
assert all(multiplies[row.kind](128) == row.multiplies(128, d, k=k, r=r) for row in counting.LAYER_COMPLEXITY)
# 上の表: 原論文の表 1 のオーダー。下の表: d = 512 で数えた回数と、最初と最後の位置を結ぶ層数
orders = [
    [names[row.kind], f"${row.complexity}$", f"${row.sequential}$", f"${row.max_path}$"]
    for row in counting.LAYER_COMPLEXITY
]
counts = [
    [names[kind], f"{f(128):,}", f"{f(2048):,}", str(counting.layer_complexity(kind).max_path_length(d, k=k, r=r))]
    for kind, f in multiplies.items()
]

print(
    markdown_table(["層の種類", "1 層の計算量", "逐次処理", "最長経路"], orders)
    + "\n\n"
    + markdown_table(["層の種類", "掛け算（n = 128）", "掛け算（n = 2048）", f"経路の層数（n = {d}）"], counts, "lrrr")
)
