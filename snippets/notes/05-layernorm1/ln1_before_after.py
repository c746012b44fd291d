from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_ffn_figs import ln1_before_after_figure
from transformer_math import SENTENCES, analysis_ffn, preset_trace

tabs = {}
for s in SENTENCES:  # 8 つの例文それぞれで residual1 と ln1_out を描き、タブで切り替える
    stats = analysis_ffn.ln1_stats(preset_trace(s.number))
    alt = (
        f"文{s.number}「{s.text}」の residual1 と ln1_out のヒートマップ。各行の右に μ と σ。"
        f"LN の前の μ は {stats.mean_in.min():.2f}〜{stats.mean_in.max():.2f}、後はすべて 0.00。"
    )
    tabs[f"文{s.number}"] = figure_html(ln1_before_after_figure(s.number), alt)
show_tabs(tabs, name="notes05-ln1")
