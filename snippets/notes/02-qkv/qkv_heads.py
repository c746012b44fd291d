import numpy as np

from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_attention_figs import qkv_figure
from transformer_math import SENTENCES, build_preset, ops, preset_trace

weights = build_preset()
h = weights.n_heads

tabs = {}
for sentence in SENTENCES:
    X = preset_trace(sentence.number).X  # (T, d_model)
    Q = ops.split_heads(X @ weights.W_Q, h)  # (T, h·d_k) → (T, h, d_k)
    K = ops.split_heads(X @ weights.W_K, h)
    V = ops.split_heads(X @ weights.W_V, h)  # W_V = I なので V は X を切り分けただけ
    assert np.allclose(V.reshape(len(X), -1), X)
    tabs[f"文{sentence.number}"] = figure_html(
        qkv_figure(sentence.number),
        alt=f"文{sentence.number}「{sentence.text}」の Q, K, V をヘッドごとに 5×8 のヒートマップにした図。"
        "Q と K で 0 でないのは赤枠の bond 列 (g0, g1, g8) だけ。V は X をそのまま 2 つに切った形。",
    )
show_tabs(tabs, name="notes02-qkv")
