from transformer_figures import table_html
from transformer_math import rounding
from transformer_pages.backprop import sizes
from transformer_site import torch_backward, torch_crosscheck

# PyTorch が入っていない手元のプレビューでは、表の代わりにその旨を表示する
available = torch_crosscheck.require_torch_unless_preview()
if available:
    # 8 文 × 隠す位置 5 つ = 40 例それぞれで、連鎖律を書き下した勾配と PyTorch の自動微分 (float64) の差
    diffs = torch_backward.preset_differences()  # {(文, 位置): {勾配の名前: max |差|}}
    names = list(next(iter(diffs.values())))
    worst = {name: max(d[name] for d in diffs.values()) for name in names}  # 40 例での最大
    eps = rounding.MACHINE_EPSILON
    paths = {"_skip": "残差の道", "_ffn": "FFN の道", "_attn": "attention の道", "_output": "出力側",
             "_input": "入力側"}  # fmt: skip
    symbols = {"ln1_gamma": "γ₁", "ln1_beta": "β₁", "ln2_gamma": "γ₂", "ln2_beta": "β₂"}  # LayerNorm 1, 2

    def shown(name: str) -> str:  # d_ln1_out_skip → ∂L/∂ln1_out (残差の道)
        value = name.removeprefix("d_")
        value = symbols.get(value, value)
        for suffix, path in paths.items():
            if value.endswith(suffix):
                return f"∂L/∂{value.removesuffix(suffix)} ({path})"
        return f"∂L/∂{value}"

    rows = [[shown(name), f"{diff:.1e}", f"{diff / eps:.1f}"] for name, diff in worst.items()]
    largest = max(worst.values())
    assert largest <= sizes.AUTOGRAD_EPS_BOUND * eps, f"最大差 {largest:.1e} が本文の上限を超えた"
    assert largest <= torch_backward.TOLERANCE  # ランダムな重みで比べるときと同じ許容値
    caption = f"{len(diffs)} 例・{len(names)} 種類の勾配での最大の差 {largest:.1e}"

print(
    table_html(["勾配", "最大絶対差 (40 例)", "機械イプシロンの何倍か"], rows, caption=caption)
    if available
    else torch_crosscheck.preview_notice()
)
