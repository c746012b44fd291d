from transformer_figures import table_html
from transformer_math import additive_attention

rows = []
sizes = (("前のページの例", (3, 5, 16, 8)), ("n = m = 512, d = 512, 幅 64", (512, 512, 512, 64)))
for label, (n, m, d, width) in sizes:
    c = additive_attention.compare(n, m, d, width)  # 射影 (n + m)·d·幅、組ごとの積和 n·m·幅、tanh、最大の配列
    for name, cost in (("加法注意", c.additive), ("内積注意", c.dot_product)):
        rows.append([label, name, f"{cost.multiplies:,}", f"{cost.tanh:,}", f"{cost.largest_intermediate:,}"])

print(table_html(["大きさ", "点数", "積和", "tanh の回数", "いちばん大きい途中の配列 (数の個数)"], rows))
