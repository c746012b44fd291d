# 全 256 通りの設定 (d_k = 1 … 64 × √d_k で割る/割らない × マスクあり/なし) を src で計算し、
# 表示する桁に丸めて、操作の順 states[d_k][scale][causal] に並べて埋め込む。ブラウザは選んで描くだけ。
from transformer_site.panels import sdpa_panel_html

print(sdpa_panel_html("sdpa"))
