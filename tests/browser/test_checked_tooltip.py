"""The checked-number tooltip shows the expression and the full value on hover and on keyboard focus.

No site build: the span that render_checked_numbers writes, styled by docs/assets/checked-numbers.css, in a
blank page of Debian's chromium.
"""

from __future__ import annotations

import html
import os
import shutil
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


@pytest.fixture(scope="module")
def page():
    executable = shutil.which("chromium")
    reason = None if executable else "Debian's chromium is not installed"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        reason = "playwright (Python) is not installed"
    if reason:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    body = markdown.markdown(render_checked_numbers("スコアは {{ +3.526 = s1.scores[0, 2, 3] }} です。", "x.md"))
    css = (REPO / "docs" / "assets" / "checked-numbers.css").read_text(encoding="utf-8")
    document = f"<!doctype html><html><head><style>{css}</style></head><body><div class='md-typeset'>{body}</div>"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        tab = browser.new_page()
        tab.set_content(document)
        yield tab
        browser.close()


def test_tooltip_hidden_then_shown_on_keyboard_focus(page):
    span = page.locator(".checked-number")
    assert span.inner_text() == f"{VALUE:+.3f}"  # the literal only
    assert span.evaluate(AFTER)[0] == "none"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "checked-number"
    display, content = span.evaluate(AFTER)
    assert display == "block"
    assert html.unescape(content) == f'"s1.scores[0, 2, 3] = {VALUE!r}"'


def test_tooltip_shown_on_hover(page):
    page.evaluate("document.activeElement.blur()")
    page.mouse.move(0, 0)
    span = page.locator(".checked-number")
    assert span.evaluate(AFTER)[0] == "none"
    span.hover()
    assert span.evaluate(AFTER)[0] == "block"
