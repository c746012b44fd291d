import numpy as np

from transformer_figures.chapter_figs import cross_shapes_table
from transformer_math import ops
from transformer_pages.chapter import attention_kinds

n, m, d_model, h = 3, 5, 512, 8  # デコーダ 3 位置が エンコーダ 5 位置を見る
d_k = d_model // h
rng = np.random.default_rng(attention_kinds.SEED)
X_dec, X_enc = rng.standard_normal((n, d_model)), rng.standard_normal((m, d_model))
W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(4))
Q = ops.split_heads(X_dec @ W_Q, h).transpose(1, 0, 2)  # クエリはデコーダから: (h, n, d_k)
K = ops.split_heads(X_enc @ W_K, h).transpose(1, 0, 2)  # キーとバリューはエンコーダから: (h, m, d_k)
V = ops.split_heads(X_enc @ W_V, h).transpose(1, 0, 2)
scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)  # (h, n, m): 正方形ではない
concat = ops.concat_heads((ops.softmax(scores) @ V).transpose(1, 0, 2))  # (n, h·d_v)
out = concat @ W_O  # (n, d_model): デコーダ側の位置の数のまま
shapes = {
    "X_dec": X_dec.shape,
    "X_enc": X_enc.shape,
    "Q": Q.shape,
    "K": K.shape,
    "V": V.shape,
    "scores": scores.shape,
    "concat": concat.shape,
    "out": out.shape,
}
assert all(shapes[k] == v for k, v in attention_kinds.cross().shapes.items() if k in shapes)

print(cross_shapes_table(shapes))
