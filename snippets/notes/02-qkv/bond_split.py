import numpy as np

from transformer_figures import figure_tabs
from transformer_figures.notes_attention_figs import bond_split_figure
from transformer_math import SENTENCES, preset, preset_trace

panels, alts = {}, {}
for s in SENTENCES:
    trace = preset_trace(s.number)
    splits = []
    for b in preset.BONDS:
        # bond の列は X の 1 次元をそのまま写す: Q[:, g] = X[:, query_dim] = W_E 由来 + W_P 由来
        q = np.stack([trace.X_tok[:, b.query_dim], trace.X_pos[:, b.query_dim]], axis=1)  # (T, 2)
        k = np.stack([trace.X_tok[:, b.key_dim], trace.X_pos[:, b.key_dim]], axis=1)
        assert np.array_equal(q.sum(axis=1), trace.Q_full[:, b.column])
        assert np.array_equal(k.sum(axis=1), trace.K_full[:, b.column])
        splits.append((q, k))
    panels[f"文{s.number}"] = (splits, s.words)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」について、3 つの bond の Q 列と K 列の値をトークンごとに"
        "W_E 由来 (意味) と W_P 由来 (位置) に分け、合計と並べた色付きの表。"
    )

print(figure_tabs(bond_split_figure, panels, alts, name="notes02-bond-split"))
