from transformer_math import counting

n, d = 512, 512
# Self: クエリも n 個。Cross（1 語ずつ生成するデコーダ）: 新しいクエリは 1 個、キーとバリューはエンコーダの n 個
rows = {
    "Self-Attention": counting.attention_multiplies(n, n, d),
    "Cross-Attention（クエリ 1 個）": counting.attention_multiplies(1, n, d),
}
print("| | Q = X W_Q | K = X W_K | V = X W_V | 射影の合計 |")
print("|---|---:|---:|---:|---:|")
for name, m in rows.items():
    total = m["q_projection"] + m["k_projection"] + m["v_projection"]
    print(f"| {name} | {m['q_projection']:,} | {m['k_projection']:,} | {m['v_projection']:,} | {total:,} |")
