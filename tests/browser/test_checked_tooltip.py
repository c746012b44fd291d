"""The page's one tooltip (docs/assets/javascripts/tooltips.js) for a checked number, a checked claim and a glossary
term, at 1280 and at 390 px, in both palettes.

A number's tooltip leads with what the value is in Japanese, then its full value; the expression is one step
further (the button 「計算式」, or Enter on the focused number). Nothing is made before a reader asks; Esc closes the
tooltip and leaves the focus where it was; on a phone it is a sheet along the bottom of the screen; the sheet is
opaque. The marking of checked numbers is quiet until the reader switches it on, and never looks like a glossary
term. No site build: what render_checked_numbers and wrap_terms write, with the site's stylesheets and script, in a
blank page of Debian's chromium.
"""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest

from transformer_math import preset_trace
from transformer_site.checked import render_checked_numbers
from transformer_site.glossary import wrap_terms

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ASSETS = REPO / "docs" / "assets"
VALUE = float(preset_trace(1).scores[0, 2, 3])
LONG_PROSE = "本文の文章です。" * 40
SOURCE = (
    f"{LONG_PROSE}スコアは {{{{ +3.526 = s1.scores[0, 2, 3] }}}} です。"
    "キー側の列は{{ どの文でも同じ値 if notes.qkv.keys_copy_the_noun_dimension() }}です。\n\n"
    "クエリとキーの内積を考えます。\n\n"
    '<p style="text-align: right">右端の数 {{ 0.834 = s1.attn[0, 2, 3] }}</p>\n'
)
NUMBER = ".checked-number:not(.checked-claim)"
TIP = "#tm-tip"
# What the tooltip shows, line by line, and how it is painted.
SEEN = """() => {
  const tip = document.querySelector('#tm-tip');
  if (!tip || tip.hidden) return null;
  const r = tip.getBoundingClientRect();
  const s = getComputedStyle(tip);
  const expr = tip.querySelector('.tm-tip__expr');
  return {
    name: tip.querySelector('.tm-tip__name').textContent, body: tip.querySelector('.tm-tip__body').textContent,
    expr: expr.hidden ? null : expr.textContent, more: !tip.querySelector('.tm-tip__more').hidden,
    left: r.left, right: r.right, top: r.top, bottom: r.bottom, position: s.position, background: s.backgroundColor,
    described: document.activeElement && document.activeElement.getAttribute('aria-describedby'),
  };
}"""
MARKING = """(el) => { const s = getComputedStyle(el);
  return {background: s.backgroundColor, line: s.textDecorationLine, style: s.textDecorationStyle,
          border: s.borderBottomStyle}; }"""


@pytest.fixture(scope="module")
def browser(shared_browser):
    """The session's one Playwright browser (conftest.py): a second sync Playwright in the same pytest worker
    fails ("Sync API inside the asyncio loop") while the first is running."""
    return shared_browser


def _document(scheme: str) -> str:
    body = wrap_terms(markdown.markdown(render_checked_numbers(SOURCE, "x.md")))
    css = "".join((ASSETS / name).read_text(encoding="utf-8") for name in ("checked-numbers.css", "tooltips.css",
                                                                           "glossary.css"))  # fmt: skip
    js = (ASSETS / "javascripts" / "tooltips.js").read_text(encoding="utf-8")
    slate = ' data-md-color-scheme="slate"' if scheme == "dark" else ""
    return (
        "<!doctype html><html><head><meta name='viewport' content='width=device-width'>"
        f"<style>body {{ margin: 0 1rem; }} {css}</style></head>"
        f"<body{slate}><button type='button' class='tm-mark-toggle' aria-pressed='false'>印</button>"
        f"<div class='md-typeset'>{body}</div><script>{js}</script></body></html>"
    )


@pytest.fixture(params=[(1280, "light"), (390, "dark"), (1280, "dark"), (390, "light")], ids=lambda v: f"{v[0]}-{v[1]}")
def page(browser, request):
    width, scheme = request.param
    tab = browser.new_page(viewport={"width": width, "height": 800}, has_touch=width < 600)
    tab.set_content(_document(scheme))
    yield tab
    tab.close()


def _is_opaque(colour: str) -> bool:
    return colour.startswith("rgb(") or colour.endswith(", 1)")


def test_nothing_is_made_before_a_reader_asks(page):
    assert page.locator(TIP).count() == 0
    assert page.evaluate("document.querySelectorAll('[title]').length") == 0  # no title for another tooltip


def test_the_tooltip_leads_with_the_label_and_the_value_and_keeps_the_expression_one_step_further(page):
    number = page.locator(NUMBER).first
    assert number.inner_text() == f"{VALUE:+.3f}"  # the literal only
    for _ in range(4):  # the header's switch, the term 「スコア」, then the number
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.className") == "checked-number":
            break
    assert page.evaluate("document.activeElement.className") == "checked-number"
    seen = page.evaluate(SEEN)
    assert seen["name"] == "文1・ヘッド0 の scores[美しい→花]"
    assert seen["body"] == repr(VALUE)
    assert seen["more"] and seen["expr"] is None  # the expression is not what a reader meets first
    assert seen["described"] == "tm-tip"
    page.keyboard.press("Enter")
    assert page.evaluate(SEEN)["expr"] == "s1.scores[0, 2, 3]"
    page.keyboard.press("Enter")
    assert page.evaluate(SEEN)["expr"] is None


def test_the_button_shows_the_expression(page):
    page.locator(NUMBER).first.focus()
    page.locator(".tm-tip__toggle").click()
    assert page.evaluate(SEEN)["expr"] == "s1.scores[0, 2, 3]"
    assert page.locator(".tm-tip__toggle").get_attribute("aria-expanded") == "true"


def test_a_claim_says_what_was_checked_and_that_it_holds(page):
    page.locator(".checked-claim").focus()
    seen = page.evaluate(SEEN)
    assert seen["name"].startswith("計算で確かめた条件: ")
    assert seen["body"].startswith("成り立つ")
    assert "ビルド" not in seen["name"] + seen["body"]


def test_a_glossary_term_shows_its_english_name_and_its_definition_without_the_expression_button(page):
    term = page.locator("abbr.glossary-term", has_text="クエリ")
    assert term.inner_text() == "クエリ"
    term.focus()
    seen = page.evaluate(SEEN)
    assert seen["name"] == "クエリ (Query)" and seen["body"].startswith("注意で「探す側」のベクトル")
    assert not seen["more"]


def test_escape_closes_the_tooltip_and_leaves_the_focus(page):
    page.locator(NUMBER).first.focus()
    assert page.evaluate(SEEN) is not None
    page.keyboard.press("Escape")
    assert page.evaluate(SEEN) is None
    assert page.evaluate("document.activeElement.className") == "checked-number"
    assert page.evaluate("document.activeElement.getAttribute('aria-describedby')") is None


def test_hover_shows_the_tooltip_on_a_wide_screen_and_a_tap_on_a_phone(page):
    number = page.locator(NUMBER).first
    number.scroll_into_view_if_needed()
    if page.viewport_size["width"] < 600:
        number.tap()
    else:
        page.mouse.move(0, 0)
        number.hover()
    assert page.evaluate(SEEN)["name"] == "文1・ヘッド0 の scores[美しい→花]"
    page.mouse.click(2, 2)  # a tap or a click elsewhere closes it
    assert page.evaluate(SEEN) is None


@pytest.mark.parametrize("which", [0, 1], ids=["in-prose", "at-the-right-edge"])
def test_the_tooltip_fits_the_screen_and_is_opaque(page, which):
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    number = page.locator(NUMBER).nth(which)
    number.scroll_into_view_if_needed()
    number.focus()
    seen = page.evaluate(SEEN)
    assert seen["left"] >= 0 and seen["right"] <= width, seen
    assert seen["top"] >= 0 and seen["bottom"] <= height, seen
    if width < 600:  # a sheet along the bottom of the screen, not beside a word
        assert seen["position"] == "fixed" and height - seen["bottom"] < 20, seen
    assert _is_opaque(seen["background"]), f"the sheet lets the text beneath show through: {seen['background']}"


def test_the_marking_is_quiet_until_switched_on_and_never_looks_like_a_term(page):
    number = page.locator(NUMBER).first
    term = page.locator("abbr.glossary-term").first
    quiet = number.evaluate(MARKING)
    assert quiet["background"] == "rgba(0, 0, 0, 0)" and quiet["line"] == "none" and quiet["border"] == "none"
    assert term.evaluate(MARKING)["style"] == "dotted"  # a term: a dotted underline
    page.locator(".tm-mark-toggle").click()
    marked = number.evaluate(MARKING)
    assert marked["background"] != "rgba(0, 0, 0, 0)" and marked["line"] == "none"  # a tint, never a dotted line
    assert page.locator(".tm-mark-toggle").get_attribute("aria-pressed") == "true"
    page.locator(".tm-mark-toggle").click()
    assert number.evaluate(MARKING)["background"] == "rgba(0, 0, 0, 0)"
