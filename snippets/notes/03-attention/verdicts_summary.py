from transformer_figures import format_number
from transformer_figures.notes_attention_figs import table_html
from transformer_math import analysis_attention

# 16 の関係を、attn の重みの差 (意図したキー − 次点) の小さい順に並べる
verdicts = sorted(analysis_attention.all_verdicts(), key=lambda v: v.margin)
rows = [
    [f"文{v.sentence}", f"{v.query} → {v.key}", str(v.head), format_number(v.weight, "{:.3f}"),
     v.runner_up, format_number(v.margin, "{:+.3f}"), "勝ち" if v.wins else f"負け ({v.winner})"]
    for v in verdicts
]  # fmt: skip
print(table_html(["文", "関係", "ヘッド", "重み", "次点", "差", "判定"], rows))
