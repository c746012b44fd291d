# d_model = 64 の位置エンコーディング: i = 0 … 31 の波 (sin と cos) と、
# pos = 0 … 127 での値・波長を src で計算して埋め込む。
from transformer_site.panels import pe_panel_html

print(pe_panel_html("pe"))
