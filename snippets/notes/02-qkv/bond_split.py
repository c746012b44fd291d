from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_attention_figs import bond_split_figure
from transformer_math import SENTENCES, analysis_attention

tabs = {}
for sentence in SENTENCES:
    # bond の列は X の 1 次元をそのまま写すので、意味 (W_E) と位置 (W_P) の 2 つに分けられる
    q = analysis_attention.bond_split(sentence.number, 0, "query")  # 形容詞→名詞 の Q 列
    assert abs(q.tok + q.pos - q.total).max() == 0.0
    tabs[f"文{sentence.number}"] = figure_html(
        bond_split_figure(sentence.number),
        alt=f"文{sentence.number}「{sentence.text}」について、3 つの bond の Q 列と K 列の値をトークンごとに"
        "W_E 由来 (意味) と W_P 由来 (位置) に分け、合計と並べた色付きの表。",
    )
show_tabs(tabs, name="notes02-bond-split")
