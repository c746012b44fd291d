import numpy as np

from transformer_figures import figure_tabs
from transformer_figures.notes_attention_figs import concat_figure
from transformer_math import SENTENCES, ops, preset_trace, preset_weights

W_O = preset_weights().W_O  # (h·d_k, d_model) = I

panels, alts = {}, {}
for s in SENTENCES:
    out = preset_trace(s.number).out  # ヘッドごとの出力 (T, h, d_k)
    concat = ops.concat_heads(out)  # (T, h, d_k) → (T, h·d_k): 並べ替えなしの reshape
    Y = concat @ W_O  # (T, d_model)
    assert np.array_equal(Y, preset_trace(s.number).Y) and np.array_equal(concat[:, :8], out[:, 0, :])
    panels[f"文{s.number}"] = (concat, Y, s.words)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」の concat と Y = concat · W_O を並べたヒートマップ。"
        "赤い縦線の左 8 列がヘッド 0、右 8 列がヘッド 1 の出力。W_O = I なので 2 枚は同じ。"
    )

print(figure_tabs(concat_figure, panels, alts, name="notes04-concat"))
