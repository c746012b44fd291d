"""Browser smoke test: build the site once, serve it on 127.0.0.1, open every page of the nav in Debian's
chromium (light and dark palette) and check what a reader would notice first.

Per page: no console error or uncaught exception, no failed request or HTTP error, no request to any host
but ours, every formula typeset by KaTeX with no error node, every figure of non-zero size. A full-page
screenshot of each page and palette goes to ``screenshots/`` (gitignored) for a human look.

Skipped with a reason when chromium or Playwright is missing, unless ``REQUIRE_BROWSER=1`` (CI).
``SMOKE_SITE_DIR=<dir>`` tests an already built site; ``SMOKE_PROJECT_DIR=<dir>`` builds another checkout
(e.g. ``git archive HEAD`` extracted) instead of this work tree.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

pytestmark = [pytest.mark.browser, pytest.mark.build]

REPO = Path(__file__).resolve().parents[2]
# The project to build (default: this work tree). Pointing it at a clean export (git archive HEAD) tests the
# committed site while pages are being written in the work tree.
ROOT = Path(os.environ.get("SMOKE_PROJECT_DIR", REPO)).resolve()
SCREENSHOTS = REPO / "screenshots"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _require_or_skip(reason: str):
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


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
def built_site(tmp_path_factory) -> Path:
    if os.environ.get("SMOKE_SITE_DIR"):  # an already built site (e.g. the CI's strict build), used as is
        return Path(os.environ["SMOKE_SITE_DIR"]).resolve()
    site_dir = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if ROOT != REPO:  # build the exported tree's src, not the editable install's (this work tree)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site_dir)],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    elapsed = time.perf_counter() - start
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr[-4000:]}"
    size = sum(f.stat().st_size for f in site_dir.rglob("*") if f.is_file())
    print(f"\nstrict build: {elapsed:.1f} s, site {size / 1e6:.2f} MB in {site_dir}")
    weights = figure_weights(site_dir)
    if weights:
        total = sum(w for w, _, _ in weights)
        print(f"{len(weights)} figures, {total / 1024:.0f} KB of inline SVG; heaviest:")
        for weight, page, label in weights[:5]:
            print(f"  {weight / 1024:6.1f} KB  {page}  {label[:60]}")
    return site_dir


def figure_weights(site_dir: Path) -> list[tuple[int, str, str]]:
    """(bytes, page, alt text) of every inline figure SVG in the built site, heaviest first."""
    found = []
    for page in sorted(site_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        for svg in re.finditer(r'<svg role="img" aria-label="([^"]*)"[^>]*class="tf-figure".*?</svg>', text, re.S):
            found.append((len(svg.group(0).encode()), str(page.relative_to(site_dir)), svg.group(1)))
    return sorted(found, reverse=True)


@pytest.fixture(scope="session")
def server(built_site: Path):
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="session")
def browser():
    executable = shutil.which("chromium")
    if executable is None:
        _require_or_skip("Debian's chromium is not installed (apt-get install -y chromium fonts-ipaexfont-gothic)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _require_or_skip("playwright (Python) is not installed")
    # launch() starts chromium with a fresh temporary profile (its own --user-data-dir), removed afterwards.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


# Opens the tab (and <details>) holding each figure, then measures it. Returns [[label, width, height], …].
_MEASURE_FIGURES = """
() => {
  const figures = [...document.querySelectorAll("article svg.tf-figure, article figure img, article .tf-panel")];
  const out = [];
  for (const fig of figures) {
    const chain = [];
    for (let el = fig; el && el !== document.body; el = el.parentElement) chain.unshift(el);
    for (const el of chain) {
      if (el.tagName === "DETAILS") el.open = true;
      if (el.classList && el.classList.contains("tabbed-block")) {
        const index = [...el.parentElement.children].indexOf(el);
        const set = el.parentElement.parentElement;
        const inputs = [...set.children].filter(c => c.tagName === "INPUT");
        if (inputs[index]) inputs[index].click();
      }
    }
    const box = fig.getBoundingClientRect();
    out.push([fig.getAttribute("aria-label") || fig.tagName, box.width, box.height]);
  }
  return out;
}
"""

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
    (built_site / "__broken__.html").write_text(_BROKEN_PAGE.format(base="/"), encoding="utf-8")
    problems = "\n".join(inspect_page(browser, server, "__broken__.html", "dark"))
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


@pytest.mark.parametrize("query", ["softmax", "注意"])
def test_search_finds_pages(browser, server, query: str):
    """Material's client-side search with lunr's Japanese support loads from our host and returns hits."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    failures: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failures.append(f"HTTP {r.status}: {r.url}"))
    page.on("console", lambda m: m.type == "error" and failures.append(f"console error: {m.text}"))
    try:
        page.goto(server, wait_until="networkidle")
        page.click("label.md-search__icon, .md-search__input")
        box = page.locator("input.md-search__input")
        box.fill(query)
        box.press("End")  # typing into the filled box is what triggers Material's search
        page.wait_for_selector(".md-search-result__item", timeout=15_000)
        hits = page.locator(".md-search-result__item").count()
        assert hits > 0
        assert not failures, "\n".join(failures)
    finally:
        context.close()
