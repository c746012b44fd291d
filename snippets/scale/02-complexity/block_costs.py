from transformer_figures import markdown_table
from transformer_math import configs, counting

d, d_ff = configs.TRANSFORMER_BASE.d_model, configs.TRANSFORMER_BASE.d_ff
n = 512
m = counting.attention_multiplies(n, n, d)  # 段ごとの掛け算の回数
parts = [
    ("Q, K, V の射影", "3·n·d²", m["q_projection"] + m["k_projection"] + m["v_projection"]),
    ("スコア Q Kᵀ", "n²·d", m["scores"]),
    ("重み付き和 attn · V", "n²·d", m["weighted_sum"]),
    ("出力の射影 W_O", "n·d²", m["o_projection"]),
    ("FFN（W_1 と W_2）", "2·n·d·d_ff", counting.ffn_multiplies(n, d, d_ff)),
]
total = sum(value for *_, value in parts)
assert total == 4 * n * d**2 + 2 * n**2 * d + 2 * n * d * d_ff
rows = [[name, formula, f"{value:,}", f"{value / total:.1%}"] for name, formula, value in parts]
rows.append(["**ブロック全体**", "4·n·d² + 2·n²·d + 2·n·d·d_ff", f"**{total:,}**", "100%"])

print(markdown_table([f"部分（n = {n}）", "式", "掛け算", "割合"], rows, "llrr"))
