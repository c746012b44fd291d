"""Browser smoke test: build the site once, serve it on 127.0.0.1, open every page of the nav in Debian's
chromium (light and dark palette) and check what a reader would notice first.

Per page: no console error or uncaught exception, no failed request or HTTP error, no request to any host
but ours, every formula typeset by KaTeX with no error node, every figure of non-zero size. A full-page
screenshot of each page and palette goes to ``screenshots/`` (gitignored) for a human look.

Skipped with a reason when chromium or Playwright is missing, unless ``REQUIRE_BROWSER=1`` (CI).
The site is built once per session by tests/browser/conftest.py; ``SITE_DIR=<dir>`` tests an already built one.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml
from page_scripts import with_helpers

pytestmark = [pytest.mark.browser, pytest.mark.build]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"


def nav_pages(config_path: Path = ROOT / "mkdocs.yml") -> list[str]:
    """Every Markdown page named in mkdocs.yml's nav, in nav order (docs-relative paths)."""
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))

    def walk(entry) -> list[str]:
        if isinstance(entry, str):
            return [entry] if entry.endswith(".md") and "://" not in entry else []
        if isinstance(entry, list):
            return [page for item in entry for page in walk(item)]
        if isinstance(entry, dict):
            return [page for value in entry.values() for page in walk(value)]
        return []

    return walk(config.get("nav", []))


def page_url_path(md_path: str) -> str:
    """notes/03-attention.md → notes/03-attention/ ; index.md → '' (MkDocs' use_directory_urls)."""
    stem = md_path[: -len(".md")]
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


@pytest.fixture(scope="session")
def built_site(shared_site: Path) -> Path:
    """The one strict build of the session (tests/browser/conftest.py; ``SITE_DIR`` reuses a built site)."""
    return shared_site


@pytest.fixture(scope="session")
def server(shared_server: str) -> str:
    return shared_server


@pytest.fixture(scope="session")
def browser(shared_browser):
    return shared_browser


def figure_weights(site_dir: Path) -> list[tuple[int, str, str]]:
    """(bytes, page, alt text) of every inline figure SVG in the built site, heaviest first."""
    found = []
    for page in sorted(site_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        for svg in re.finditer(r'<svg role="img" aria-label="([^"]*)"[^>]*class="tf-figure".*?</svg>', text, re.S):
            found.append((len(svg.group(0).encode()), str(page.relative_to(site_dir)), svg.group(1)))
    return sorted(found, reverse=True)


MAX_FIGURE_BYTES = 150_000  # a 16 × 16 annotated heatmap is about 55 KB; three times that is a mistake


def test_figures_have_alt_text_and_reasonable_weight(built_site: Path):
    weights = figure_weights(built_site)
    pages = {p.parent for p in built_site.rglob("index.html")}
    size = sum(f.stat().st_size for f in built_site.rglob("*") if f.is_file())
    print(f"\nsite {size / 1e6:.2f} MB in {len(pages)} pages; {len(weights)} figures, "
          f"{sum(w for w, _, _ in weights) / 1024:.0f} KB of inline SVG; heaviest:")  # fmt: skip
    for weight, page, label in weights[:5]:
        print(f"  {weight / 1024:6.1f} KB  {page}  {label[:60]}")
    SCREENSHOTS.mkdir(exist_ok=True)  # the full list, next to the screenshots (gitignored)
    (SCREENSHOTS / "figure-weights.tsv").write_text(
        "bytes\tpage\talt\n" + "".join(f"{w}\t{p}\t{label}\n" for w, p, label in weights), encoding="utf-8"
    )
    assert weights, "no figure found in the built site"
    assert all(label.strip() for _, _, label in weights), "a figure without alt text"
    heavy = [(w, p, label[:40]) for w, p, label in weights if w > MAX_FIGURE_BYTES]
    assert not heavy, f"figures over {MAX_FIGURE_BYTES} bytes: {heavy}"


# Opens the tab (and <details>) holding each figure, then measures it. Returns [[label, width, height], …].
_MEASURE_FIGURES = with_helpers("""
() => {
  /* helpers */
  const figures = [...document.querySelectorAll(
    "article svg.tf-figure, article figure.tf-heat-figure, article figure img, article .tf-panel")];
  const out = [];
  for (const fig of figures) {
    reveal(fig);
    if (fig.matches("svg") && getComputedStyle(fig).display === "none") continue;  // a pair's other drawing
    const box = fig.getBoundingClientRect();
    out.push([fig.getAttribute("aria-label") || fig.tagName, box.width, box.height]);
  }
  return out;
}
""")

_MATH_STATE = """
() => {
  const nodes = [...document.querySelectorAll(".arithmatex")];
  return {
    total: nodes.length,
    typeset: nodes.filter(n => n.dataset.typeset === "done" && n.querySelector(".katex")).length,
    errors: nodes.filter(n => n.dataset.typeset === "error" || n.querySelector(".katex-error"))
                 .map(n => n.textContent.slice(0, 120)),
  };
}
"""


def _slug(md_path: str) -> str:
    return re.sub(r"[^0-9A-Za-z_-]+", "_", md_path[: -len(".md")])


PAGES = nav_pages()


def inspect_page(browser, server: str, path: str, scheme: str, screenshot: Path | None = None) -> list[str]:
    """Open ``server + path`` in a fresh context with ``scheme``; return every problem a reader would meet."""
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    problems: list[str] = []
    own_host = urlparse(server).netloc

    def on_request(route):
        url = urlparse(route.request.url)
        if url.scheme in ("data", "blob") or url.netloc == own_host:
            route.continue_()
        else:
            problems.append(f"request to another host: {route.request.url}")
            route.abort()

    page.route("**/*", on_request)
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"uncaught exception: {e}"))
    page.on(
        "requestfailed",
        lambda r: urlparse(r.url).netloc == own_host and problems.append(f"failed request: {r.url} ({r.failure})"),
    )
    page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))
    try:
        page.goto(server + path, wait_until="networkidle")
        page.wait_for_load_state("load")  # network idle may come before the parser ends
        page.evaluate("document.fonts.ready")
        page.wait_for_function(
            "[...document.querySelectorAll('.arithmatex')].every(n => n.dataset.typeset)", timeout=10_000
        )
        math = page.evaluate(_MATH_STATE)
        problems += [f"formula with an error: {tex}" for tex in math["errors"]]
        if math["typeset"] + len(math["errors"]) != math["total"]:
            problems.append(f"{math['total'] - math['typeset']} of {math['total']} formulas not typeset")
        if screenshot is not None:
            screenshot.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(screenshot), full_page=True)
        for label, width, height in page.evaluate(_MEASURE_FIGURES):
            if width <= 0 or height <= 0:
                problems.append(f"figure of zero size: {label}")
    finally:
        context.close()
    return problems


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("md_path", PAGES)
def test_page_renders_cleanly(browser, server, md_path: str, scheme: str):
    shot = SCREENSHOTS / f"{_slug(md_path)}-{scheme}.png"
    problems = inspect_page(browser, server, page_url_path(md_path), scheme, screenshot=shot)
    assert not problems, f"{md_path} ({scheme}):\n" + "\n".join(problems)


_BROKEN_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="{base}assets/vendor/katex/katex.min.css">
<script src="{base}assets/vendor/katex/katex.min.js"></script></head>
<body><article>
<p><span class="arithmatex">\\(\\frac{{1}}{{\\)</span> and <span class="arithmatex">\\(x^2\\)</span></p>
<img src="https://example.com/tracker.png" alt="">
<figure class="tf-figure"><svg class="tf-figure" aria-label="empty" width="0" height="0"></svg></figure>
</article>
<script src="{base}assets/javascripts/katex-init.js"></script></body></html>
"""


def test_the_checks_catch_a_broken_page(browser, server, built_site: Path):
    """The inspector itself: a page with a bad formula, a third-party request and an empty figure fails."""
    broken = built_site / "__broken__.html"
    broken.write_text(_BROKEN_PAGE.format(base="/"), encoding="utf-8")
    try:
        problems = "\n".join(inspect_page(browser, server, broken.name, "dark"))
    finally:  # the site is shared with the other browser tests
        broken.unlink()
    assert "formula with an error" in problems and "KaTeX" in problems, problems
    assert "request to another host: https://example.com/tracker.png" in problems, problems
    assert "figure of zero size: empty" in problems, problems


def test_nav_is_not_empty_and_every_nav_page_exists():
    assert PAGES, "mkdocs.yml has no pages in nav"
    missing = [p for p in PAGES if not (ROOT / "docs" / p).is_file()]
    assert not missing, f"nav names pages that do not exist: {missing}"


def test_url_mapping():
    assert page_url_path("index.md") == ""
    assert page_url_path("notes/03-attention.md") == "notes/03-attention/"
    assert page_url_path("chapter/index.md") == "chapter/"
