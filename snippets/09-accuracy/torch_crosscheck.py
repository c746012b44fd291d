from transformer_figures.notes_ffn_figs import table_html
from transformer_site import torch_crosscheck

if not torch_crosscheck.torch_available():
    raise RuntimeError("PyTorch (torch==2.13.0) が必要です: この表はビルド時に実測します")
per_sentence = torch_crosscheck.preset_differences()  # {文番号: {中間結果: 最大絶対差}}
names = list(per_sentence[1])
rows = [[name] + [f"{per_sentence[n][name]:.1e}" for n in per_sentence] for name in names]
largest = torch_crosscheck.largest_difference()
assert largest <= torch_crosscheck.TOLERANCE
print(
    table_html(
        ["中間結果"] + [f"文{n}" for n in per_sentence],
        rows,
        caption=f"numpy 実装と PyTorch (float64) の最大絶対差。全体の最大は {largest:.1e}、"
        f"許容値は {torch_crosscheck.TOLERANCE:.0e}",
    )
)
