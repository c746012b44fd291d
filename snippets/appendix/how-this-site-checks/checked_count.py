from collections import Counter

from transformer_figures import table_html
from transformer_site.checked.verify import check, collect

tokens = collect(["docs"])  # ビルド時に docs/ のすべての Markdown から数字・主張・印・引用を集める
failing = [t for t in tokens if not check(t).ok]  # 古くなったものはそれだけでビルドを止める (ここでは数えるだけ)
KINDS = {"number": "検査つき数値", "claim": "検査つきの主張", "marker": "印つきの数", "cite": "引用"}
per_page = Counter((str(t.path).split("docs/")[-1], t.kind) for t in tokens)
pages = sorted({page for page, _ in per_page})
rows = [[page] + [str(per_page[page, kind]) for kind in KINDS] for page in pages]
totals = Counter(t.kind for t in tokens)
rows.append(["合計"] + [str(totals[kind]) for kind in KINDS])

caption = (
    f"サイト全体で数値 {totals['number']} 個、主張 {totals['claim']} 個、"
    f"引用 {totals['cite']} 個、不一致 {len(failing)} 個"
)
print(table_html(["ページ", *KINDS.values()], rows, caption=caption))
