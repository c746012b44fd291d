from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_ffn_figs import detector_attribution_figure
from transformer_math import SENTENCES, analysis_ffn

tabs = {}
for s in SENTENCES:
    rows = analysis_ffn.detector_attributions(s.number)  # 発火した検出器それぞれの W_E / W_P 分解
    for a in rows:  # 経路 1: 4 つの部分とバイアスを足すと ffn_pre に戻る
        assert abs(a.own_tok + a.attn_tok + a.own_pos + a.attn_pos + a.beta_part + a.bias - a.ffn_pre) < 1e-12
    by_verdict = {v: sum(a.verdict == v for a in rows) for v in ("意味", "意味＋位置", "位置")}
    alt = (
        f"文{s.number}「{s.text}」で発火した {len(rows)} 個の検出器について、ffn_pre と W_P を消したときの ffn_pre、"
        f"W_E 由来・W_P 由来・バイアスへの分解、ffn_h を並べた色付きの表。判定は 意味 {by_verdict['意味']}、"
        f"意味＋位置 {by_verdict['意味＋位置']}、位置 {by_verdict['位置']}。"
    )
    tabs[f"文{s.number}"] = figure_html(detector_attribution_figure(s.number), alt)
show_tabs(tabs, name="notes06-attribution")
