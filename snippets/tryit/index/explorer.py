# 8 例文すべての各段階の行列と、scores・attn・ln1_out・ffn_h・ln2_out の全セルの導出を src で計算して埋め込む。
from transformer_site.panels import explorer_panel_html

print(explorer_panel_html("explorer"))
