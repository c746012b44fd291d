from transformer_figures.notes_ffn_figs import table_html
from transformer_math import analysis_ffn
from transformer_site import torch_crosscheck

if not torch_crosscheck.torch_available():
    raise RuntimeError("PyTorch (torch==2.13.0) が必要です: この表はビルド時に実測します")
worst = torch_crosscheck.max_by_intermediate()  # 中間結果ごとに、8 文での最大絶対差
eps = analysis_ffn.FLOAT64_EPS  # float64 の 1 付近の刻み幅
rows = [[name, f"{diff:.1e}", f"{diff / eps:.1f}"] for name, diff in worst.items()]
largest = torch_crosscheck.largest_difference()
assert largest <= torch_crosscheck.TOLERANCE  # テストと同じ許容値をビルドでも確かめる
print(
    table_html(
        ["中間結果", "最大絶対差 (8 文)", "float64 の刻み幅の何倍か"],
        rows,
        caption=f"この実行での測定値: 全体の最大差 {largest:.1e} (許容値 {torch_crosscheck.TOLERANCE:.0e})",
    )
)
