import numpy as np

from transformer_math import ops
from transformer_pages import tryit
from transformer_site.panels import pe_panel_html

d_model = tryit.PE_D_MODEL
pos = np.arange(tryit.PE_POSITIONS)[:, None]  # (128, 1): 位置 0 … 127
i = np.arange(d_model // 2)  # (32,): 次元の組の番号
angle = pos / ops.PE_BASE ** (2 * i / d_model)  # (128, 32): 指数は 2i/d_model
W_P = np.empty((len(pos), d_model))  # (128, 64)
W_P[:, 0::2], W_P[:, 1::2] = np.sin(angle), np.cos(angle)  # 偶数列が sin、奇数列が cos
assert np.allclose(W_P, tryit.pe_table())  # ほかのページの位置エンコーディングと同じ値

# 波の線はここで描いて埋め込み、選んだ pos での値はブラウザが同じ式で計算する
print(pe_panel_html("pe"))
