from transformer_figures.chapter_figs import head_cost_table
from transformer_math import counting
from transformer_pages.chapter import multi_head

rows = []
for (n, heads), run in multi_head.head_cost().items():
    # 空実行 (execute=False) で通した行列積のオペランドの形から積和の回数を数え、counting の閉じた式と照合する
    d_model = run.shapes["X_dec"][1]
    assert run.total_macs == sum(counting.attention_multiplies(n, n, d_model).values())
    d_k = d_model // heads  # ヘッドを増やすと 1 ヘッドの幅が減る
    rows.append(
        [
            str(n),
            f"{heads} × {d_k}",
            f"{run.projection_macs:,}",
            f"{run.mixing_macs:,}",
            f"{run.total_macs:,}",
            f"{run.softmax_entries:,}",
        ]
    )

print(head_cost_table(rows))
