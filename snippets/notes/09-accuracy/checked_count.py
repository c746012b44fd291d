from collections import Counter

from transformer_figures import table_html
from transformer_site.checked.verify import check, collect

numbers = collect(["docs"])  # ビルド時に docs/ のすべての Markdown から検証済み数値を集める
failing = [n for n in numbers if not check(n).ok]  # 古くなった数値はそれだけでビルドを止める (ここでは数えるだけ)
per_page = Counter(str(n.path).split("docs/")[-1] for n in numbers)
rows = [[page, str(count)] for page, count in sorted(per_page.items())] + [["合計", str(len(numbers))]]

print(table_html(["ページ", "検証済み数値"], rows, caption=f"サイト全体で {len(numbers)} 個、不一致 {len(failing)} 個"))
