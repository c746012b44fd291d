import numpy as np

from transformer_math import preset_trace

trace = preset_trace(1)  # 文1「これ は 美しい 花 です」
words = ["これ", "は", "美しい", "花", "です"]
i = words.index("花")  # クエリ側に置く語


def cos(a, b):
    return a @ b / np.sqrt((a @ a) * (b @ b))


# ブロックの入力 X（正規化なし）と、LayerNorm 後の ln1_out で、内積と cos を並べる
print("| キー j | ‖X_j‖ | X_花 · X_j | cos(X_花, X_j) | ‖ln1_out_j‖ | ln1_out_花 · ln1_out_j / d |")
print("|---|---:|---:|---:|---:|---:|")
d = trace.X.shape[1]
for j, word in enumerate(words):
    if j == i:
        continue
    x, ln = trace.X, trace.ln1_out
    print(
        f"| {word} | {np.linalg.norm(x[j]):.3f} | {x[i] @ x[j]:.3f} | {cos(x[i], x[j]):.3f} "
        f"| {np.linalg.norm(ln[j]):.3f} | {ln[i] @ ln[j] / d:.3f} |"
    )
