import numpy as np

from transformer_figures import figure_tabs
from transformer_figures.notes_attention_figs import x_decomposition_figure
from transformer_math import SENTENCES, ops, preset_trace, preset_weights

W_E = preset_weights().W_E  # (vocabSize, d_model)
W_P = ops.positional_encoding(5, 16)  # (T, d_model)

panels, alts = {}, {}
for s in SENTENCES:
    X_tok = W_E[s.token_ids]  # 行を引くだけ: (T, d_model)
    X = X_tok + W_P  # X[t, d] = W_E[tokens[t], d] + W_P[t, d]
    assert np.array_equal(X, preset_trace(s.number).X)
    top = np.unravel_index(np.argmax(X), X.shape)
    panels[f"文{s.number}"] = (X_tok, W_P, X, s.words)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」の X を、単語の意味 W_E[tokens] と位置 W_P の和として3 段のヒートマップに分けた図。"
        f"X の最大は {s.words[top[0]]} の d{top[1]} で {X[top]:.2f}。"
    )

print(figure_tabs(x_decomposition_figure, panels, alts, name="notes01-x"))
