from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_ffn_figs import attribution_table_html, detector_attribution_figure
from transformer_math import SENTENCES, analysis_ffn

tabs = {}
for s in SENTENCES:
    rows = analysis_ffn.detector_attributions(s.number)  # 発火した検出器それぞれの W_E / W_P 分解
    by_verdict = {v: sum(a.verdict == v for a in rows) for v in ("意味", "意味＋位置", "位置")}
    alt = (
        f"文{s.number}「{s.text}」で発火した {len(rows)} 個の検出器について、ffn_pre を W_E 由来・W_P 由来・バイアスに"
        f"分けた棒グラフ。判定は 意味 {by_verdict['意味']}、意味＋位置 {by_verdict['意味＋位置']}、"
        f"位置 {by_verdict['位置']}。"
    )
    tabs[f"文{s.number}"] = figure_html(detector_attribution_figure(s.number), alt) + attribution_table_html(s.number)
show_tabs(tabs, name="notes06-attribution")
