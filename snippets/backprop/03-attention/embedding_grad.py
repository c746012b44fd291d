import numpy as np

from transformer_figures import table_html
from transformer_math import backward as bw
from transformer_math.preset import VOCAB

g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
tokens, p = g.loss.tokens, 3

d_W_E_input = np.zeros_like(g.d_W_E_output)  # (vocab, d_model)
for t, v in enumerate(tokens):
    if t != p:  # 隠した位置の X_tok は W_E の行ではなく 0 なので、W_E には何も返さない
        d_W_E_input[v] += g.d_X[t]  # X_tok[t] = W_E[x_t]: 使われた行に ∂L/∂X[t] を足す
assert np.allclose(d_W_E_input, g.d_W_E_input)
d_W_E = g.d_W_E_output + d_W_E_input  # 出力側 + 入力側
assert np.allclose(d_W_E, g.d_W_E)

rows = []
for v in np.argsort(-np.linalg.norm(d_W_E, axis=1))[:8]:  # 勾配の大きい 8 語
    norms = [np.linalg.norm(a[v]) for a in (g.d_W_E_output, d_W_E_input, d_W_E)]
    rows.append([f"{v} {VOCAB[v]}", *(f"{n:.3f}" for n in norms)])
print(table_html(["語", "出力側 ‖∂L/∂W_E[v]‖", "入力側", "合計"], rows, caption="W_E の行ごとの勾配 (大きい順に 8 語)"))
