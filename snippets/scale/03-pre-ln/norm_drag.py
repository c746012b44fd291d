import numpy as np

from transformer_figures import markdown_table
from transformer_math import preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」
words = ["これ", "は", "美しい", "花", "です"]
i = words.index("花")  # クエリ側に置く語
X, ln = trace.X, trace.ln1_out  # ブロックの入力 X（正規化なし）と、LayerNorm 後の ln1_out: (T, d)
d = X.shape[1]
norms = np.linalg.norm(X, axis=1)  # ‖X_j‖: トークンごとに違う
cos = X @ X[i] / (norms * norms[i])  # 向きだけの近さ
rows = [
    [
        w,
        f"{norms[j]:.3f}",
        f"{X[i] @ X[j]:.3f}",
        f"{cos[j]:.3f}",
        f"{np.linalg.norm(ln[j]):.3f}",
        f"{ln[i] @ ln[j] / d:.3f}",
    ]
    for j, w in enumerate(words)
    if j != i
]

print(
    markdown_table(
        ["キー j", "‖X_j‖", "X_花 · X_j", "cos(X_花, X_j)", "‖ln1_out_j‖", "ln1_out_花 · ln1_out_j / d"], rows, "lrrrrr"
    )
)
