from transformer_figures import show_tabs
from transformer_figures.notes_ffn_figs import table_html
from transformer_math import SENTENCES, analysis_ffn, preset, preset_trace

tabs = {}
for s in SENTENCES:
    trace = preset_trace(s.number)
    rows = []
    for t, word in enumerate(s.words):
        category = preset.LEXICON[word][0]  # その単語自身の品詞次元
        with_res = analysis_ffn.own_category_value(trace, t)  # LN(X + Y)
        without = analysis_ffn.own_category_value(trace, t, with_residual=False)  # LN(Y) だけ
        rows.append(
            [f"T{t} {word}", f"d{category} {preset.DIM_NAMES[category]}", f"{with_res:+.3f}", f"{without:+.3f}"]
        )
    headers = ["トークン", "自分の品詞次元", "残差あり LN(X+Y)", "残差なし LN(Y)"]
    tabs[f"文{s.number}"] = table_html(headers, [[c.replace("-", "−") for c in r] for r in rows])
show_tabs(tabs, name="notes05-residual")
