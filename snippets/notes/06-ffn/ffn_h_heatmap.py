from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_ffn_figs import ffn_h_figure
from transformer_math import SENTENCES, analysis_ffn, preset_trace

tabs = {}
for s in SENTENCES:
    n_fire = int((preset_trace(s.number).ffn_h > analysis_ffn.FIRING_THRESHOLD).sum())
    alt = (
        f"文{s.number}「{s.text}」の ffn_h を、トークン 5 行 × 検出器 h0〜h15 の 16 列で示したヒートマップ。"
        f"0.5 を超えたマス ({n_fire} 個) を枠で囲む。"
    )
    tabs[f"文{s.number}"] = figure_html(ffn_h_figure(s.number), alt)
show_tabs(tabs, name="notes06-ffn-h")
