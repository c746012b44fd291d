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

# Elements of the page inside blocks (or tab sets' contents) the browser is skipping, and all elements of the page.
_SKIPPED = """() => {
  let skipped = 0;
  const boxes = '.md-content__inner > *, .md-content__inner > .tabbed-set > .tabbed-content';
  for (const box of document.querySelectorAll(boxes)) {
    const inner = box.querySelector('*');
    const waits = inner && getComputedStyle(box).contentVisibility === 'auto';
    if (waits && !inner.checkVisibility({contentVisibilityAuto: true})) skipped += box.querySelectorAll('*').length;
  }
  return [skipped, document.querySelectorAll('*').length];
}"""
_DRAWN = "block => block.querySelector('*').checkVisibility({contentVisibilityAuto: true})"
# The lesson's blocks that wait for the reader, and those of them that start inside the first screen.
_LAZY = """[...document.querySelectorAll('.md-content__inner > *')]
  .filter(block => getComputedStyle(block).contentVisibility === 'auto')"""
_LAZY_IN_FIRST_SCREEN = f"""() => {_LAZY}
  .concat([...document.querySelectorAll('[data-test-hidden-at-start]')]
    .map(block => block.closest('.md-content__inner > *'))  // a table the theme has moved into a scrolling box: the box
    .filter(block => getComputedStyle(block).display !== 'none'))  // hidden for a reason of its own: not ours
  .filter(block => block.getBoundingClientRect().top + scrollY < innerHeight)
  .map(block => block.tagName + '.' + block.className)"""
# Marks the blocks that are not displayed when the page's own scripts have run (later-blocks.js shows them after).
_MARK_HIDDEN_AT_START = """document.addEventListener('DOMContentLoaded', () => {
  for (const block of document.querySelectorAll('.md-content__inner > *'))
    if (getComputedStyle(block).display === 'none') block.dataset.testHiddenAtStart = '';
});"""
# later-blocks.js has shown every block it held back (or held none back).
_SETTLED = "document.documentElement.dataset.tmBlocks !== 'later'"


@pytest.fixture
def opened(shared_browser, shared_server):
    contexts = []

    def open_(path: str, viewport: dict):
        context = shared_browser.new_context(viewport=viewport, locale="ja-JP")
        contexts.append(context)
        page = context.new_page()
        page.goto(shared_server + path, wait_until="load")
        page.wait_for_function(_SETTLED)
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
    context.add_init_script(_MARK_HIDDEN_AT_START)
    page = context.new_page()
    late = {}
    try:
        for path in shared_pages:
            page.goto(shared_server + path, wait_until="load")
            page.wait_for_function(_SETTLED)
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


# What later-blocks.js holds back on a phone while the page starts (site.css: html.tm-later).
_LATER = (".md-content__inner > h2 ~ h2 ~ :is(p, ul, ol, dl, table, .arithmatex, .admonition, details, .tabbed-set,"
          " .exercise, .md-typeset__scrollwrap, figure, .highlight)")
# The browser is never idle: later-blocks.js, which shows the blocks when it is, never takes a step.
_NEVER_IDLE = "window.requestIdleCallback = () => 0;"
# Elements the browser draws (not in a hidden block, not skipped by content-visibility), and all elements.
_DRAWN_COUNT = """() => {
  const all = document.querySelectorAll('body *');
  return [[...all].filter(el => el.checkVisibility({contentVisibilityAuto: true})).length, all.length];
}"""
_HIDDEN = f"() => [...document.querySelectorAll({_LATER!r})].filter(b => getComputedStyle(b).display === 'none').length"
START_PAGES = (*HEAVY_LESSONS, "tryit/")


@pytest.fixture
def phone(shared_browser):
    """A phone's browser context; ``never_idle=True`` freezes the page at its start (later-blocks.js waits)."""
    contexts = []

    def new(never_idle: bool = False):
        context = shared_browser.new_context(viewport=PHONE, locale="ja-JP")
        if never_idle:
            context.add_init_script(_NEVER_IDLE)
        contexts.append(context)
        return context.new_page()

    yield new
    for context in contexts:
        context.close()


@pytest.mark.parametrize("path", START_PAGES)
def test_a_phone_starts_a_page_with_only_its_first_screens_drawn(phone, shared_server, path):
    page = phone(never_idle=True)
    page.goto(shared_server + path, wait_until="load")
    drawn, total = page.evaluate(_DRAWN_COUNT)
    assert page.evaluate(_HIDDEN) > 0, f"{path}: no block below the first screen waits"
    assert drawn * 10 < total, f"{path}: {drawn} of {total} elements drawn while the page starts"


# Each showing of blocks (one observer call per task that showed some): how many blocks, and the lowest one's top.
_RECORD_SHOWINGS = """window.testShowings = [];
new MutationObserver(records => {
  const shown = records.filter(r => r.target.classList.contains('tm-shown')
    && !(r.oldValue || '').includes('tm-shown'));
  const tops = shown.map(r => r.target.getBoundingClientRect().top);
  if (shown.length) window.testShowings.push([shown.length, Math.min(...tops)]);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['class'], attributeOldValue: true});"""


@pytest.mark.parametrize("path", START_PAGES)
def test_the_blocks_below_come_one_at_a_time_then_all_together(phone, shared_server, path):
    page = phone()
    page.context.add_init_script(_RECORD_SHOWINGS)
    page.goto(shared_server + path, wait_until="load")
    page.wait_for_function(_SETTLED)
    showings = page.evaluate("testShowings")
    assert page.evaluate(_HIDDEN) == 0, f"{path}: blocks still hidden after later-blocks.js said it was done"
    singles, rest = showings[:-1], showings[-1]
    assert len(singles) >= 2 and all(n == 1 for n, _ in singles), f"{path}: blocks shown {showings}"
    assert rest[0] == 1 or rest[1] > 3 * PHONE["height"], f"{path}: blocks within reach shown together: {rest}"


def test_a_scroll_shows_every_block_at_once(phone, shared_server):
    page = phone(never_idle=True)
    page.goto(shared_server + HEAVY_LESSONS[0], wait_until="load")
    assert page.evaluate(_HIDDEN) > 0
    page.mouse.wheel(0, 300)
    page.wait_for_function(_SETTLED)
    assert page.evaluate(_HIDDEN) == 0


# While blocks wait, a section far down the page is reached by a link the reader follows (as in the table of
# contents), or by its address changed by hand: where its heading then is, and whether blocks still wait.
# (The section in the middle of the page: the last one cannot be scrolled to the top, the page ends below it;
# and the page is read once it has stopped moving.)
_JUMP_HELPERS = """const middleHeading = () => {
  const headings = [...document.querySelectorAll('.md-content__inner > h2')];
  return headings[Math.floor(headings.length / 2)];
};
// the page has stopped moving: the same scroll offset for 10 frames in a row (or 3 s have passed)
const settled = async () => {
  const end = performance.now() + 3000;
  for (let same = 0, y = scrollY; same < 10 && performance.now() < end; ) {
    await new Promise(requestAnimationFrame);
    same = scrollY === y ? same + 1 : 0;
    y = scrollY;
  }
};"""
_FOLLOW_LINK = """async () => {
  """ + _JUMP_HELPERS + """
  const target = middleHeading();
  const link = Object.assign(document.createElement('a'), {href: '#' + target.id, textContent: target.id});
  document.querySelector('.md-content__inner > h1').after(link);
  link.click();
  await settled();
  return [target.getBoundingClientRect().top, document.documentElement.dataset.tmBlocks];
}"""
_CHANGE_ADDRESS = """async () => {
  """ + _JUMP_HELPERS + """
  const target = middleHeading();
  location.hash = target.id;
  await settled();
  return [target.getBoundingClientRect().top, document.documentElement.dataset.tmBlocks];
}"""


@pytest.mark.parametrize("how", ["link", "address"])
def test_a_place_reached_while_blocks_wait_is_where_the_reader_lands(phone, shared_server, how):
    page = phone(never_idle=True)
    page.goto(shared_server + HEAVY_LESSONS[0], wait_until="load")
    assert page.evaluate(_HIDDEN) > 0
    top, state = page.evaluate(_FOLLOW_LINK if how == "link" else _CHANGE_ADDRESS)
    assert state == "shown" and page.evaluate(_HIDDEN) == 0
    assert 0 <= top < PHONE["height"] / 4, f"the heading of the section reached is at {top} px, not at the top"


def test_an_address_with_a_place_opens_whole(phone, shared_server):
    page = phone(never_idle=True)
    page.goto(shared_server + HEAVY_LESSONS[0], wait_until="load")
    target = page.evaluate(f"() => {{ {_JUMP_HELPERS} return middleHeading().id; }}")
    page.goto(f"{shared_server}{HEAVY_LESSONS[1]}", wait_until="load")  # a page between: the next load is new
    page.goto(f"{shared_server}{HEAVY_LESSONS[0]}#{target}", wait_until="load")
    assert not page.evaluate("document.documentElement.classList.contains('tm-later')")
    assert page.evaluate(_HIDDEN) == 0
    top = page.evaluate(f"document.getElementById({target!r}).getBoundingClientRect().top")
    assert 0 <= top < PHONE["height"] / 4, f"the place named in the address is at {top} px"


def test_a_page_reached_by_a_link_starts_as_a_first_visit_and_is_whole_on_return(phone, shared_server):
    page = phone(never_idle=True)
    page.goto(shared_server + HEAVY_LESSONS[0], wait_until="load")
    assert page.evaluate(_HIDDEN) > 0
    page.evaluate("window.__tmSameDocument = true")  # gone if the next page is loaded afresh
    page.locator(f'.md-content a[href$="{HEAVY_LESSONS[1].split("/")[1]}/"]').first.dispatch_event("click")
    page.wait_for_url(f"**/{HEAVY_LESSONS[1]}")
    page.wait_for_load_state("load")
    assert page.evaluate("window.__tmSameDocument") is None, "the page was swapped in, not loaded"
    assert page.evaluate(_HIDDEN) > 0, "a page reached by a link draws all its blocks while it starts"
    page.go_back(wait_until="load")
    assert page.evaluate(_HIDDEN) == 0, "the page returned to holds blocks back"


def test_every_block_is_shown_if_the_script_never_runs(phone, shared_server):
    page = phone()
    page.route("**/later-blocks.js", lambda route: route.abort())
    page.goto(shared_server + HEAVY_LESSONS[0], wait_until="load")
    page.wait_for_function("!document.documentElement.classList.contains('tm-later')", timeout=8000)
    assert page.evaluate(_HIDDEN) == 0
