from transformer_figures import markdown_table
from transformer_math import counting
from transformer_pages.scale import complexity

n, d, d_ff = 512, 512, 2048
block = sum(counting.attention_multiplies(n, n, d).values()) + counting.ffn_multiplies(n, d, d_ff)
k, k_convs2s = complexity.NOTES_CONV_K, complexity.CONVS2S_K
layers = [
    (f"1 次元畳み込み k = {k}", "k·n·d²", k * n * d**2),  # 位置ごとに d × d の行列を k 枚
    (f"1 次元畳み込み k = {k_convs2s}", "k·n·d²", k_convs2s * n * d**2),
    ("再帰層", "n·d²", n * d**2),
    ("Self-Attention のスコア", "n²·d", n**2 * d),
    ("Transformer ブロック全体", "4·n·d² + 2·n²·d + 2·n·d·d_ff", block),
]
assert layers[0][2] == counting.convolutional_multiplies(n, d, k) and block == complexity.BLOCK
rows = [[name, formula, f"{value:,}"] for name, formula, value in layers]

print(markdown_table([f"層（n = {n}, d = {d}）", "式", "掛け算"], rows, "llr"))
