from transformer_figures.notes_attention_figs import verdict_summary_html
from transformer_pages.notes import attention

# 16 の関係を、attn の重みの差 (意図したキー − 次点) の小さい順に並べる
verdicts = sorted(attention.all_verdicts(), key=lambda v: v.weight - v.runner_up_weight)
assert [v.margin for v in verdicts] == sorted(v.margin for v in verdicts)

print(verdict_summary_html(verdicts))
