"""Accessible by the standard's own test: axe-core (4.12.1, bundled by the ``axe-playwright-python`` package)
with its WCAG 2 A and AA rules reports no violation on any built page, at 1280 and 390 px, in Material's light
and dark palette.

One browser context per (width, scheme); the pages are visited in turn. Before each run every ``<details>`` is
opened (answers, folded tables and derivations are content a reader opens), so their text is judged too.
"""

from __future__ import annotations

import pytest

# Its own pytest-xdist group (tests/conftest.py keeps an explicit group): axe takes minutes over the whole site,
# so it runs on the other worker, beside the tests that share the first worker's build, at the cost of a second
# build of the site there.
pytestmark = [pytest.mark.browser, pytest.mark.build, pytest.mark.xdist_group("axe")]

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# Content axe cannot judge, each excluded by name:
# - text drawn inside a figure's SVG (<svg class="tf-figure">): axe cannot see what a glyph stands on inside an
#   SVG and reports it "incomplete", never as a pass; test_figure_contrast.py measures every such text against
#   the shape or page under it, in both palettes.
EXCLUDE = [["svg.tf-figure"]]

_OPEN_DETAILS = "() => { for (const d of document.querySelectorAll('details')) d.open = true; }"


def axe_violations(page) -> list[dict]:
    """The WCAG 2 A/AA violations axe finds on ``page`` as it is now (every ``<details>`` opened first)."""
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate(_OPEN_DETAILS)
    page.wait_for_timeout(100)  # Material animates <details>; let the opened bodies settle
    results = Axe().run(
        page,
        context={"exclude": EXCLUDE},
        options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]},
    )
    return results.response["violations"]


def describe(path: str, violations: list[dict]) -> list[str]:
    """One line per rule: page, rule, count of nodes and the first few target selectors."""
    lines = []
    for v in violations:
        targets = [" ".join(map(str, node["target"])) for node in v["nodes"]]
        lines.append(f"/{path}: {v['id']} ×{len(targets)} ({v['help']}): " + "; ".join(targets[:4]))
    return lines


def open_page(page, url: str) -> None:
    page.goto(url, wait_until="networkidle")
    page.wait_for_load_state("load")  # network idle may come before the parser ends
    page.evaluate("document.fonts.ready")
    page.wait_for_function(
        "[...document.querySelectorAll('.arithmatex')].every(n => n.dataset.typeset)", timeout=30_000
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_axe_reports_no_wcag_violation_on_any_page(shared_browser, shared_server, shared_pages, width, scheme):
    context = shared_browser.new_context(
        color_scheme=scheme, viewport={"width": width, "height": 900}, locale="ja-JP"
    )  # fmt: skip
    problems: list[str] = []
    try:
        page = context.new_page()
        for path in shared_pages:
            open_page(page, shared_server + path)
            problems += describe(path, axe_violations(page))
    finally:
        context.close()
    assert not problems, f"axe-core WCAG 2 A/AA at {width} px, {scheme}:\n" + "\n".join(problems)
