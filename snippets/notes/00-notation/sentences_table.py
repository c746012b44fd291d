from transformer_figures import table_html
from transformer_math import SENTENCES, tokenize

rows = []
for s in SENTENCES:
    ids = tokenize(s.text)  # "これ は 美しい 花 です" → 単語ごとの token id, shape (T,) = (5,)
    relations = "、".join(f"{r.query} → {r.key} (ヘッド {r.head})" for r in s.relations)
    rows.append([f"文{s.number}", s.text, ", ".join(str(i) for i in ids), relations])

print(table_html(["#", "トークン", "token id", "意図した関係 (クエリ → キー)"], rows))
