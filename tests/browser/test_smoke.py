"""Browser smoke test: every page of the nav, in each view of the browser walk (1280 and 390 px, light and
dark), shows what a reader would notice first without a fault.

Per page: no console error or uncaught exception, no failed request or HTTP error, no request to any host
but ours, every formula typeset by KaTeX with no error node, every figure of non-zero size (at 1280 px). These
are noted on the walk's one visit of the page (``walk.py``). ``TEST_SCREENSHOTS=1`` also saves a full-page
screenshot of each page at 1280 px in each palette to ``screenshots/`` (gitignored) for a human look.

Skipped with a reason when chromium or Playwright is missing, unless ``REQUIRE_BROWSER=1`` (CI).
The site is built once per run by tests/browser/conftest.py; ``SITE_DIR=<dir>`` tests an already built one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from page_scripts import with_helpers
from walk import VIEWS, in_views, probe, walk_view

pytestmark = [pytest.mark.browser, pytest.mark.build]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
WIDE = ((1280, "light"), (1280, "dark"))


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
_FIGURE_SIZES = probe("figure-sizes", views=WIDE, reveals=True, script=with_helpers("""
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
"""))

_MATH_STATE = probe("math-state", """
() => {
  const nodes = [...document.querySelectorAll(".arithmatex")];
  return {
    total: nodes.length,
    typeset: nodes.filter(n => n.dataset.typeset === "done" && n.querySelector(".katex")).length,
    errors: nodes.filter(n => n.dataset.typeset === "error" || n.querySelector(".katex-error"))
                 .map(n => n.textContent.slice(0, 120)),
  };
}
""")


PAGES = nav_pages()


def page_problems(seen: dict[str, object], met: list[str]) -> list[str]:
    """What a reader would meet on one page: what the walk noted there, and what its probes found."""
    problems = list(met)
    math = seen[_MATH_STATE]
    problems += [f"formula with an error: {tex}" for tex in math["errors"]]
    if math["typeset"] + len(math["errors"]) != math["total"]:
        problems.append(f"{math['total'] - math['typeset']} of {math['total']} formulas not typeset")
    for label, width, height in seen.get(_FIGURE_SIZES, ()):
        if width <= 0 or height <= 0:
            problems.append(f"figure of zero size: {label}")
    return problems


@in_views(*VIEWS)
def test_every_page_renders_cleanly(page_walk, view):
    walked, met = page_walk.view(*view), page_walk.met(*view)
    missing = [md for md in PAGES if page_url_path(md) not in walked]
    assert not missing, f"pages of the nav the walk did not reach: {missing}"
    problems = [f"/{path}: {p}" for path, seen in walked.items() for p in page_problems(seen, met.get(path, []))]
    assert not problems, f"at {view[0]} px, {view[1]}:\n" + "\n".join(problems)


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
    """The checks themselves, on a walk of one page with a bad formula, a third-party request and an empty
    figure: each is reported."""
    broken = built_site / "__broken__.html"
    broken.write_text(_BROKEN_PAGE.format(base="/"), encoding="utf-8")
    try:
        walked, met = walk_view(browser, server, [broken.name], 1280, "dark", probes={_MATH_STATE, _FIGURE_SIZES})
    finally:  # the site is shared with the other browser tests
        broken.unlink()
    problems = "\n".join(page_problems(walked[broken.name], met.get(broken.name, [])))
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
