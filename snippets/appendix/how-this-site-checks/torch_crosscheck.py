from transformer_figures import table_html
from transformer_math import rounding
from transformer_pages.notes import accuracy
from transformer_site import torch_crosscheck

# 公開用のビルドは torch なしでは止まる。手元のプレビュー (scripts/serve.sh) だけは、表の代わりにそう書く
available = torch_crosscheck.require_torch_unless_preview()
if available:
    worst = torch_crosscheck.max_by_intermediate()  # 中間結果ごとに、8 文での numpy と PyTorch の最大絶対差
    eps = rounding.MACHINE_EPSILON  # float64 の 1 付近の刻み幅
    rows = [[name, f"{diff:.1e}", f"{diff / eps:.1f}"] for name, diff in worst.items()]
    largest = torch_crosscheck.largest_difference()
    # この付録が述べる 2 つの上限を、ビルドのたびに確かめる
    assert all(worst[name] <= worst["X"] for name in ("Q", "K", "V")), "0/1 の射影が丸めを増やした"
    assert largest <= accuracy.CROSSCHECK_EPS_BOUND * eps, f"最大差 {largest:.1e} が本文の上限を超えた"
    assert largest <= torch_crosscheck.TOLERANCE  # テストと同じ許容値
    caption = f"この実行での測定値: 全体の最大差 {largest:.1e} (許容値 {torch_crosscheck.TOLERANCE:.0e})"

print(
    table_html(["中間結果", "最大絶対差 (8 文)", "機械イプシロンの何倍か"], rows, caption=caption)
    if available
    else torch_crosscheck.preview_notice()
)
