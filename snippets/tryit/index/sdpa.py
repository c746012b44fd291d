import numpy as np

from transformer_math import ops
from transformer_pages import tryit
from transformer_site.panels import sdpa_panel_html

q, k = tryit.sdpa_qk()  # (6, 64) ずつ: 固定した 6 個のクエリとキー (成分は平均 0・分散 1 の乱数)

# 1 つの設定 (d_k = 8、√d_k で割る、マスクなし) を式のとおりに計算して、パネルのデータと比べる
d_k = 8
scores = q[:, :d_k] @ k[:, :d_k].T / np.sqrt(d_k)  # (6, 6)
attn = ops.softmax(scores, axis=-1)  # 各行の和が 1
assert np.allclose(attn, tryit.sdpa_state(d_k, True, False).weights)

# 全 256 通り (d_k = 1 … 64 × 割る/割らない × マスクあり/なし) を同じ式で計算し、表示する桁に丸めて
# states[d_k][scale][causal] の順に埋め込む。ブラウザは選んで描くだけで、計算はしない
print(sdpa_panel_html("sdpa"))
