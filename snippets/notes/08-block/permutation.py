import numpy as np

from transformer_figures import table_html
from transformer_math import SENTENCES, preset_weights, rounding
from transformer_math.attribution import forward_with_position_scale

W = preset_weights()
rows = []
for s in SENTENCES:
    tokens = s.token_ids
    reverse = np.arange(len(tokens))[::-1]  # 語順を逆にする並べ替え
    diff = {}
    for scale in (0.0, 1.0):  # W_P なし (0 倍) と あり (1 倍)
        out = forward_with_position_scale(W, tokens, scale).ln2_out  # (T, d_model)
        out_reversed = forward_with_position_scale(W, tokens[reverse], scale).ln2_out
        diff[scale] = float(np.abs(out_reversed - out[reverse]).max())  # 行を入れ替えただけなら 0
    eps = diff[0.0] / rounding.MACHINE_EPSILON  # W_P なしの差は丸め誤差: 機械イプシロンの何倍か
    rows.append([f"文{s.number} {s.text}", f"{eps:.0f} ε ({diff[0.0]:.1e})", f"{diff[1.0]:.3f}"])
caption = (
    "語順を逆にした文の ln2_out と、元の ln2_out の行を逆順に並べたものとの最大差"
    " (ε = 機械イプシロン。丸め誤差の値はこの実行での測定値で、計算機によって変わります)"
)

print(table_html(["例文", "W_P なし", "W_P あり"], rows, caption=caption))
