from transformer_figures import markdown_table
from transformer_math import counting

d, d_ff = 512, 2048
block = counting.block_params(d, d_ff)  # 位置ごとに同じ重みを使うので n によらない
rows = []
for n in (128, 512, 2048):
    perceptron = (n * d) ** 2  # 全 n·d 入力 × 全 n·d 出力
    assert perceptron == counting.perceptron_params(n, d)
    rows.append([f"{n:,}", f"{perceptron:,}", f"{block:,}", f"{perceptron / block:,.0f}"])

print(markdown_table(["トークン数 n", "パーセプトロン (n·d)²", "ブロック", "比"], rows, "rrrr"))
