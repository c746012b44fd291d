"""On a phone, a long lesson's blocks far below the first screen are styled and laid out only when the reader
nears them (site.css, ``content-visibility: auto``), and never a block the reader sees when the page opens.

On a phone held upright the heaviest lessons open with most of their elements skipped; on phones of several sizes
and on a wide screen no skipped-until-near block starts inside the first screen (it would be drawn a frame late
and push what follows); a block is drawn once the reader scrolls to it; on paper every block is drawn.

A code block is set up (its copy button, whether it scrolls) only when the reader reaches it, on any width: the
theme measures each block as it sets it up, and at load that measuring held up the page.

The navigation drawer of a narrow screen is not drawn while it is closed; it is whole when opened, stays drawn
while it slides out, and a wide screen's navigation column is always drawn.
"""

from __future__ import annotations

import pytest
from page_scripts import with_helpers

pytestmark = [pytest.mark.browser, pytest.mark.build]

HEAVY_LESSONS = ("notes/03-attention/", "chapter/02-attention-kinds/")
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}

# Elements of the page inside blocks the browser is skipping, and all elements of the page.
_SKIPPED = """() => {
  let skipped = 0;
  for (const block of document.querySelectorAll('.md-content__inner > *')) {
    const inner = block.querySelector('*');
    if (inner && !inner.checkVisibility({contentVisibilityAuto: true})) skipped += block.querySelectorAll('*').length;
  }
  return [skipped, document.querySelectorAll('*').length];
}"""
_DRAWN = "block => block.querySelector('*').checkVisibility({contentVisibilityAuto: true})"
# The lesson's blocks that wait for the reader, and those of them that start inside the first screen.
_LAZY = """[...document.querySelectorAll('.md-content__inner > *')]
  .filter(block => getComputedStyle(block).contentVisibility === 'auto')"""
_LAZY_IN_FIRST_SCREEN = f"""() => {_LAZY}
  .filter(block => block.getBoundingClientRect().top + scrollY < innerHeight)
  .map(block => block.tagName + '.' + block.className)"""


@pytest.fixture
def opened(shared_browser, shared_server):
    contexts = []

    def open_(path: str, viewport: dict):
        context = shared_browser.new_context(viewport=viewport, locale="ja-JP")
        contexts.append(context)
        page = context.new_page()
        page.goto(shared_server + path, wait_until="load")
        page.wait_for_timeout(300)  # the browser's first decision on what is near the screen
        return page

    yield open_
    for context in contexts:
        context.close()


@pytest.mark.parametrize("path", HEAVY_LESSONS)
def test_a_heavy_lesson_opens_with_most_of_its_elements_skipped(opened, path: str):
    skipped, total = opened(path, PHONE).evaluate(_SKIPPED)
    assert skipped > total / 2, f"{path}: {skipped} of {total} elements skipped at load"


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE, DESKTOP], ids=["phone", "small-phone", "desktop"])
def test_no_block_in_the_first_screen_waits_for_the_reader(shared_browser, shared_server, shared_pages, viewport):
    context = shared_browser.new_context(viewport=viewport, locale="ja-JP")
    page = context.new_page()
    late = {}
    try:
        for path in shared_pages:
            page.goto(shared_server + path, wait_until="load")
            if found := page.evaluate(_LAZY_IN_FIRST_SCREEN):
                late["/" + path] = found
    finally:
        context.close()
    assert not late, f"blocks drawn late inside the first screen at {viewport}: {late}"


def test_a_block_is_drawn_when_the_reader_reaches_it(opened):
    page = opened(HEAVY_LESSONS[0], PHONE)
    last = page.locator(".md-content__inner > .exercise").last
    assert not last.evaluate(_DRAWN)
    last.scroll_into_view_if_needed()
    page.wait_for_function(_DRAWN, arg=last.element_handle())


def test_on_paper_every_block_is_drawn(opened):
    page = opened(HEAVY_LESSONS[0], PHONE)
    page.emulate_media(media="print")
    assert page.evaluate(f"() => {_LAZY}.length") == 0


# Whether each of the page's code blocks is set up (has its copy button).
_COPY_BUTTONS = with_helpers("""() => {
  /* helpers */
  return [...document.querySelectorAll('article pre > code')].map(hasCopyButton);
}""")
# The page's last code block reached as a reader would (its tab chosen, scrolled to): whether it is then set up.
_REACH_LAST = with_helpers("""async () => {
  /* helpers */
  return reach([...document.querySelectorAll('article pre > code')].at(-1), hasCopyButton, 5000);
}""")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_code_block_is_set_up_only_when_the_reader_reaches_it(opened, viewport):
    page = opened(HEAVY_LESSONS[0], viewport)
    at_load = page.evaluate(_COPY_BUTTONS)
    assert at_load and not any(at_load), f"code blocks set up before the reader reached them: {at_load}"
    assert page.evaluate(_REACH_LAST), "the last code block was reached but never set up"


# How many of the navigation's entries are drawn (a closed drawer: none).
_NAV_DRAWN = """() => [...document.querySelectorAll('.md-sidebar--primary .md-nav__link')]
  .filter(link => link.checkVisibility()).length"""
# The drawer's entry for the page being read lies on the screen (the drawer's other levels slide off it).
_ACTIVE_ON_SCREEN = """() => [...document.querySelectorAll('.md-sidebar--primary .md-nav__link--active')].some(link => {
  const box = link.getBoundingClientRect();
  return link.checkVisibility() && box.width > 0 && box.left >= 0 && box.right <= innerWidth;
})"""
# Closing the drawer, read in the same task: the slide-out starts now and its entries must still be drawn.
_CLOSE_AND_COUNT = f"""() => {{
  document.querySelector('label.md-overlay').click();
  return ({_NAV_DRAWN})();
}}"""


def test_the_closed_drawer_is_not_drawn_and_opens_whole(opened):
    page = opened("chapter/07-training/", PHONE)
    assert page.evaluate(_NAV_DRAWN) == 0, "the closed drawer's entries are styled and laid out"
    page.click('.md-header label[for="__drawer"]')
    page.wait_for_function(f"() => ({_NAV_DRAWN})() > 5")
    page.wait_for_function(_ACTIVE_ON_SCREEN)  # the drawer has slid in and shows where the reader is
    assert page.evaluate(_CLOSE_AND_COUNT) > 5, "the drawer's entries vanish before it has slid out"
    page.wait_for_function(f"() => ({_NAV_DRAWN})() === 0")


def test_a_wide_screen_draws_its_navigation(opened):
    assert opened("chapter/07-training/", DESKTOP).evaluate(_NAV_DRAWN) > 5
