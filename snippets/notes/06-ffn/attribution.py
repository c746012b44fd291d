from transformer_figures import figure_tabs
from transformer_figures.notes_ffn_figs import detector_attribution_figure
from transformer_math import SENTENCES
from transformer_pages.notes import ffn

# 分解は src/transformer_pages/notes/ffn.py のこの関数 (経路 1 と経路 2) が計算する:
r'''  # markdown-exec: hide
--8<-- "src/transformer_pages/notes/ffn.py:detector_attributions"
'''  # markdown-exec: hide  # fmt: skip

panels, alts = {}, {}
for s in SENTENCES:
    rows = ffn.detector_attributions(s.number)  # 発火した検出器それぞれの W_E / W_P 分解
    for a in rows:  # 経路 1: 4 つの部分とバイアスを足すと ffn_pre に戻る
        assert abs(a.own_tok + a.attn_tok + a.own_pos + a.attn_pos + a.beta_part + a.bias - a.ffn_pre) < 1e-12
    count = {v: sum(a.verdict == v for a in rows) for v in ("意味", "意味＋位置", "位置")}
    panels[f"文{s.number}"] = (rows,)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」で発火した {len(rows)} 個の検出器について、ffn_pre と W_P を消したときの ffn_pre、"
        f"W_E 由来・W_P 由来・バイアスへの分解、ffn_h を並べた色付きの表。判定は 意味 {count['意味']}、"
        f"意味＋位置 {count['意味＋位置']}、位置 {count['位置']}。"
    )

print(figure_tabs(detector_attribution_figure, panels, alts, name="notes06-attribution"))
