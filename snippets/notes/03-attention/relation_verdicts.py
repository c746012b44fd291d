from transformer_figures import figure_html, show_tabs
from transformer_figures.notes_attention_figs import attention_relations_figure, verdict_table_html
from transformer_math import SENTENCES, analysis_attention, preset_trace

tabs = {}
for sentence in SENTENCES:
    attn = preset_trace(sentence.number).attn  # (h, T, T)
    verdicts = analysis_attention.relation_verdicts(sentence.number)
    for v in verdicts:
        # 判定は attn の行そのものから: 意図したキーが行の最大か、次点との差はいくつか
        row = attn[v.head, v.query_pos]
        assert v.wins == (row.argmax() == v.key_pos) and abs(v.weight - row[v.key_pos]) < 1e-15
    summary = "、".join(
        f"{v.query}→{v.key} はヘッド {v.head} で {v.weight:.3f} ({'勝ち' if v.wins else '負け'})" for v in verdicts
    )
    fig_html = figure_html(
        attention_relations_figure(sentence.number),
        alt=f"文{sentence.number}「{sentence.text}」の scores (上段) と attn (下段) を"
        f" 2 つのヘッドについて並べたヒートマップ。赤枠が意図した関係のマス。{summary}。",
    )
    tabs[f"文{sentence.number}"] = fig_html + "\n" + verdict_table_html(sentence.number)
show_tabs(tabs, name="notes03-verdicts")
