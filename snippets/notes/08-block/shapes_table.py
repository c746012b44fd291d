from dataclasses import fields

import numpy as np

from transformer_figures import table_html
from transformer_math import preset_trace

trace = preset_trace(1)  # 文1 の順伝播: BlockTrace に中間結果が計算順にすべて入る
shapes = {f.name: getattr(trace, f.name).shape for f in fields(trace)}
sizes = {name: int(np.prod(shape)) for name, shape in shapes.items()}  # 要素数 = 形の積
assert shapes["ln2_out"] == shapes["X"]  # ブロックの入力と出力は同じ形 (T, d_model)
rows = [[name, "(" + ", ".join(str(n) for n in shape) + ")", str(sizes[name])] for name, shape in shapes.items()]

print(table_html(["中間結果", "形", "要素数"], rows, caption="文1 の順伝播が実際に返した配列の形"))
