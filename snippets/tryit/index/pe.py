# d_model = 64 の位置エンコーディング: i = 0 … 31 の波 (sin と cos) の線を src で計算して埋め込む。
# 選んだ pos での値は、ブラウザのカーネル (kernel.js) の W_P が src と同じ式で計算する。
from transformer_site.panels import pe_panel_html

print(pe_panel_html("pe"))
