import numpy as np

from transformer_math import backward, ops
from transformer_pages import tryit
from transformer_site.panels import sdpa_panel_html

q, k = tryit.sdpa_qk()  # (6, 64) ずつ: 固定した 6 個のクエリとキー (成分は平均 0・分散 1 の乱数)

# 1 つの設定 (d_k = 8、√d_k で割る、マスクなし) を式のとおりに計算して、パネルのデータと比べる
d_k = 8
scores = q[:, :d_k] @ k[:, :d_k].T / np.sqrt(d_k)  # (6, 6)
attn = ops.softmax(scores, axis=-1)  # 各行の和が 1
assert np.allclose(attn, tryit.sdpa_state(d_k, True, False).weights)

# 勾配の読み出し: softmax の 1 行のヤコビアン J = diag(A) − A Aᵀ の大きさと、スコアに届く勾配 ∂L/∂S = J·∂L/∂A
# (8 個のキーの行を 2,000 本。上流の勾配 ∂L/∂A も乱数)。d_k = 1 … 64 と割る/割らないの 128 通りをビルド時に測る
raw, d_A = backward.random_scores(d_k, backward.SQRT_DK_KEYS, backward.SQRT_DK_QUERIES, backward.SQRT_DK_SEED)
A = ops.softmax(raw / np.sqrt(d_k), axis=-1)  # (2000, 8)
J = A[:, :, None] * np.eye(A.shape[1]) - A[:, :, None] * A[:, None, :]  # (2000, 8, 8)
d_S = np.einsum("ni,nij->nj", d_A, J)  # (2000, 8)
assert np.isclose(np.linalg.eigvalsh(J)[:, -1].mean(), tryit.sdpa_gradient(d_k, True).jacobian_norm)
assert np.isclose(np.sqrt(np.mean(d_S**2)), tryit.sdpa_gradient(d_k, True).d_scores_rms)

# 全 256 通り (d_k = 1 … 64 × 割る/割らない × マスクあり/なし) を同じ式で計算し、表示する桁に丸めて
# states[d_k][scale][causal] の順に埋め込む。ブラウザは選んで描くだけで、計算はしない
print(sdpa_panel_html("sdpa"))
