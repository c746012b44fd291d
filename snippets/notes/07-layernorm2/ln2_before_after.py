from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_ffn_figs import ln2_before_after_figure
from transformer_math import SENTENCES, analysis_ffn, preset_trace

tabs = {}
for s in SENTENCES:
    stats = analysis_ffn.ln2_stats(preset_trace(s.number))
    alt = (
        f"文{s.number}「{s.text}」の ffn_out、residual2 = ln1_out + ffn_out、ln2_out のヒートマップ。"
        f"LN 2 の前の μ は {stats.mean_in.min():.2f}〜{stats.mean_in.max():.2f}、σ は "
        f"{stats.std_in.min():.2f}〜{stats.std_in.max():.2f}。"
    )
    tabs[f"文{s.number}"] = figure_html(ln2_before_after_figure(s.number), alt)
show_tabs(tabs, name="notes07-ln2")
