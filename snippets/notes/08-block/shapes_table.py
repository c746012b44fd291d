from dataclasses import fields

from transformer_figures.notes_ffn_figs import table_html
from transformer_math import preset_trace

trace = preset_trace(1)
rows = []
for f in fields(trace):  # BlockTrace が返す中間結果を、計算順にすべて
    value = getattr(trace, f.name)
    rows.append([f.name, "(" + ", ".join(str(n) for n in value.shape) + ")", str(value.size)])
print(table_html(["中間結果", "形", "要素数"], rows, caption="文1 の順伝播が実際に返した配列の形"))
