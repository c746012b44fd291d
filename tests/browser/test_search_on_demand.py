"""The search index is fetched when the reader opens search, not with every page (search-on-demand.js).

A page that loads, settles and is scrolled never asks for ``search/search_index.json``; opening search (clicking
the box, pressing Material's shortcut, or an address with ``?q=``) asks for it once, and the query then finds a page
that has it. Every other request (pages, figures, sitemap) still goes out while search is closed.
"""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.build]

INDEX = "search/search_index.json"
LESSON = "notes/03-attention/"
QUERY = "マスク"
_RESULTS = "document.querySelectorAll('.md-search-result__item').length > 0"
_FIRST = "document.querySelector('.md-search-result__item').textContent"


def _is_index(url: str) -> bool:
    return url.split("?")[0].endswith(INDEX)


@pytest.fixture
def page(shared_browser):
    context = shared_browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    page = context.new_page()
    page.index_requests = []  # type: ignore[attr-defined]
    page.other_requests = []  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def record(request):
        target = page.index_requests if _is_index(request.url) else page.other_requests
        target.append(request.url)

    page.on("request", record)
    yield page
    context.close()
    assert not errors, f"uncaught exceptions: {errors}"


def _settle(page, url: str) -> None:
    page.goto(url, wait_until="networkidle")
    page.wait_for_load_state("load")
    page.mouse.wheel(0, 3000)  # reading on: scrolling is not opening search
    page.wait_for_timeout(300)


def _search_finds_the_lesson(page) -> None:
    page.locator("input.md-search__input").fill(QUERY)
    page.locator("input.md-search__input").press("End")
    page.wait_for_function(_RESULTS)
    assert QUERY in page.evaluate(_FIRST)  # which lesson comes first is test_search.py's concern


def test_a_page_read_without_searching_never_fetches_the_index(page, shared_server):
    _settle(page, shared_server + LESSON)
    assert page.index_requests == []
    assert any(url.endswith(".css") for url in page.other_requests)  # the page itself loaded as usual


def test_opening_search_fetches_the_index_once_and_finds_the_lesson(page, shared_server):
    _settle(page, shared_server + LESSON)
    assert page.index_requests == []
    with page.expect_request(lambda r: _is_index(r.url)):
        page.locator("label[for=__search]").first.click()  # the search button, as a phone shows it
    _search_finds_the_lesson(page)
    assert len(page.index_requests) == 1


def test_the_search_shortcut_opens_search_and_fetches_the_index(page, shared_server):
    _settle(page, shared_server + LESSON)
    with page.expect_request(lambda r: _is_index(r.url)):
        page.keyboard.press("/")  # Material's shortcut: opens search and focuses the box
    _search_finds_the_lesson(page)


def test_an_address_with_a_query_fetches_the_index_at_once(page, shared_server):
    with page.expect_request(lambda r: _is_index(r.url)):
        page.goto(shared_server + LESSON + "?q=" + QUERY)
    page.wait_for_function(_RESULTS)
    assert QUERY in page.evaluate(_FIRST)  # which lesson comes first is test_search.py's concern
