import numpy as np

from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_attention_figs import concat_figure
from transformer_math import SENTENCES, build_preset, ops, preset_trace

W_O = build_preset().W_O

tabs = {}
for sentence in SENTENCES:
    trace = preset_trace(sentence.number)
    concat = ops.concat_heads(trace.out)  # (T, h, d_k) → (T, h·d_k): 並べ替えなしの reshape
    Y = concat @ W_O  # (T, d_model)
    assert np.array_equal(Y, trace.Y) and np.array_equal(concat[:, :8], trace.out[:, 0, :])
    tabs[f"文{sentence.number}"] = figure_html(
        concat_figure(sentence.number),
        alt=f"文{sentence.number}「{sentence.text}」の concat と Y = concat · W_O を並べたヒートマップ。"
        "赤い縦線の左 8 列がヘッド 0、右 8 列がヘッド 1 の出力。W_O = I なので 2 枚は同じ。",
    )
show_tabs(tabs, name="notes04-concat")
