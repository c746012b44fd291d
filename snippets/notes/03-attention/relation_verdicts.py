from transformer_figures.notes_attention_figs import relations_tabs
from transformer_math import SENTENCES, preset_trace
from transformer_pages.notes import attention

# 判定は src/transformer_pages/notes/attention.py のこの関数が attn の行から計算する:
r'''  # markdown-exec: hide
--8<-- "src/transformer_pages/notes/attention.py:relation_verdict"
'''  # markdown-exec: hide  # fmt: skip

panels, alts = {}, {}
for s in SENTENCES:
    trace = preset_trace(s.number)
    verdicts = attention.relation_verdicts(s.number)  # 文の 2 つの関係それぞれの RelationVerdict
    for v in verdicts:  # 自己点検: 意図したキーが attn の行の最大か
        row = trace.attn[v.head, v.query_pos]  # (T,)
        assert v.wins == (row.argmax() == v.key_pos) and v.weight == row[v.key_pos]
    summary = "、".join(
        f"{v.query}→{v.key} はヘッド {v.head} で {v.weight:.3f} ({'勝ち' if v.wins else '負け'})" for v in verdicts
    )
    panels[f"文{s.number}"] = (trace.scores, trace.attn, verdicts, s.words)
    alts[f"文{s.number}"] = (
        f"文{s.number}「{s.text}」の scores (上段) と attn (下段) を 2 つのヘッドについて並べたヒートマップ。"
        f"赤枠が意図した関係のマス。{summary}。"
    )

print(relations_tabs(panels, alts, name="notes03-verdicts"))
