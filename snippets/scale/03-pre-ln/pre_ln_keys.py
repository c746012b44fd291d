import numpy as np

from transformer_figures import markdown_table
from transformer_math import ops, preset, preset_trace, preset_weights
from transformer_pages.scale import pre_ln

W = preset_weights()
words = preset.sentence(1).words  # 文1「これ は 美しい 花 です」
X = preset_trace(1).X  # (T, d_model) ブロックの入力 (まだ正規化していない)
ln_X = ops.layer_norm(X, W.ln1_gamma, W.ln1_beta, W.eps)  # Pre-LN ではサブ層の入力を先に正規化する: (T, d_model)

a, d_k = 0, W.d_k  # ヘッド a = 0 (形容詞・指示語 → 名詞)
cols = slice(a * d_k, (a + 1) * d_k)  # W_Q, W_K のうちヘッド a の列
q = ln_X @ W.W_Q[:, cols]  # (T, d_k) クエリ q_i = LN(x_i) W_Q
k = ln_X @ W.W_K[:, cols]  # (T, d_k) キー k_j = LN(x_j) W_K
i = words.index("美しい")  # クエリ側に置く語
cos = k @ q[i] / (np.linalg.norm(k, axis=1) * np.linalg.norm(q[i]))  # 向きだけの近さ
scores = k @ q[i] / np.sqrt(d_k)  # (T,) = ‖q_i‖ ‖k_j‖ cos / √d_k
attn = ops.softmax(scores)  # (T,) 「美しい」の行の重み
assert np.allclose(attn, pre_ln.weights("Pre-LN"))

k_post = X @ W.W_K[:, cols]  # Post-LN の最初のブロックは X をそのまま射影する
rows = [
    [
        f"「{w}」",
        f"{np.linalg.norm(k_post[j]):.3f}",
        f"{np.linalg.norm(ln_X[j]):.3f}",
        f"{np.linalg.norm(k[j]):.3f}",
        f"{cos[j]:+.3f}",
        f"{attn[j]:.3f}",
    ]
    for j, w in enumerate(words)
]

print(
    markdown_table(
        ["キー j", "‖x_j W_K‖ (Post-LN)", "‖LN(x_j)‖", "‖k_j‖ (Pre-LN)", "cos(q_美しい, k_j)", "重み (Pre-LN)"],
        rows,
        "lrrrrr",
    )
)
