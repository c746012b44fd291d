from transformer_figures import markdown_table
from transformer_math import counting

n, d = 512, 512
# Self: クエリも n 個。Cross（1 語ずつ生成するデコーダ）: 新しいクエリは 1 個、キーとバリューはエンコーダの n 個
cases = {"Self-Attention": (n, n), "Cross-Attention（クエリ 1 個）": (1, n)}
rows = []
for name, (n_q, n_k) in cases.items():
    q, k, v = n_q * d * d, n_k * d * d, n_k * d * d  # 射影 1 つ = ベクトルの数 × d × d
    m = counting.attention_multiplies(n_q, n_k, d)
    assert (q, k, v) == (m["q_projection"], m["k_projection"], m["v_projection"])
    rows.append([name, f"{q:,}", f"{k:,}", f"{v:,}", f"{q + k + v:,}"])

print(markdown_table(["", "Q = X W_Q", "K = X W_K", "V = X W_V", "射影の合計"], rows, "lrrrr"))
