import numpy as np

from transformer_figures import table_html
from transformer_math import ops, preset_trace, preset_weights

W, trace = preset_weights(), preset_trace(1)  # 文1「これ は 美しい 花 です」

# ブロックの各段を順に計算し、その shape を読む。行ベクトル並び: 1 行 = 1 トークン
X = W.W_E[trace.tokens] + ops.positional_encoding(5, 16)  # (T, d_model) = (5, 16)
Q = ops.split_heads(X @ W.W_Q, W.n_heads)  # (T, h·d_k) = (5, 16) → (T, h, d_k) = (5, 2, 8)
assert np.array_equal(X, trace.X) and np.array_equal(Q, trace.Q)  # 残りの段の shape はトレースから読む
stages = [
    ("tokens", "token id の列"),
    ("X", "埋め込み W_E[tokens] + 位置 W_P"),
    ("Q", "クエリ (トークン, ヘッド, k)"),
    ("K", "キー"),
    ("V", "バリュー"),
    ("scores", "Q·Kᵀ / √d_k (ヘッド, クエリ i, キー j)"),
    ("attn", "scores の各行に softmax"),
    ("concat", "ヘッドの出力を横に連結"),
    ("Y", "concat · W_O"),
    ("ln1_out", "LayerNorm(X + Y)"),
    ("ffn_h", "GELU(ln1_out · W1 + b1)"),
    ("ln2_out", "ブロックの出力"),
]
rows = [[name, " × ".join(str(n) for n in getattr(trace, name).shape), meaning] for name, meaning in stages]

print(table_html(["配列", "shape", "中身"], rows))
