import numpy as np

from transformer_figures import figure_html
from transformer_figures.backprop_figs import attention_rows_figure
from transformer_math import backward as bw
from transformer_math import ops
from transformer_math.preset import SENTENCES

g = bw.preset_gradients(1, 3)  # 文1 で「花」を隠した例
tr, p = g.loss.trace, 3
d_head_out = ops.split_heads(g.d_concat, 2)  # (T, h, d_k) 連結を 2 つのヘッドに戻す

# head_out[i] = Σ_j attn[i, j] V[j] (ヘッドごと) を微分する
d_attn = np.einsum("iak,jak->aij", d_head_out, tr.V)  # (h, T, T)  ∂L/∂attn[i, j] = ∂L/∂head_out[i]·V[j]
d_V = np.einsum("aij,iak->jak", tr.attn, d_head_out)  # (T, h, d_k)  ∂L/∂V[j] = Σ_i attn[i, j] ∂L/∂head_out[i]
assert np.allclose(d_attn, g.d_attn) and np.allclose(d_V, g.d_V)

rows = {f"ヘッド {a} の ∂L/∂attn[3, j]": d_attn[a, p] for a in range(2)}  # ヘッド a = 0, 1
print(
    figure_html(
        attention_rows_figure(rows, SENTENCES[0].words, "隠した行 (T3) の ∂L/∂attn"),
        alt=f"T3 の行の ∂L/∂attn。ヘッド 0 は「です」で {d_attn[0, p, 4]:+.2f} と大きく、ヘッド 1 はどのキーでも "
        f"{d_attn[1, p].min():+.2f}〜{d_attn[1, p].max():+.2f} とほぼ同じ。",
    )
)
