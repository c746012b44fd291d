from transformer_figures.notes_ffn_figs import table_html
from transformer_math import SENTENCES, analysis_attention, analysis_ffn

eps = analysis_attention.machine_epsilon()  # W_P なしの差は丸め誤差なので、機械イプシロンの何倍かで示す
rows = []
for s in SENTENCES:
    without = analysis_ffn.permutation_difference(s.number, 0.0)  # W_P なし: 語順を逆にしても出力は行が入れ替わるだけ
    with_pe = analysis_ffn.permutation_difference(s.number, 1.0)  # W_P あり: 出力そのものが変わる
    rows.append([f"文{s.number} {s.text}", f"{without / eps:.0f} ε ({without:.1e})", f"{with_pe:.3f}"])
print(
    table_html(
        ["例文", "W_P なし", "W_P あり"],
        rows,
        caption="語順を逆にした文の ln2_out と、元の ln2_out の行を逆順に並べたものとの最大差"
        " (ε = 機械イプシロン。丸め誤差の値はこの実行での測定値で、計算機によって変わります)",
    )
)
