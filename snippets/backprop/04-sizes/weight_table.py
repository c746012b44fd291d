import numpy as np

from transformer_figures import table_html
from transformer_math import backward as bw

g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
formulas = {
    "W_E": "出力側 ∂L/∂z ⊗ ln2_out[p] + 入力側 Σ ∂L/∂X[t]", "W_Q": "Xᵀ ∂L/∂Q", "W_K": "Xᵀ ∂L/∂K",
    "W_V": "Xᵀ ∂L/∂V", "W_O": "concatᵀ ∂L/∂Y", "ln1_gamma": "Σ_t ∂L/∂ln1_out ⊙ x̂", "ln1_beta": "Σ_t ∂L/∂ln1_out",
    "W1": "ln1_outᵀ ∂L/∂ffn_pre", "b1": "Σ_t ∂L/∂ffn_pre", "W2": "ffn_hᵀ ∂L/∂ffn_out", "b2": "Σ_t ∂L/∂ffn_out",
    "ln2_gamma": "Σ_t ∂L/∂ln2_out ⊙ x̂", "ln2_beta": "Σ_t ∂L/∂ln2_out",
}  # fmt: skip
symbols = {"ln1_gamma": "γ₁", "ln1_beta": "β₁", "ln2_gamma": "γ₂", "ln2_beta": "β₂"}  # LayerNorm 1, 2 の γ, β
rows = []
for name, grad in g.weight_gradients().items():  # ブロックのすべての重み
    rank = str(np.linalg.matrix_rank(grad)) if grad.ndim == 2 else "—"
    rows.append([symbols.get(name, name), str(grad.shape), formulas[name], f"{np.linalg.norm(grad):.3f}", rank])
assert len(rows) == len(bw.WEIGHT_NAMES)

caption = "文1 で「花」を隠した例のすべての重みの勾配"
print(table_html(["重み", "形", "勾配の式", "‖∂L/∂W‖", "階数"], rows, caption=caption))
