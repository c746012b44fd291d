import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import position_rows_figure
from transformer_math import backward as bw
from transformer_math import ops, preset_weights
from transformer_math.preset import SENTENCES

W = preset_weights()
g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
tr = g.loss.trace
q, k = tr.Q.transpose(1, 0, 2), tr.K.transpose(1, 0, 2)  # (h, T, d_k)
d_k = q.shape[-1]

d_q = g.d_scores @ k / np.sqrt(d_k)  # (h, T, d_k)  ∂L/∂q_i = Σ_j ∂L/∂S_ij k_j / √d_k
d_kk = g.d_scores.transpose(0, 2, 1) @ q / np.sqrt(d_k)  # (h, T, d_k)  ∂L/∂k_j = Σ_i ∂L/∂S_ij q_i / √d_k
d_Q, d_K = d_q.transpose(1, 0, 2), d_kk.transpose(1, 0, 2)  # (T, h, d_k)
assert np.allclose(d_Q, g.d_Q) and np.allclose(d_K, g.d_K)

# 射影 Q = X W_Q などの逆伝播: 重みの勾配と、X へ戻る分
d_W_Q = tr.X.T @ ops.concat_heads(d_Q)  # (d_model, h·d_k)
d_X_attn = sum(ops.concat_heads(d) @ M.T for d, M in ((d_Q, W.W_Q), (d_K, W.W_K), (g.d_V, W.W_V)))  # (T, d_model)
d_X = g.d_residual1 + d_X_attn  # 残差の道 + attention の道
assert np.allclose(d_W_Q, g.d_W_Q) and np.allclose(d_X, g.d_X)

norm = lambda a: np.linalg.norm(a.reshape(a.shape[0], -1), axis=1)  # noqa: E731  位置ごとのノルム
rows = {
    "‖∂L/∂Q[t]‖": norm(d_Q),
    "‖∂L/∂K[t]‖": norm(d_K),
    "‖∂L/∂V[t]‖": norm(g.d_V),
    "‖∂L/∂X[t]‖ (残差 + attention)": norm(d_X),
}
print(
    figure_html(
        position_rows_figure(rows, SENTENCES[0].words, "位置ごとの勾配の大きさ"),
        alt="位置ごとの ∂L/∂Q, ∂L/∂K, ∂L/∂V, ∂L/∂X のノルム。"
        "∂L/∂Q は T3 だけが 0 でなく、∂L/∂K と ∂L/∂V は 5 つの位置すべてに入る。",
    )
)
