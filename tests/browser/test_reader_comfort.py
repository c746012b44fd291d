"""What readers and authors expect around the content, on the built site: printing a chapter, copy buttons on
code, anchors on headings, the API page of ``src``, notebook downloads, edit links, the 404 page, the sitemap.

Pages come from the built site (every ``index.html``), so pages written later are covered.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
import yaml
from page_scripts import with_helpers
from walk import in_views, probe, reading_context, readings

pytestmark = [pytest.mark.browser, pytest.mark.build]

ROOT = Path(__file__).resolve().parents[2]


def _config() -> dict:
    return yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


def _html(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def _chapter_with_most_figures(site: Path, pages: list[str]) -> str:
    chapters = [p for p in pages if p.startswith("chapter/")] or pages
    return max(chapters, key=lambda p: _html(site, p).count('class="tf-figure"'))


_PRINT_STATE = """
() => {
  const hidden = sel => [...document.querySelectorAll(sel)].every(e => getComputedStyle(e).display === "none"
                                                                    || e.getBoundingClientRect().height === 0);
  const article = document.querySelector("article").getBoundingClientRect();
  const shown = svg => !svg.closest(".tabbed-block")
                       || getComputedStyle(svg.closest(".tabbed-block")).display !== "none";
  // inline SVG figures and heat tables (a heat figure's widest table: a wrapper could hide its overflow)
  const figures = [...document.querySelectorAll("article svg.tf-figure, article figure.tf-heat-figure")]
    .filter(shown).filter(fig => getComputedStyle(fig).display !== "none").map(fig => {
      const b = fig.getBoundingClientRect();
      const widest = Math.max(b.width, ...[...fig.querySelectorAll("table")].map(t => t.getBoundingClientRect().width));
      return [fig.getAttribute("aria-label").slice(0, 40), widest, b.height];
    });
  return {
    navigationHidden: hidden(".md-header") && hidden(".md-sidebar") && hidden(".md-footer") && hidden(".tf-notebook"),
    articleWidth: article.width,
    figures,
  };
}
"""


def test_a_chapter_prints_without_navigation_and_with_whole_figures(
    shared_browser, shared_server, shared_site, shared_pages, tmp_path
):
    path = _chapter_with_most_figures(shared_site, shared_pages)
    context = reading_context(shared_browser, viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    try:
        page.goto(shared_server + path, wait_until="networkidle")
        page.wait_for_load_state("load")  # network idle may come before the parser ends
        page.emulate_media(media="print")
        state = page.evaluate(_PRINT_STATE)
        pdf = page.pdf(format="A4", print_background=False)
    finally:
        context.close()
    assert state["navigationHidden"], f"/{path}: header, sidebars, footer or the notebook button still print"
    assert state["figures"], f"/{path}: no figure visible in print"
    for label, width, height in state["figures"]:
        assert width > 0 and height > 0, f"/{path}: figure {label!r} has no size in print"
        assert width <= state["articleWidth"] + 1, f"/{path}: figure {label!r} wider than the printed page"
    assert pdf[:5] == b"%PDF-" and len(pdf) > 20_000
    (tmp_path / "chapter.pdf").write_bytes(pdf)
    pages_in_pdf = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    print(f"\n/{path} prints to {pages_in_pdf} A4 pages ({len(pdf) / 1e3:.0f} KB) with {len(state['figures'])} figures")


_ANCHORS = probe("heading-anchors", views=((1280, "light"),), script="""
() => [...document.querySelectorAll("article h2, article h3")]
  .filter(h => !h.closest(".doc")).map(h => [h.id, (h.querySelector("a.headerlink") || {}).hash || ""])
""")


@in_views((1280, "light"))
def test_headings_have_anchors(page_walk, view):
    problems, headings = [], 0
    for path, state in readings(page_walk, _ANCHORS, *view):
        for heading_id, anchor in state:
            headings += 1
            if not heading_id or anchor != f"#{heading_id}":
                problems.append(f"/{path}: heading id={heading_id!r} has anchor {anchor!r}")
    print(f"\n{headings} headings with anchors")
    assert headings > 0
    assert not problems, "\n".join(problems)


# Material sets a code block up (its copy button, whether it scrolls) when the block first comes into view
# (content.lazy). The reader's way to each block is followed (reach); its button must come within a second. Blocks
# already set up on the way are not visited again, so a page of many short blocks costs a few screens, not one wait
# per block.
_REACH_EVERY_CODE_BLOCK = with_helpers("""
async () => {
  /* helpers */
  const blocks = [...document.querySelectorAll("article pre > code")];
  const missing = [];
  for (const [index, code] of blocks.entries()) {
    if (!hasCopyButton(code) && !(await reach(code, hasCopyButton, 1000))) missing.push(index + 1);
  }
  return {blocks: blocks.length, missing};
}
""")


def test_every_code_block_gets_its_copy_button_when_the_reader_reaches_it(
    shared_browser, shared_server, shared_site, shared_pages
):
    assert {"content.code.copy", "content.lazy"} <= set(_config()["theme"]["features"])
    code_block = re.compile(r"<pre[^>]*>(<span></span>)?<code")
    with_code = [path for path in shared_pages if code_block.search(_html(shared_site, path))]
    context = shared_browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    problems, blocks = [], 0
    try:
        page = context.new_page()
        for path in with_code:
            page.goto(shared_server + path, wait_until="load")
            state = page.evaluate(_REACH_EVERY_CODE_BLOCK)
            blocks += state["blocks"]
            if state["missing"]:
                problems.append(f"/{path}: no copy button on code blocks {state['missing']} of {state['blocks']}")
    finally:
        context.close()
    print(f"\n{blocks} code blocks on {len(with_code)} pages, each with its copy button once reached")
    assert len(with_code) > 10 and blocks > 0
    assert not problems, "\n".join(problems)


_SIDEWAYS = probe("sideways", views=((390, "light"),), script="""
() => {
  const width = document.documentElement.clientWidth;
  // what sticks out: the innermost elements wider than the viewport that no scrolling box contains
  const wide = [...document.querySelectorAll("article *")].filter(el => {
    if (el.scrollWidth <= width + 1) return false;
    for (let p = el; p && p !== document.body; p = p.parentElement)
      if (getComputedStyle(p).overflowX !== "visible") return false;
    return true;
  });
  const innermost = wide.filter(el => !wide.some(other => other !== el && el.contains(other)));
  return {
    overflow: document.documentElement.scrollWidth - width,
    culprits: innermost.slice(0, 3).map(el => `<${el.tagName.toLowerCase()}> ${el.textContent.trim().slice(0, 60)}`),
  };
}
""")


@in_views((390, "light"))
def test_no_page_scrolls_sideways_on_a_phone(page_walk, view):
    """At 390 px every wide thing (table, figure, formula, code) scrolls inside its own box, not the page."""
    measured = readings(page_walk, _SIDEWAYS, *view)
    problems = [f"/{path}: {state['overflow']} px sideways; {state['culprits']}" for path, state in measured
                if state["overflow"] > 0]  # fmt: skip
    assert measured, "the walk measured no page at 390 px"
    assert not problems, "pages wider than a 390 px phone:\n" + "\n".join(problems)


def test_api_pages_document_every_module_of_src(shared_site):
    """One API page per package (one page for all weighed 186 KB gzipped); the overview links to each."""
    overview = _html(shared_site, "reference/api")
    for package in ("transformer_math", "transformer_pages", "transformer_figures", "transformer_site"):
        assert f'href="{package}/"' in overview, f"the API overview does not link to {package}"
        html = _html(shared_site, f"reference/api/{package}")
        modules = sorted(p.stem for p in (ROOT / "src" / package).glob("*.py") if not p.stem.startswith("_"))
        missing = [m for m in modules if f'id="{package}.{m}"' not in html]
        assert not missing, f"API page of {package} lacks modules {missing}"
        article = html[html.index("<article") : html.index("</article>")]
        assert not re.search(r"<(script|style|textarea)\b", article), f"{package}: a docstring's tag became markup"
    assert "Numerically stable softmax" in _html(shared_site, "reference/api/transformer_math")  # a docstring itself


def test_every_notebook_button_downloads_a_notebook(shared_site, shared_pages):
    buttons = 0
    for path in shared_pages:
        match = re.search(r'<p class="tf-notebook"[^>]*><a class="md-button" href="([^"]+)"', _html(shared_site, path))
        if match is None:
            continue
        buttons += 1
        target = (shared_site / path / match.group(1)).resolve()
        assert target.is_file(), f"/{path}: the notebook button points to a missing {match.group(1)}"
        notebook = json.loads(target.read_text(encoding="utf-8"))
        assert notebook["nbformat"] == 4 and any(c["cell_type"] == "code" for c in notebook["cells"])
    notebooks = list(shared_site.rglob("*.ipynb"))
    assert buttons == len(notebooks) > 0, f"{buttons} buttons for {len(notebooks)} notebooks"


def test_edit_links_404_and_sitemap(shared_site, shared_pages):
    config = _config()
    site_url, repo_url, edit_uri = config["site_url"], config["repo_url"], config["edit_uri"]
    assert site_url.startswith("https://") and site_url.endswith("/")
    for path in shared_pages:
        html = _html(shared_site, path)
        match = re.search(r'<a href="([^"]+)" title="[^"]*" class="md-content__button', html)
        assert match, f"/{path}: no edit link"
        assert match.group(1).startswith(urljoin(repo_url + "/", edit_uri)), match.group(1)
        source = ROOT / "docs" / match.group(1).split(edit_uri, 1)[1]
        assert source.is_file(), f"/{path}: edit link to a missing {source}"
    not_found = (shared_site / "404.html").read_text(encoding="utf-8")
    assert "ページが見つかりません" in not_found and 'lang="ja"' in not_found
    sitemap = (shared_site / "sitemap.xml").read_text(encoding="utf-8")
    listed = set(re.findall(r"<loc>([^<]+)</loc>", sitemap))
    missing = [p for p in shared_pages if site_url + p not in listed]
    assert not missing, f"sitemap.xml misses {missing}"
    assert (shared_site / "sitemap.xml.gz").is_file()


def test_header_repository_link_makes_no_github_api_request(shared_site):
    html = _html(shared_site, "")
    assert 'class="md-source"' in html and 'data-md-component="source"' not in html
