from transformer_figures.notes_attention_figs import table_html
from transformer_math import SENTENCES

rows = []
for s in SENTENCES:
    ids = ", ".join(str(i) for i in s.token_ids)  # tokenizer が返す id 列
    relations = "、".join(f"{r.query} → {r.key} (ヘッド {r.head})" for r in s.relations)
    rows.append([f"文{s.number}", s.text, ids, relations])
print(table_html(["#", "トークン", "token id", "意図した関係 (クエリ → キー)"], rows))
