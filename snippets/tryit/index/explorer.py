from transformer_math import block, preset
from transformer_site.panels import explorer_panel_html

# 表の値はブラウザが、この関数と同じ計算を同じ名前で行って出す (すべての中間値が 1e-12 以内で一致する):
r'''  # markdown-exec: hide
--8<-- "src/transformer_math/block.py:forward_from_embeddings"
'''  # markdown-exec: hide  # fmt: skip

# ページを開いたときの状態 (文1、つまみはすべてプリセットの位置) をここでも計算しておく
W = preset.build_preset_with()  # つまみを動かさなければプリセットの重みそのもの
trace = block.forward(W, preset.sentence(1).token_ids)  # X から ln2_out まで、すべての中間値
assert (trace.ln2_out == preset.preset_trace(1).ln2_out).all()

# 重み・語彙・つまみの範囲・式の定数を、すべてここからデータとしてページに埋め込む
print(explorer_panel_html("explorer"))
