import numpy as np

from transformer_figures import figure_html
from transformer_figures.decoder_figs import cross_attention_figure
from transformer_math import cross_attention, ops

example = cross_attention.worked_example()  # 上と同じ memory、X_dec、重み
trace, W = example.trace, example.weights
h, d_k = W.n_heads, W.W_Q.shape[1] // W.n_heads
q = (trace.X_dec @ W.W_Q).reshape(-1, h, d_k).transpose(1, 0, 2)  # (h, n, d_k)
k = (trace.memory @ W.W_K).reshape(-1, h, d_k).transpose(1, 0, 2)  # (h, m, d_k)
attn = ops.softmax(q @ k.transpose(0, 2, 1) / np.sqrt(d_k))  # (h, n, m): マスクなし
assert np.allclose(attn, trace.attn, rtol=0, atol=1e-15)

print(
    figure_html(
        cross_attention_figure(attn, example.target, example.source),
        alt=f"クロスアテンションの重み。ヘッドごとに {attn.shape[1]} 行 (デコーダの <bos> これ は) × "
        f"{attn.shape[2]} 列 (エンコーダの これ は 美しい 花 です)。"
        "どの行も 5 列すべてに 0 より大きい重みを置き、和は 1。"
        f"最小の重みは {attn.min():.3f}。",
    )
)
