"""Keyboard only: a box that scrolls sideways (a heat table on a phone, a wide formula) is in the tab order with
a name, shows a focus ring and scrolls with the arrow keys; an answer option that is only a formula has a name."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from walk import open_page, reading_context

pytestmark = [pytest.mark.browser, pytest.mark.build]

_FIRST_OVERFLOWING_HEAT_TABLE = """
() => {
  const boxes = [...document.querySelectorAll("article .tf-heat-scroll")]
    .filter(b => b.getClientRects().length && b.scrollWidth > b.clientWidth + 1);
  if (!boxes.length) return null;
  boxes[0].scrollIntoView({ block: "center" });
  boxes[0].id = boxes[0].id || "heat-under-test";
  return boxes[0].id;
}
"""


def test_a_heat_table_that_scrolls_on_a_phone_takes_focus_and_scrolls_with_arrow_keys(shared_browser, shared_server):
    context = reading_context(shared_browser, viewport={"width": 390, "height": 844}, locale="ja-JP")
    try:
        page = context.new_page()
        open_page(page, shared_server + "backprop/02-output-ffn/")
        box_id = page.evaluate(_FIRST_OVERFLOWING_HEAT_TABLE)
        assert box_id, (
            "no heat table of the output-FFN backprop page overflows its box at 390 px: "
            "the test has nothing to press on"
        )
        box = page.locator(f"#{box_id}")
        assert box.get_attribute("tabindex") == "0"
        assert box.get_attribute("role") == "region"
        assert (box.get_attribute("aria-label") or "").startswith("表"), box.get_attribute("aria-label")
        # reach it as a keyboard user does: Tab from the element just before it in the tab order
        page.evaluate(f"""() => {{
          const box = document.getElementById({box_id!r});
          const marker = document.createElement("button"); marker.id = "before-box"; marker.textContent = "x";
          box.parentElement.insertBefore(marker, box);
          marker.focus();
        }}""")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == box_id
        ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert ring != "none", "the focused scroll box shows no focus ring"
        assert box.evaluate("b => b.scrollLeft") == 0
        for _ in range(4):
            page.keyboard.press("ArrowRight")
        # Chromium scrolls by keyboard with an animation, frame by frame: on a busy machine the first frame can come
        # after the key press returns, so wait for it (a box that never scrolls still fails after the timeout)
        try:
            page.wait_for_function(f"document.getElementById({box_id!r}).scrollLeft > 0", timeout=10_000)
        except PlaywrightTimeoutError:
            pass
        assert box.evaluate("b => b.scrollLeft") > 0, "ArrowRight did not scroll the focused heat table"
    finally:
        context.close()


def test_a_formula_only_answer_option_is_named_by_its_formula(shared_browser, shared_server):
    context = reading_context(shared_browser, viewport={"width": 1280, "height": 900}, locale="ja-JP")
    try:
        page = context.new_page()
        open_page(page, shared_server + "chapter/02-attention-kinds/")
        names = page.evaluate(
            "() => [...document.querySelectorAll('.exercise-option input')].map(i => i.getAttribute('aria-label'))"
        )
        assert names and all(names), f"answer options without a name: {names}"
        # the name is what a screen reader reads of the visible option (KaTeX's MathML), e.g. "(h,n,m)=(8,3,5)"
        assert any("(" in name and "=" in name for name in names), names
        page.locator(".exercise-option input").first.focus()
        page.keyboard.press("ArrowDown")  # radios of one question move with the arrow keys
        checked = page.evaluate("document.activeElement.checked")
        assert checked, "ArrowDown did not select the next option"
    finally:
        context.close()
