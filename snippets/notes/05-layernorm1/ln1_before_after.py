import numpy as np

from transformer_figures import figure_tabs
from transformer_figures.notes_ffn_figs import ln1_before_after_figure
from transformer_math import SENTENCES, layernorm, preset, preset_trace

panels, alts = {}, {}
for s in SENTENCES:  # 8 つの例文それぞれで residual1 と ln1_out を描き、タブで切り替える
    trace = preset_trace(s.number)
    residual1 = trace.X + trace.Y  # 残差接続: (T, d_model)
    mu = residual1.mean(axis=1, keepdims=True)  # トークンごとの平均, (T, 1)
    var = ((residual1 - mu) ** 2).mean(axis=1, keepdims=True)  # d で割る (不偏ではない) 分散
    ln1_out = (residual1 - mu) / np.sqrt(var + preset.EPS)  # γ = 1, β = 0
    assert np.allclose(ln1_out, trace.ln1_out)
    stats = layernorm.layer_norm_stats(residual1, ln1_out, preset.EPS)  # 表の右に書く μ と σ
    panels[f"文{s.number}"] = (residual1, ln1_out, stats, s.words)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」の residual1 と ln1_out のヒートマップ。各行の右に μ と σ。"
        f"LN の前の μ は {stats.mean_in.min():.2f}〜{stats.mean_in.max():.2f}、後はすべて 0.00。"
    )

print(figure_tabs(ln1_before_after_figure, panels, alts, name="notes05-ln1"))
