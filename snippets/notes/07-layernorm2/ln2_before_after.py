import numpy as np

from transformer_figures import figure_tabs
from transformer_figures.notes_ffn_figs import ln2_before_after_figure
from transformer_math import SENTENCES, layernorm, preset, preset_trace

panels, alts = {}, {}
for s in SENTENCES:
    trace = preset_trace(s.number)
    residual2 = trace.ln1_out + trace.ffn_out  # 2 つ目の残差接続: (T, d_model)
    mu = residual2.mean(axis=1, keepdims=True)  # (T, 1)
    ln2_out = (residual2 - mu) / np.sqrt(((residual2 - mu) ** 2).mean(axis=1, keepdims=True) + preset.EPS)
    assert np.allclose(ln2_out, trace.ln2_out)  # ブロックの出力
    stats = layernorm.layer_norm_stats(residual2, ln2_out, preset.EPS)
    panels[f"文{s.number}"] = (trace.ffn_out, residual2, ln2_out, stats, s.words)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」の ffn_out、residual2 = ln1_out + ffn_out、ln2_out のヒートマップ。"
        f"LN 2 の前の μ は {stats.mean_in.min():.2f}〜{stats.mean_in.max():.2f}、σ は "
        f"{stats.std_in.min():.2f}〜{stats.std_in.max():.2f}。"
    )

print(figure_tabs(ln2_before_after_figure, panels, alts, name="notes07-ln2"))
