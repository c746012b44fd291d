from transformer_figures.chapter_figs import head_cost_table
from transformer_math import counting, experiments

# 空実行（execute=False）で通した行列積のオペランドの形から積和の回数を数え、counting の閉じた式と照合する
for (n, _h), run in experiments.HEAD_COST.items():
    assert run.total_macs == sum(counting.attention_multiplies(n, n, run.shapes["X_dec"][1]).values())
print(head_cost_table())
