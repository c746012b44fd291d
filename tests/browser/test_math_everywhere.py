"""Every formula on every built page typesets with KaTeX without error, in each of the browser walk's views (a
link to another page loads it afresh, so a page reached by a link is a page opened).

Pages are every ``index.html`` of the built site (no hard-coded list), so pages added later are covered.
"""

from __future__ import annotations

import pytest
from walk import VIEWS, in_views, probe, readings

pytestmark = [pytest.mark.browser, pytest.mark.build]

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


def _problems(state: dict, where: str) -> tuple[int, list[str]]:
    problems = [f"{where}: formula with an error: {tex}" for tex in state["errors"]]
    if state["done"] != state["total"]:
        problems.append(f"{where}: {state['total'] - state['done']} of {state['total']} formulas not typeset")
    if state["panels"]:
        problems.append(f"{where}: {state['panels']} panels not started")
    return state["total"], problems


@in_views(*VIEWS)
def test_every_formula_typesets_when_its_page_is_opened(page_walk, view):
    problems, formulas = [], 0
    for path, state in readings(page_walk, _DIRECT, *view):
        count, found = _problems(state, f"/{path}")
        formulas, problems = formulas + count, problems + found
    print(f"\n{formulas} formulas typeset at {view[0]} px, {view[1]}")
    assert formulas > 0
    assert not problems, "\n".join(problems)
