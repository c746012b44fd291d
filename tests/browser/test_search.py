"""Japanese search in the browser: terms inside compounds find their pages.

Each query is typed into Material's search box (``fill`` then ``End``: typing kana key by key does not start a
search) and the result list is read. A query is *found* when its expected page is among the first
``TOP`` result pages. The expected page is the page where the term matters most (most occurrences, or its
title); the test first checks that page's Markdown really contains the term, so a renamed or rewritten page
fails here instead of silently testing nothing.

``test_recall`` prints the recall; with ``SITE_DIR`` pointing at a build made with
``TRANSFORMER_SITE_STOCK_SEARCH=1`` it measures Material's stock ``lang: ja`` search (the "before").
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from transformer_site.search.japanese import bigrams, math_as_text, plain_text, query_terms
from transformer_site.search.spellings import spelling_groups

pytestmark = [pytest.mark.browser, pytest.mark.build]

ROOT = Path(__file__).resolve().parents[2]
TOP = 10
RECALL_REQUIRED = 0.95
# query → pages (docs-relative) any of which counts as found. Terms inside compounds on purpose:
# 言語 (言語モデル), 処理 (逐次処理), 正規化 (層正規化), 学習率 (学習率のウォームアップ), 平滑化 (ラベル平滑化) …
QUERIES: dict[str, tuple[str, ...]] = {
    "言語": ("chapter/09-bert-gpt.md",),
    "処理": ("chapter/08-why-self-attention.md",),
    "位置": ("chapter/04-positional-encoding.md", "notes/01-embedding.md"),
    "正規化": ("chapter/06-add-norm.md",),
    "マスク": ("chapter/02-attention-kinds.md",),
    # written softmax where it is taught: the glossary's spellings of a term find each other (search.spellings)
    "ソフトマックス": ("notes/03-attention.md", "backprop/03-attention.md", "chapter/07-training.md",
                "chapter/08-why-self-attention.md"),
    "埋め込み": ("notes/01-embedding.md", "chapter/01-overview.md"),
    "残差": ("chapter/06-add-norm.md", "notes/05-layernorm1.md"),
    "勾配": ("backprop/04-sizes.md", "backprop/01-loss.md", "chapter/06-add-norm.md"),
    "分散": ("notes/05-layernorm1.md", "chapter/06-add-norm.md"),
    "語彙": ("chapter/09-bert-gpt.md", "chapter/07-training.md"),
    "注意": ("notes/03-attention.md",),
    "検出器": ("notes/06-ffn.md",),
    "学習率": ("chapter/07-training.md",),
    "平滑化": ("chapter/07-training.md",),
    "計算量": ("scale/02-complexity.md", "chapter/08-why-self-attention.md"),
    "双方向": ("chapter/09-bert-gpt.md",),
    "事前学習": ("chapter/09-bert-gpt.md",),
    "次元": ("notes/01-embedding.md", "notes/00-notation.md"),
    "行列": ("scale/02-complexity.md",),
    "連結": ("notes/04-concat.md",),
    "発火": ("notes/06-ffn.md",),
    "周波数": ("notes/01-embedding.md",),
    "因果": ("chapter/02-attention-kinds.md",),
    "ウォームアップ": ("chapter/07-training.md",),
    "交差エントロピー": ("chapter/07-training.md",),
    "LayerNorm": ("notes/05-layernorm1.md", "chapter/06-add-norm.md"),
}

PLACEHOLDER = "検索キーワードを入力してください"
_READ_RESULTS = """
() => [...document.querySelectorAll('.md-search-result__item > a.md-search-result__link')]
        .map(a => new URL(a.href).pathname)
"""


def _url_path(md_path: str) -> str:
    stem = md_path[: -len(".md")]
    return "/" + (stem[: -len("index")] if stem.endswith("index") else stem + "/")


_RESULT_COUNT = """
() => {
  const text = document.querySelector('.md-search-result__meta').textContent;
  const m = text.match(/(\\d+)件/);
  return m ? Number(m[1]) : 0;
}
"""


_SHOWN = "document.querySelectorAll('.md-search-result__item').length"


def _top_results(page, count: int) -> list[str]:
    """The first ``TOP`` result pages (all of them when fewer were found), in rank order. Material renders ten
    results at first and ten more each time the list is scrolled to its end: scroll, and wait for them, only
    while fewer than that are shown."""
    box = page.locator(".md-search__scrollwrap").bounding_box()
    while (shown := page.evaluate(_SHOWN)) < min(count, TOP):
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, 20000)
        page.wait_for_function(f"{_SHOWN} > {shown}")
    return list(dict.fromkeys(page.evaluate(_READ_RESULTS)))


def _run_queries(browser, server: str) -> dict[str, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server, wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    box = page.locator("input.md-search__input")
    placeholder = f"document.querySelector('.md-search-result__meta').textContent.trim() === '{PLACEHOLDER}'"
    results: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    try:
        box.click()
        page.wait_for_function(placeholder)
        for query in QUERIES:
            box.fill("")
            page.wait_for_function(placeholder)
            box.fill(query)
            box.press("End")
            page.wait_for_function(f"!({placeholder})")
            counts[query] = page.evaluate(_RESULT_COUNT)  # Material's own "N件見つかりました"
            results[query] = _top_results(page, counts[query])  # page paths in rank order (sections grouped)
    finally:
        context.close()
    assert not errors, f"uncaught exceptions while searching: {errors}"
    results["__counts__"] = counts  # type: ignore[assignment]
    return results


def pages_containing(site: Path, query: str) -> set[str]:
    """Ground truth from the index's visible title and text (not the gram fields): pages whose text has the
    query as typed, as URL paths. Independent of how the search cuts words."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    pages = set()
    for doc in index["docs"]:
        if query.lower() in plain_text(doc.get("title", "") + " " + doc.get("text", "")).lower():
            pages.add("/" + doc["location"].split("#")[0])
    return pages


@pytest.fixture(scope="module")
def search_results(shared_browser, shared_server) -> dict[str, list[str]]:
    return _run_queries(shared_browser, shared_server)


def spellings(query: str) -> set[str]:
    """The query and, if it is a spelling of a glossary term, the term's other spellings (lower case)."""
    found = {query.lower()}
    for group in spelling_groups():
        if query.lower() in {s.lower() for s in group}:
            found |= {s.lower() for s in group}
    return found


def test_enough_queries_and_their_pages_contain_them():
    assert len(QUERIES) >= 20
    for query, pages in QUERIES.items():
        for md_path in pages:
            source = ROOT / "docs" / md_path
            assert source.is_file(), f"expected page for {query!r} does not exist: docs/{md_path}"
            text = source.read_text(encoding="utf-8").lower()
            assert any(s in text for s in spellings(query)), f"docs/{md_path} has no spelling of {query!r}"


def test_bigram_cut_is_the_same_for_index_and_query():
    assert bigrams("自然言語処理") == ["自然", "然言", "言語", "語処", "処理"]
    assert query_terms("正規化") == "+正規 +規化"
    assert query_terms("GELU の 出力") == "GELU の +出力"
    # every bigram the query asks for is in the index of a text containing the query
    text = "ラベル平滑化した目標"
    assert {t.lstrip("+") for t in query_terms("平滑化").split()} <= set(bigrams(text))


@pytest.mark.parametrize("query", list(QUERIES))
def test_query_finds_its_page(search_results, query: str):
    found = search_results[query]
    expected = [_url_path(p) for p in QUERIES[query]]
    ranks = [found.index(p) + 1 for p in expected if p in found]
    assert ranks and min(ranks) <= TOP, f"{query!r}: expected one of {expected} in the top {TOP}, got {found[:TOP]}"


def test_recall(search_results, shared_site: Path):
    """found@TOP (expected page among the first TOP results) must be high; printed with the page coverage
    (pages Material reports found, against the pages whose visible text contains the query)."""
    hits, coverage = 0, []
    for query, pages in QUERIES.items():
        found = search_results[query]
        hit = any(_url_path(p) in found[:TOP] for p in pages)
        truth = pages_containing(shared_site, query)
        reported = search_results["__counts__"][query]
        coverage.append(min(reported, len(truth)) / len(truth) if truth else 0.0)
        hits += hit
        rank = next((i + 1 for i, p in enumerate(found) if p in map(_url_path, pages)), None)
        print(f"  {query}: expected page rank {rank}; {reported} pages found, {len(truth)} contain it")
    found_at_top, page_coverage = hits / len(QUERIES), sum(coverage) / len(coverage)
    label = "stock" if "stock" in os.environ.get("SITE_DIR", "") else "this build"
    print(f"\nsearch ({label}): found@{TOP} {hits}/{len(QUERIES)} = {found_at_top:.0%}, coverage {page_coverage:.1%}")
    assert found_at_top >= RECALL_REQUIRED, f"found@{TOP} {found_at_top:.0%} < {RECALL_REQUIRED:.0%}"


def test_results_contain_the_query(search_results, shared_site: Path):
    """Precision: the first result page of each query contains the query as typed, or another spelling of the same
    glossary term (in its built HTML)."""
    wrong = []
    for query in QUERIES:
        found = search_results[query]
        if not found:
            continue
        built = (shared_site / found[0].strip("/") / "index.html").read_text(encoding="utf-8").lower()
        if not any(s in built for s in spellings(query)):
            wrong.append(f"{query} → {found[0]}")
    assert not wrong, f"first result without the query: {wrong}"


def test_formulas_read_as_text_in_a_result_preview():
    fragment = r"<p>勾配 \(\partial L / \partial \mathrm{ln2\_out}\) は \[ \sqrt{d_k} \] で、\(a &lt; b\)</p>"
    assert math_as_text(fragment) == "<p>勾配 ∂L / ∂ln2_out は √(d_k) で、a &lt; b</p>"
    assert math_as_text(r"<code>\(x\)</code> と \(x\)") == r"<code>\(x\)</code> と x"  # code stays as written


def test_previews_show_no_tex_source_and_no_notebook_buttons(shared_site: Path):
    """What a result list shows is the index's title and text: no TeX, and no 「ノートブックをダウンロード」 line."""
    index = json.loads((shared_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    tex, buttons = [], []
    for doc in index["docs"]:
        shown = re.sub(r"<code\b.*?</code>", "", doc.get("title", "") + " " + doc.get("text", ""), flags=re.DOTALL)
        if "\\(" in shown or "\\[" in shown or "\\mathrm" in shown or "\\partial" in shown:
            tex.append(doc["location"])
        if re.search(r"ノートブックをダウンロード \(\S+\.ipynb\)|Google Colab で開く", shown):  # the buttons' text
            buttons.append(doc["location"])
    assert not tex, f"TeX source in the search previews of {len(tex)} sections, e.g. {tex[:5]}"
    assert not buttons, f"notebook buttons in the search previews of {len(buttons)} sections, e.g. {buttons[:5]}"


# The bar of the first-contact issue: a learner's word, in katakana or as the prose writes it, brings a lesson first,
# and the lesson's preview is prose. Lessons: the four tracks and the try-it page (not the home page, not reference,
# API or appendix pages).
FIRST_CONTACT = ("マスク", "ソフトマックス", "レイヤー正規化", "勾配", "アテンション")
LESSON_PREFIXES = ("/notes/", "/backprop/", "/chapter/", "/scale/", "/tryit/", "/decoder/", "/intuition/")
_FIRST_RESULT = """
() => {
  const item = document.querySelector('.md-search-result__item');
  if (!item) return null;
  const link = item.querySelector('a.md-search-result__link');
  return {path: new URL(link.href).pathname, preview: item.innerText.replace(/\\s+/g, ' ').trim(),
          code: !!item.querySelector('pre, .highlight')};
}
"""


@pytest.fixture(scope="module")
def first_results(shared_browser, shared_server) -> dict[str, dict]:
    context = shared_browser.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    page.goto(shared_server, wait_until="networkidle")
    placeholder = f"document.querySelector('.md-search-result__meta').textContent.trim() === '{PLACEHOLDER}'"
    out = {}
    try:
        box = page.locator("input.md-search__input")
        box.click()
        page.wait_for_function(placeholder)
        for query in FIRST_CONTACT:
            box.fill("")
            page.wait_for_function(placeholder)
            box.fill(query)
            box.press("End")
            page.wait_for_function(f"!({placeholder})")
            out[query] = page.evaluate(_FIRST_RESULT)
    finally:
        context.close()
    return out


@pytest.mark.parametrize("query", FIRST_CONTACT)
def test_a_learners_word_brings_a_lesson_first_with_a_preview_in_prose(first_results, query: str):
    """Typed into Material's search, each word's first result is a lesson, and what the result shows is the
    lesson's prose: no code (the source tabs are not in the index), no block map."""
    first = first_results[query]
    assert first, f"{query!r} found nothing"
    print(f"\n{query}: {first['path']} — {first['preview'][:100]}")
    assert first["path"].startswith(LESSON_PREFIXES), f"{query!r}: the first result is {first['path']}, not a lesson"
    assert not first["code"], f"{query!r}: the first result's preview shows code: {first['preview'][:200]!r}"
    furniture = re.search(r"\bimport \w|from transformer_|ブロックの地図|読む目安", first["preview"])
    assert not furniture, f"{query!r}: the preview shows {furniture[0]!r}: {first['preview'][:200]!r}"


def test_lessons_rank_above_reference_pages(search_results):
    """An everyday query (正規化, 勾配, …) leads to a lesson: no reference or API page ranks above its page
    (the 用語集 may: its entry defines the term and links to the lesson)."""
    wrong = []
    for query, pages in QUERIES.items():
        found = search_results[query]
        expected = [found.index(_url_path(p)) for p in pages if _url_path(p) in found]
        if not expected:
            continue  # test_query_finds_its_page names it
        # the glossary may come first: its entry is a definition with a link to the lesson
        above = [p for p in found[: min(expected)] if p.startswith("/reference/") and p != "/reference/glossary/"]
        if above:
            wrong.append(f"{query}: {above} above {found[min(expected)]}")
    assert not wrong, "reference pages ranked above lessons: " + "; ".join(wrong)
