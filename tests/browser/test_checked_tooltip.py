"""The tooltip of a checked number (and of a checked claim) on hover and on keyboard focus, at 1280 and at 390 px.

It leads with what the value is in Japanese, then the full-precision value, then the expression. On a phone it opens
as a sheet that fits the screen; Esc closes it. No site build: the spans that render_checked_numbers writes, styled by
docs/assets/checked-numbers.css with docs/assets/javascripts/checked-numbers.js, in a blank page of Debian's chromium.
"""

from __future__ import annotations

import html
from pathlib import Path

import markdown
import pytest

from transformer_math import preset_trace
from transformer_site.checked import render_checked_numbers

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
VALUE = float(preset_trace(1).scores[0, 2, 3])
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip
AFTER = "(el) => { const s = getComputedStyle(el, '::after'); return [s.display, s.content]; }"
LONG_PROSE = "本文の文章です。" * 40
SOURCE = (
    f"{LONG_PROSE}スコアは {{{{ +3.526 = s1.scores[0, 2, 3] }}}} です。"
    "キー側の列は{{ どの文でも同じ値 if notes.qkv.keys_copy_the_noun_dimension() }}です。\n\n"
    '<p style="text-align: right">右端の数 {{ 0.834 = s1.attn[0, 2, 3] }}</p>\n'
)


@pytest.fixture(scope="module")
def browser(shared_browser):
    """The session's one Playwright browser (conftest.py): a second sync Playwright in the same pytest worker
    fails ("Sync API inside the asyncio loop") while the first is running."""
    return shared_browser


def _document() -> str:
    body = markdown.markdown(render_checked_numbers(SOURCE, "x.md"))
    css = (REPO / "docs" / "assets" / "checked-numbers.css").read_text(encoding="utf-8")
    js = (REPO / "docs" / "assets" / "javascripts" / "checked-numbers.js").read_text(encoding="utf-8")
    return (
        "<!doctype html><html><head><meta name='viewport' content='width=device-width'>"
        f"<style>body {{ margin: 0 1rem; }} {css}</style></head>"
        f"<body><div class='md-typeset'>{body}</div><script>{js}</script></body></html>"
    )


@pytest.fixture(params=[1280, 390], ids=["1280px", "390px"])
def page(browser, request):
    tab = browser.new_page(viewport={"width": request.param, "height": 800})
    tab.set_content(_document())
    yield tab
    tab.close()


BOX = """(el) => {
            // The pseudo-element's box, measured by a clone that takes the ::after's computed style.
            const s = getComputedStyle(el, '::after');
            const probe = document.createElement('div');
            for (const name of s) probe.style.setProperty(name, s.getPropertyValue(name));
            probe.textContent = [el.dataset.label, el.dataset.value, el.dataset.expr].join(String.fromCharCode(10));
            (s.position === 'fixed' ? document.body : el).appendChild(probe);
            const r = probe.getBoundingClientRect();
            probe.remove();
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, position: s.position};
        }"""


def test_tooltip_leads_with_the_label_then_the_value_then_the_expression(page):
    span = page.locator(".checked-number:not(.checked-claim)").first
    assert span.inner_text() == f"{VALUE:+.3f}"  # the literal only
    assert span.evaluate(AFTER)[0] == "none"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "checked-number"
    display, content = span.evaluate(AFTER)
    assert display == "block"
    assert html.unescape(content) == f'"文1・ヘッド0 の scores[美しい→花]\\a {VALUE!r}\\a s1.scores[0, 2, 3]"'


def test_claim_shows_its_words_and_on_focus_the_condition(page):
    claim = page.locator(".checked-claim")
    assert claim.inner_text() == "どの文でも同じ値"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    display, content = claim.evaluate(AFTER)
    assert display == "block"
    assert "計算して確かめている条件" in content and "notes.qkv.keys_copy_the_noun_dimension()" in content
    assert "成り立つ" in content


def test_tooltip_shown_on_hover_on_a_wide_screen(page):
    if page.viewport_size["width"] < 600:
        pytest.skip("a phone has no hover; a tap focuses")
    page.mouse.move(0, 0)
    span = page.locator(".checked-number:not(.checked-claim)").first
    assert span.evaluate(AFTER)[0] == "none"
    span.hover()
    assert span.evaluate(AFTER)[0] == "block"


@pytest.mark.parametrize("which", [0, 1], ids=["in-prose", "at-the-right-edge"])
def test_the_tooltip_fits_the_screen_and_escape_closes_it(page, which):
    width = page.viewport_size["width"]
    span = page.locator(".checked-number:not(.checked-claim)").nth(which)
    span.scroll_into_view_if_needed()
    span.focus()
    page.wait_for_timeout(50)
    box = span.evaluate(BOX)
    assert box["left"] >= 0 and box["right"] <= width, box
    if width < 600:
        assert box["position"] == "fixed"  # a sheet along the bottom of the screen, not beside a word
        assert box["bottom"] <= page.viewport_size["height"] and box["top"] >= 0, box
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement === document.body")
    assert span.evaluate(AFTER)[0] == "none"
