from collections import Counter

from transformer_figures.notes_ffn_figs import table_html
from transformer_site.checked.verify import check, collect

numbers = collect(["docs"])  # ビルド時に docs/ のすべての Markdown から検証済み数値を集める
outcomes = [check(n) for n in numbers]
failing = [o for o in outcomes if not o.ok]
# a stale number fails the strict build by itself (the hook); here we only count
per_page = Counter(str(n.path).split("docs/")[-1] for n in numbers)
rows = [[page, str(count)] for page, count in sorted(per_page.items())]
rows.append(["合計", str(len(numbers))])
print(table_html(["ページ", "検証済み数値"], rows, caption=f"サイト全体で {len(numbers)} 個、不一致 {len(failing)} 個"))
