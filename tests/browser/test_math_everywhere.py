"""Every formula on every built page typesets with KaTeX without error — when the page is opened directly (read
on the browser walk's visit, in each of its views) and when it is reached by Material's instant navigation from
another page (``navigation.instant``: the page is swapped in without a reload, so KaTeX and the panels must re-run
on ``document$``).

Pages are every ``index.html`` of the built site (no hard-coded list), so pages added later are covered.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from walk import VIEWS, in_views, probe, reading_context, readings, start_panels

pytestmark = [pytest.mark.browser, pytest.mark.build]

ROOT = Path(__file__).resolve().parents[2]

_MATH_STATE = """
() => {
  const nodes = [...document.querySelectorAll("article .arithmatex")];
  return {
    total: nodes.length,
    done: nodes.filter(n => n.dataset.typeset === "done" && n.querySelector(".katex")
                            && !n.querySelector(".katex-error")).length,
    errors: nodes.filter(n => n.dataset.typeset === "error" || n.querySelector(".katex-error")
                              || n.classList.contains("math-error")).map(n => n.textContent.slice(0, 100)),
    panels: [...document.querySelectorAll("[data-tm-panel]")].filter(p => !p.getAttribute("data-tm-ready")).length,
  };
}
"""
_DIRECT = probe("math-typeset", _MATH_STATE)
# Settled: every panel started (its scripts are fetched when a panel comes near the view: panels-loader.js) and
# every formula typeset, the panels' own included.
_SETTLED = (
    "[...document.querySelectorAll('[data-tm-panel]')].every(p => p.getAttribute('data-tm-ready'))"
    " && [...document.querySelectorAll('article .arithmatex')].every(n => n.dataset.typeset)"
)


def _check(page, where: str) -> tuple[int, list[str]]:
    try:
        start_panels(page)  # a panel starts as the reader scrolls near it
        page.wait_for_function(_SETTLED, timeout=15_000)
    except PlaywrightTimeoutError:
        pass  # what is missing is reported below, page by page
    return _problems(page.evaluate(_MATH_STATE), where)


def _problems(state: dict, where: str) -> tuple[int, list[str]]:
    problems = [f"{where}: formula with an error: {tex}" for tex in state["errors"]]
    if state["done"] != state["total"]:
        problems.append(f"{where}: {state['total'] - state['done']} of {state['total']} formulas not typeset")
    if state["panels"]:
        problems.append(f"{where}: {state['panels']} panels not started")
    return state["total"], problems


def test_instant_navigation_is_enabled():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "navigation.instant" in config["theme"]["features"]


@in_views(*VIEWS)
def test_every_formula_typesets_when_its_page_is_opened(page_walk, view):
    problems, formulas = [], 0
    for path, state in readings(page_walk, _DIRECT, *view):
        count, found = _problems(state, f"/{path}")
        formulas, problems = formulas + count, problems + found
    print(f"\n{formulas} formulas typeset at {view[0]} px, {view[1]}")
    assert formulas > 0
    assert not problems, "\n".join(problems)


def test_every_formula_typesets_after_instant_navigation(shared_browser, shared_server, shared_pages):
    pages = shared_pages
    assert len(pages) >= 2, f"too few pages: {pages}"
    context = reading_context(shared_browser, viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: m.type == "error" and console.append(m.text))
    page.on("pageerror", lambda e: console.append(str(e)))
    problems: list[str] = []
    formulas = 0
    try:
        # One session walks every page by instant navigation, each reached from the previous one. A marker on
        # window survives only if the page was swapped in, not reloaded.
        page.goto(shared_server, wait_until="networkidle")
        page.wait_for_load_state("load")  # network idle may come before the parser ends
        page.evaluate("window.__noReload = true")
        for path in [*pages[1:], pages[0]]:
            target = shared_server + path
            page.evaluate("document.querySelector('article').setAttribute('data-tm-left', '')")
            page.evaluate(
                "url => { const a = document.createElement('a'); a.href = url; document.body.append(a); a.click(); }",
                target,
            )
            page.wait_for_url(target, timeout=15_000)
            # the address changes before the new content is swapped in: wait for the old article to be gone
            page.wait_for_function("!document.querySelector('article[data-tm-left]')", timeout=15_000)
            page.wait_for_function("document$ !== undefined")
            page.wait_for_load_state("networkidle")
            if not page.evaluate("window.__noReload === true"):
                problems.append(f"/{path}: the page reloaded instead of instant navigation")
                page.evaluate("window.__noReload = true")
            count, found = _check(page, f"/{path} (instant)")
            formulas, problems = formulas + count, problems + found
    finally:
        context.close()
    problems += [f"console: {c}" for c in console]
    print(f"\n{formulas} formulas on {len(pages)} pages typeset after instant navigation")
    assert formulas > 0
    assert not problems, "\n".join(problems)
