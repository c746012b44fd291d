# プリセットを「データ」としてページに埋め込む (重み・語彙・つまみの位置・式の定数、すべて src から)。
# 表の値はブラウザのカーネル (kernel.js) が計算する。カーネルは tests/kernel で src と 1e-12 以内で一致する。
from transformer_site.panels import explorer_panel_html

print(explorer_panel_html("explorer"))
