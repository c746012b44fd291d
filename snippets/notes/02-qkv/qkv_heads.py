import numpy as np

from transformer_figures import figure_tabs
from transformer_figures.notes_attention_figs import qkv_figure
from transformer_math import SENTENCES, ops, preset_trace, preset_weights

W = preset_weights()
h = W.n_heads

panels, alts = {}, {}
for s in SENTENCES:
    X = preset_trace(s.number).X  # (T, d_model)
    Q = ops.split_heads(X @ W.W_Q, h)  # (T, h·d_k) → (T, h, d_k)
    K = ops.split_heads(X @ W.W_K, h)
    V = ops.split_heads(X @ W.W_V, h)  # W_V = I なので V は X を切り分けただけ
    assert np.allclose(V.reshape(len(X), -1), X) and np.array_equal(Q, preset_trace(s.number).Q)
    panels[f"文{s.number}"] = (Q, K, V, s.words)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」の Q, K, V をヘッドごとに 5×8 のヒートマップにした図。"
        "Q と K で 0 でないのは赤枠の bond 列 (g0, g1, g8) だけ。V は X をそのまま 2 つに切った形。"
    )

print(figure_tabs(qkv_figure, panels, alts, name="notes02-qkv"))
