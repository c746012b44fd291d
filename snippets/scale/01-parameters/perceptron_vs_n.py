from transformer_math import counting

d, d_ff = 512, 2048
block = counting.block_params(d, d_ff)  # 位置ごとに同じ重みを使うので n によらない

print("| トークン数 n | パーセプトロン (n·d)² | ブロック | 比 |")
print("|---:|---:|---:|---:|")
for n in (128, 512, 2048):
    perceptron = counting.perceptron_params(n, d)
    print(f"| {n:,} | {perceptron:,} | {block:,} | {perceptron / block:,.0f} |")
