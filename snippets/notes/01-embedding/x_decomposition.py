import numpy as np

from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_attention_figs import x_decomposition_figure
from transformer_math import SENTENCES, build_preset, ops

W_E = build_preset().W_E
W_P = ops.positional_encoding(5, 16)

tabs = {}
for sentence in SENTENCES:
    X = W_E[sentence.token_ids] + W_P  # X[t, d] = W_E[tokens[t], d] + W_P[t, d]
    fig = x_decomposition_figure(sentence.number)
    top = np.unravel_index(np.argmax(X), X.shape)
    tabs[f"文{sentence.number}"] = figure_html(
        fig,
        alt=f"文{sentence.number}「{sentence.text}」の X を、単語の意味 W_E[tokens] と位置 W_P の和として"
        f"3 段のヒートマップに分けた図。X の最大は {sentence.words[top[0]]} の d{top[1]} で {X[top]:.2f}。",
    )
show_tabs(tabs, name="notes01-x")
