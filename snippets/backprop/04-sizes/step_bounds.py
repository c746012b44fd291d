import numpy as np

from transformer_figures import table_html
from transformer_math import backward as bw
from transformer_math import preset_weights
from transformer_pages.backprop import sizes

# 連鎖律の 1 段は「勾配 × その段のヤコビアン」。ヤコビアンの大きさ (スペクトルノルム ‖J‖₂) が、
# 勾配がその段で何倍になりうるかの上限: ‖後‖ ≤ ‖J‖₂ · ‖前‖
# 例: LayerNorm 2 のヤコビアン (T3 の行) を式から作る。J = (γ/σ)(I − 11ᵀ/d − x̂ x̂ᵀ/d)
W, x = preset_weights(), bw.preset_gradients(1, 3).loss.trace.residual2[3]  # (d_model,)
d = x.shape[0]
sigma = np.sqrt(x.var() + W.eps)
x_hat = (x - x.mean()) / sigma
J_ln2 = W.ln2_gamma[:, None] / sigma * (np.eye(d) - np.ones((d, d)) / d - np.outer(x_hat, x_hat) / d)  # (d, d)
assert np.allclose(J_ln2, sizes.layer_norm_jacobian(2))
assert np.isclose(np.linalg.norm(J_ln2, 2), 1 / sigma)  # 平均の向きと x̂ の向きを消す射影 × 1/σ

rows = []
for s in sizes.steps():  # 残りの段の上限も同じように、その段のヤコビアンのスペクトルノルム
    ratio = s.size_after / s.size_before
    assert ratio <= s.bound * (1 + 1e-12)
    rows.append([f"∂L/∂{s.before} → ∂L/∂{s.after}", s.what, f"{s.size_before:.3f}", f"{s.size_after:.3f}",
                 f"{ratio:.3f}", f"{s.bound:.3f}"])  # fmt: skip

print(table_html(["段", "ヤコビアン", "‖前‖", "‖後‖", "比 ‖後‖/‖前‖", "上限 ‖J‖₂"], rows,
                 caption="文1 で「花」を隠した例の T3 の行 (ヘッドごとの段はヘッドごと)"))  # fmt: skip
