"""One walk over every page of the shared site in the four views a reader meets (1280 and 390 px, light and
dark), running every registered probe on each page: a probe is a ``page.evaluate`` script (it may return a
promise), optionally with scripts to add to the page first. Tests register probes at import and read the
results, so several checks of every page in every view cost one visit, not one each.

    FRAME = probe("frame", "() => ({...})")
    @in_views((1280, "light"))
    def test_x(page_walk, view):
        for path, frame in readings(page_walk, FRAME, *view): ...

A view is walked the first time a test reads it, on the worker that runs that test: ``in_views`` puts each
view's tests in one pytest-xdist group (``walk-1280-light``, …), so the four walks are shared out among the
workers instead of one worker walking all four.

A probe that changes the page (opens ``<details>``, selects tabs, scrolls: ``reveals=True``) runs after every
probe that reads the page as it loads, so that those still see what a reader sees first.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlparse

import pytest

VIEWS: tuple[tuple[int, str], ...] = ((1280, "light"), (1280, "dark"), (390, "light"), (390, "dark"))
HEIGHT = {1280: 900, 390: 844}


class View(NamedTuple):
    path: str  # the page's URL path, "" for the index
    width: int
    scheme: str

    def __str__(self) -> str:
        return f"/{self.path} at {self.width} px, {self.scheme}"


@dataclass(frozen=True)
class Probe:
    name: str
    script: str
    add_scripts: tuple[Path, ...] = ()
    views: tuple[tuple[int, str], ...] = VIEWS  # the (width, scheme) it runs in
    reveals: bool = False  # it opens folded content, selects tabs or scrolls: run it after the others
    first: bool = False  # of the probes that change the page, it runs first (it judges the page as it loads)


# TEST_SCREENSHOTS=1: a full-page screenshot of every page at 1280 px in each palette, as it loads, goes to
# screenshots/ (gitignored), for a human look; it takes a minute, and nothing reads it but a person.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots" if os.environ.get("TEST_SCREENSHOTS") == "1" else None
# Pages visited besides every page of the site: the explorer opened on a signed stage (its diverging tables).
EXTRA_PATHS = ("tryit/?stage=residual1",)
# A page is read once these are gone: a panel's tables and readouts come once it has started (panels-loader.js
# fetches the scripts and panels.js starts a panel when it comes near the view; open_page scrolls to each), a
# formula a panel drew once KaTeX has typeset it (katex-init.js loads KaTeX for it), the boxes that scroll sideways
# once scroll-regions.js has measured them (when the browser is idle after the page loaded), and on a phone the
# blocks below the first screen once later-blocks.js has shown them all (as it shows the last, scroll-regions.js
# starts measuring again).
_UNSETTLED = (
    '[data-tm-panel]:not([data-tm-ready="1"]), .arithmatex:not([data-typeset]),'
    ' html[data-scroll-regions="pending"], html[data-tm-blocks="later"]'
)


PROBES: dict[str, Probe] = {}


def probe(
    name: str, script: str, add_scripts: tuple[Path, ...] = (), views=VIEWS, reveals: bool = False, first: bool = False
) -> str:
    """Register a probe (a repeated name is an error: two tests would read each other's results)."""
    if name in PROBES and (PROBES[name].script, PROBES[name].reveals) != (script, reveals):
        raise ValueError(f"browser walk: probe {name!r} is registered twice with different scripts")
    unknown = [v for v in views if v not in VIEWS]
    if unknown:
        raise ValueError(f"browser walk: probe {name!r} asks for views {unknown}, not among {VIEWS}")
    PROBES[name] = Probe(name, script, tuple(add_scripts), tuple(views), reveals, first)
    return name


def in_order() -> list[Probe]:
    """The probes in the order they run on a page: those that only read it first, then those that change it (the
    one marked ``first`` before the others), each in the order they were registered."""
    return sorted(PROBES.values(), key=lambda p: (p.reveals, not p.first))  # stable: registration order otherwise


def group_of(width: int, scheme: str) -> str:
    return f"walk-{width}-{scheme}"


def in_views(*views: tuple[int, str]):
    """Parametrize a test over ``view`` = (width, scheme), each case in its view's pytest-xdist group."""
    unknown = [v for v in views if v not in VIEWS]
    if unknown:
        raise ValueError(f"browser walk: views {unknown} are not among {VIEWS}")
    cases = [pytest.param(v, id=f"{v[0]}-{v[1]}", marks=pytest.mark.xdist_group(group_of(*v))) for v in views]
    return pytest.mark.parametrize("view", cases)


class Walk:
    """The walk of one site, one view at a time: a view is walked when a test first reads it, then kept."""

    def __init__(self, browser, server: str, pages: list[str]):
        self.browser, self.server, self.pages = browser, server, pages
        self._walked: dict[tuple[int, str], tuple[dict, dict]] = {}

    def view(self, width: int, scheme: str) -> dict[str, dict[str, object]]:
        """{page path: {probe name: what it returned}} for every page seen at ``width`` px in ``scheme``."""
        if (width, scheme) not in VIEWS:
            raise ValueError(f"browser walk: view {(width, scheme)} is not among {VIEWS}")
        if (width, scheme) not in self._walked:
            paths = [*self.pages, *EXTRA_PATHS]
            self._walked[width, scheme] = walk_view(self.browser, self.server, paths, width, scheme)
        return self._walked[width, scheme][0]

    def met(self, width: int, scheme: str) -> dict[str, list[str]]:
        """{page path: [console errors, failed requests, HTTP errors, requests to another host]} in that view."""
        self.view(width, scheme)
        return self._walked[width, scheme][1]


def readings(walk: Walk, name: str, width: int, scheme: str) -> list[tuple[str, object]]:
    """(page path, what probe ``name`` returned) for every page of the walk seen at ``width`` px in ``scheme``."""
    if (width, scheme) not in PROBES[name].views:
        raise ValueError(f"browser walk: probe {name!r} does not run at {width} px, {scheme}")
    return [(path, results[name]) for path, results in walk.view(width, scheme).items()]


def open_page(page, url: str) -> None:
    """Go to ``url`` and wait until a reader sees it whole: loaded, its tables drawn, its formulas typeset."""
    # "load", not "networkidle": a large page can still be parsing (readyState "loading") when the network has
    # been idle for 500 ms, and a probe would read half a page; nor is "networkidle" needed after "load", since
    # what comes later (the explorer's kernel, KaTeX) is waited for by what it leaves on the page
    page.goto(url, wait_until="load")
    # A lesson's blocks far below the first screen are drawn when the reader scrolls near them (site.css:
    # content-visibility: auto); until then the browser gives them no colours and no text (innerText is empty).
    # A probe reads the whole page at once, as a reader sees it block by block: every block is drawn first.
    page.add_style_tag(
        content=".md-content__inner > *, .md-content__inner > .tabbed-set > .tabbed-content"
        " { content-visibility: visible !important; }"
    )
    page.evaluate("document.fonts.ready")  # text is measured in the page's own fonts
    page.wait_for_function("!document.querySelector('html[data-tm-blocks=\"later\"]')")
    if start_panels(page):
        page.evaluate("window.scrollTo(0, 0)")  # back where a reader starts, for the probes of the first screen
    page.wait_for_function(f"!document.querySelector({_UNSETTLED!r})")


_STARTED = "panel => panel.dataset.tmReady === '1' || panel.querySelector('.tm-load-failed') !== null"


def start_panels(page, selector: str = "[data-tm-panel]") -> int:
    """Bring each panel matching ``selector`` into view, as a reader scrolls to it, and wait until it has started
    (panels.js starts a panel only when it comes within a screen of the view); returns how many there were."""
    panels = page.locator(selector)
    for i in range(panels.count()):
        panels.nth(i).scroll_into_view_if_needed()
        page.wait_for_function(_STARTED, arg=panels.nth(i).element_handle())
    return panels.count()


def walk_view(browser, server: str, paths: list[str], width: int, scheme: str, probes=None) -> tuple[dict, dict]:
    """Visit each of ``paths`` at ``width`` px in ``scheme`` and run the probes of that view (or those of
    ``probes``, names, in their order) on each page.

    Returns ({page path: {probe name: result}}, {page path: [what a reader would meet: console errors, failed
    requests, HTTP errors, requests to another host]}). An uncaught exception on any page fails the walk."""
    running = [p for p in in_order() if (width, scheme) in p.views and (probes is None or p.name in probes)]
    results: dict[str, dict[str, object]] = {}
    met: dict[str, list[str]] = {}
    errors: list[str] = []
    context = browser.new_context(
        color_scheme=scheme, viewport={"width": width, "height": HEIGHT[width]}, locale="ja-JP"
    )  # fmt: skip
    on_page = [""]  # the page being walked: what happens is noted on it
    _listen(context, urlparse(server).netloc, lambda text: met.setdefault(on_page[0], []).append(text))
    search_without_documents(context)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"/{on_page[0]}: {e}"))
    try:
        for path in paths:
            on_page[0] = path
            open_page(page, server + path)
            if SCREENSHOTS and width == 1280:
                SCREENSHOTS.mkdir(exist_ok=True)
                name = re.sub(r"[^0-9A-Za-z_-]+", "_", path) or "index"
                page.screenshot(path=str(SCREENSHOTS / f"{name}-{scheme}.png"), full_page=True)
            results[path] = {}
            for p in running:
                for script in p.add_scripts:
                    page.add_script_tag(path=str(script))
                results[path][p.name] = page.evaluate(p.script)
    finally:
        context.close()
    assert not errors, f"uncaught exceptions while walking the site at {width} px, {scheme}: {errors[:5]}"
    return results, met


def reading_context(browser, **options):
    """``browser.new_context(**options)`` for a test that reads pages but does not search: the search worker gets
    the index without its documents (:func:`search_without_documents`). Only test_search.py uses the real index."""
    context = browser.new_context(**options)
    search_without_documents(context)
    return context


def search_without_documents(context) -> None:
    """Give Material's search worker the site's search index without its documents, in this context.

    The site fetches ``search/search_index.json`` (1.75 MB: every section with its bigrams, ``search/japanese.py``)
    when the reader opens search (search-on-demand.js), and Material builds the lunr index from it in a worker:
    about 1 s of CPU. A test that focuses the search box on its way (a keyboard walk) would pay that on each page
    load. The worker still starts, with the index's own config (its language, separator and pipeline); searching
    the real index is test_search.py's."""
    index: dict[str, bytes] = {}

    def without_documents(route):
        if "body" not in index:
            config = route.fetch().json()["config"]
            index["body"] = json.dumps({"config": config, "docs": []}).encode("utf-8")
        route.fulfill(status=200, content_type="application/json", body=index["body"])

    context.route("**/search/search_index.json", without_documents)  # routes added last are matched first


def _listen(context, own_host: str, note) -> None:
    """Note every console error, failed request of our own host, HTTP error and request to another host (which is
    refused: the site must work offline and send nothing anywhere)."""

    def on_request(route):
        url = urlparse(route.request.url)
        if url.scheme in ("data", "blob") or url.netloc == own_host:
            route.continue_()
        else:
            note(f"request to another host: {route.request.url}")
            route.abort()

    def on_failed(request):
        # net::ERR_ABORTED: a request still open when the walk moves on to the next page, cancelled by the
        # browser, not refused by anything (an HTTP error is noted by on_response)
        if urlparse(request.url).netloc == own_host and request.failure != "net::ERR_ABORTED":
            note(f"failed request: {request.url} ({request.failure})")

    context.route("**/*", on_request)
    context.on("console", lambda m: m.type == "error" and note(f"console error: {m.text}"))
    context.on("requestfailed", on_failed)
    context.on("response", lambda r: r.status >= 400 and note(f"HTTP {r.status}: {r.url}"))
