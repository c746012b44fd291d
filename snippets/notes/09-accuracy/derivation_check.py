from transformer_figures import table_html
from transformer_math import SENTENCES, derivations, preset_trace, rounding

rows = []
for stage in derivations.STAGES:  # 5 種類のマスすべてを「項から計算し直す」経路で再計算
    cells, worst = 0, 0.0
    for s in SENTENCES:
        trace = preset_trace(s.number)
        for der in derivations.derive_all(trace, stage):
            cells += 1
            worst = max(worst, abs(der.value - derivations.trace_value(trace, der)))  # 2 つの経路の差
    rows.append([stage, str(cells), f"{worst:.1e}", f"{worst / rounding.MACHINE_EPSILON:.1f}"])

print(table_html(["段", "マスの数 (8 文)", "順伝播との最大差", "機械イプシロンの何倍か"], rows))
