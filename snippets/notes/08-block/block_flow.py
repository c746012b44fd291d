import numpy as np

from transformer_figures import figure_html
from transformer_figures.notes_ffn_figs import block_flow_figure, block_flow_phone_figure
from transformer_math import ops, preset_trace, preset_weights

W, tokens = preset_weights(), preset_trace(1).tokens  # 文1、token id (T,)

# 1 ブロックを上から下へ。各段の形は、この計算が実際に返した配列から読む
X = W.W_E[tokens] + ops.positional_encoding(len(tokens), W.d_model)  # (T, d_model)
Q, K, V = (ops.split_heads(X @ M, W.n_heads) for M in (W.W_Q, W.W_K, W.W_V))  # (T, h, d_k) ずつ
out, scores, attn = ops.scaled_dot_product_attention(*(np.swapaxes(a, 0, 1) for a in (Q, K, V)))  # (h, T, ·)
Y = ops.concat_heads(np.swapaxes(out, 0, 1)) @ W.W_O  # (T, h·d_k) @ (h·d_k, d_model)
ln1_out = ops.layer_norm(X + Y, W.ln1_gamma, W.ln1_beta, W.eps)
ffn_pre, ffn_h, ffn_out = ops.ffn(ln1_out, W.W1, W.b1, W.W2, W.b2)  # (T, d_ff), (T, d_ff), (T, d_model)
ln2_out = ops.layer_norm(ln1_out + ffn_out, W.ln2_gamma, W.ln2_beta, W.eps)
assert np.allclose(ln2_out, preset_trace(1).ln2_out)
stages = [
    ("tokens", "token id の列", tokens.shape),
    ("X = W_E[tokens] + W_P", "埋め込み + 位置", X.shape),
    ("Q, K, V = X·W_Q, X·W_K, X·W_V", "ヘッドに分割", Q.shape),
    ("scores = Q·K^T/√d_k, attn = softmax", "ヘッドごと", attn.shape),
    ("out = attn·V → concat → Y = concat·W_O", "ヘッドを連結", Y.shape),
    ("ln1_out = LayerNorm(X + Y)", "残差 + LN 1", ln1_out.shape),
    ("ffn_h = GELU(ln1_out·W1 + b1)", "トークンごと", ffn_h.shape),
    ("ffn_out = ffn_h·W2 + b2", "書き戻し", ffn_out.shape),
    ("ln2_out = LayerNorm(ln1_out + ffn_out)", "残差 + LN 2 = 出力", ln2_out.shape),
]

print(
    figure_html(
        block_flow_figure(stages),
        alt="1 ブロックの計算の流れ。tokens (5) → X (5, 16) → Q, K, V (5, 2, 8) → scores と attn (2, 5, 5) → "
        "Y (5, 16) → ln1_out (5, 16) → ffn_h (5, 32) → ffn_out (5, 16) → ln2_out (5, 16)。"
        "X と ln1_out から残差の矢印が LayerNorm へ伸びる。",
        phone=block_flow_phone_figure(stages),  # on a phone: each stage's shape on the line under its box
    )
)
