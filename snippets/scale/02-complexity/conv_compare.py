from transformer_math import comparisons, counting

n, d, d_ff = 512, 512, 2048
block = sum(counting.attention_multiplies(n, n, d).values()) + counting.ffn_multiplies(n, d, d_ff)
k, k_convs2s = comparisons.NOTES_CONV_K, comparisons.CONVS2S_K
rows = [
    (
        f"1 次元畳み込み k = {k}",
        "k·n·d²",
        counting.convolutional_multiplies(n, d, k),
    ),
    (
        f"1 次元畳み込み k = {k_convs2s}（ConvS2S）",
        "k·n·d²",
        counting.convolutional_multiplies(n, d, k_convs2s),
    ),
    ("再帰層", "n·d²", counting.recurrent_multiplies(n, d)),
    ("Self-Attention のスコア", "n²·d", counting.self_attention_multiplies(n, d)),
    ("Transformer ブロック全体", "4·n·d² + 2·n²·d + 2·n·d·d_ff", block),
]
print(f"| 層（n = {n}, d = {d}） | 式 | 掛け算 |")
print("|---|---|---:|")
for name, formula, value in rows:
    print(f"| {name} | {formula} | {value:,} |")
