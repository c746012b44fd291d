"""Tooltips for people, on the built site: on every lesson page a checked number's tooltip leads with what the value
is, in Japanese, with no Python in its first line; the sheet is opaque and inside the screen (390 px dark, 1280 px
light); the marking of checked numbers is quiet until the header's switch turns it on, and the switch is remembered
on the device.

The tooltip itself (keyboard, Esc, the expression one step further, taps) is tested on a page of its own in
test_checked_tooltip.py; here the walk of the shared site reads one number per page, and every label the pages
carry is read from the built HTML.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from walk import in_views, probe, reading_context, readings

pytestmark = [pytest.mark.browser, pytest.mark.build]

VIEWS = ((390, "dark"), (1280, "light"))
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# A label without Japanese is notation a lesson writes too (「d_ff ÷ d_model」, 「√d_k」, 「10⁸」, 「GELU′(−1.0)」).
NOTATION = re.compile(r"[\w\s÷×−+·√π|()\[\],.⁰¹²³⁴⁵⁶⁷⁸⁹⁻/→′^=]+")
# What reads as code in a label's first line: a call of a snake_case name, a method, a string key, Python words.
CODE = re.compile(r"\b[a-z]+_\w*\(|\.[a-z_]{2,}\(|\[[\"']|\b(?:len|None|True|False|lambda)\b|==|\*\*")
SPAN = re.compile(r'<span class="checked-number"[^>]*? data-label="([^"]*)" data-value="([^"]*)" data-expr="([^"]*)"')

_FIRST_NUMBER = probe("first-number-tooltip", views=VIEWS, reveals=True, script="""() => {
  const el = [...document.querySelectorAll('article .checked-number:not(.checked-claim)')]
    .find(e => e.getClientRects().length && !e.closest('details:not([open]), .tabbed-block:not(:first-child)'));
  if (!el) return null;
  el.scrollIntoView({block: 'center'});
  el.focus();
  const tip = document.querySelector('#tm-tip');
  if (!tip || tip.hidden) return {open: false};
  const r = tip.getBoundingClientRect();
  const s = getComputedStyle(tip);
  const seen = {open: true, lines: tip.innerText.split('\\n').filter(Boolean),
    name: tip.querySelector('.tm-tip__name').textContent, expr: tip.querySelector('.tm-tip__expr').hidden,
    background: s.backgroundColor, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
    width: innerWidth, height: innerHeight};
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
  el.blur();
  return seen;
}""")


def _readable(label: str) -> bool:
    """Japanese words, or the notation of the lessons; never code."""
    return bool(label) and (JAPANESE.search(label) or NOTATION.fullmatch(label)) and not CODE.search(label)


def _lesson(path: str) -> bool:
    return not path.startswith("reference/") and "?" not in path


@in_views(*VIEWS)
def test_on_every_lesson_page_a_number_s_tooltip_leads_with_a_japanese_label(page_walk, view):
    width, scheme = view
    problems, seen_pages = [], 0
    for path, seen in readings(page_walk, _FIRST_NUMBER, width, scheme):
        if not _lesson(path) or seen is None:
            continue
        seen_pages += 1
        where = f"/{path} at {width} px, {scheme}"
        if not seen["open"]:
            problems.append(f"{where}: focus opened no tooltip")
            continue
        first = seen["lines"][0]
        if first != seen["name"] or not _readable(first):
            problems.append(f"{where}: the tooltip's first line is {first!r}")
        if not seen["expr"]:
            problems.append(f"{where}: the expression shows before the reader asks for it")
        if not (seen["background"].startswith("rgb(") or seen["background"].endswith(", 1)")):
            problems.append(f"{where}: the sheet is not opaque ({seen['background']})")
        if seen["left"] < 0 or seen["right"] > seen["width"] or seen["top"] < 0 or seen["bottom"] > seen["height"]:
            problems.append(f"{where}: the tooltip leaves the screen ({seen})")
    assert seen_pages >= 25, f"only {seen_pages} lesson pages had a checked number in the walk"
    assert not problems, "\n".join(problems)


def test_every_label_in_the_lesson_pages_is_japanese_and_no_code(shared_site: Path, shared_pages: list[str]):
    """Every number's tooltip on every lesson page, read from the built HTML: its first line, the label."""
    problems, numbers = [], 0
    for path in filter(_lesson, shared_pages):
        text = (shared_site / path / "index.html").read_text(encoding="utf-8")
        for label, value, expression in SPAN.findall(text):
            numbers += 1
            label = html.unescape(label)
            if not _readable(label):
                problems.append(f"/{path}: {label!r} (for {html.unescape(expression)})")
            if not value:
                problems.append(f"/{path}: no value for {html.unescape(expression)}")
    assert numbers >= 700, numbers
    assert not problems, "\n".join(problems[:40])


def test_the_marking_switch_is_quiet_by_default_and_remembered_on_the_device(shared_browser, shared_server):
    context = reading_context(shared_browser, viewport={"width": 390, "height": 844}, locale="ja-JP",
                              color_scheme="dark", has_touch=True, is_mobile=True)  # fmt: skip
    page = context.new_page()
    background = "el => getComputedStyle(el).backgroundColor"
    try:
        page.goto(shared_server + "notes/03-attention/", wait_until="load")
        number = page.locator("article .checked-number:not(.checked-claim)").first
        switch = page.locator("button.tm-mark-toggle")
        assert switch.get_attribute("aria-pressed") == "false" and switch.get_attribute("aria-label")
        assert number.evaluate(background) == "rgba(0, 0, 0, 0)"
        switch.tap()
        assert switch.get_attribute("aria-pressed") == "true"
        assert number.evaluate(background) != "rgba(0, 0, 0, 0)"
        page.reload(wait_until="load")  # remembered: the next visit starts marked
        number = page.locator("article .checked-number:not(.checked-claim)").first
        assert page.locator("button.tm-mark-toggle").get_attribute("aria-pressed") == "true"
        assert number.evaluate(background) != "rgba(0, 0, 0, 0)"
        page.locator("button.tm-mark-toggle").tap()
        page.reload(wait_until="load")
        assert page.locator("button.tm-mark-toggle").get_attribute("aria-pressed") == "false"
    finally:
        context.close()
