"""The home page starts the course: on a phone (390 × 844, light and dark) its first screen, before any scroll,
holds the block map and one start button per reading track, each with its reading time, and no download button.

Which tracks there are, their first pages and their lengths come from the course's own table
(``transformer_pages.course``), so a track added later must get its button here too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from walk import HEIGHT, in_views, probe, readings

from transformer_pages import course

pytestmark = [pytest.mark.browser, pytest.mark.build]

DOCS = Path(__file__).resolve().parents[2] / "docs"
PHONE = ((390, "light"), (390, "dark"))

FIRST_SCREEN = probe("home-first-screen", views=PHONE, script="""
() => {
  const article = document.querySelector("article.md-content__inner");
  const box = el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const map = article.querySelector("nav.block-map");
  return {
    scrollY: window.scrollY, fold: window.innerHeight, width: document.documentElement.clientWidth,
    map: map && shown(map) ? box(map) : null,
    mapLinks: map ? map.querySelectorAll("a.block-map__link").length : 0,
    buttons: [...article.querySelectorAll("a.course-start__button")].filter(shown).map(a => ({
      track: a.dataset.track, box: box(a), text: a.textContent.trim(),
      path: new URL(a.href, location.href).pathname,
    })),
    downloads: [...document.querySelectorAll("a[download], .tf-notebook a, a.md-button")]
      .filter(a => shown(a) && !a.classList.contains("course-start__button")
                   && /ダウンロード|download|Colab/i.test(a.textContent + (a.getAttribute("download") || "")))
      .map(a => [a.textContent.trim(), box(a)]),
  };
}
""")


def _url(md: str) -> str:
    return md[: -len(".md")] + "/" if not md.endswith("index.md") else md[: -len("index.md")]


@in_views(*PHONE)
def test_the_first_screen_holds_the_map_and_a_start_button_per_track_and_no_download(page_walk, view):
    seen = dict(readings(page_walk, FIRST_SCREEN, *view))[""]
    fold = HEIGHT[view[0]]
    assert seen["scrollY"] == 0 and seen["fold"] == fold
    assert seen["map"], "no visible block map on the home page"
    _top, bottom, _left, right = seen["map"]
    assert bottom <= fold and right <= seen["width"] + 0.5, f"the block map ends at {bottom:.0f} px of {fold}"
    assert seen["mapLinks"] == len(course.STAGES)
    buttons = seen["buttons"]
    assert [b["track"] for b in buttons] == [t.key for t in course.TRACKS], "one start button per track, in order"
    for button, track in zip(buttons, course.TRACKS, strict=True):
        _top, bottom, left, right = button["box"]
        assert bottom <= fold, f"{track.key}: the start button ends at {bottom:.0f} px, below the first screen"
        assert left >= -0.5 and right <= seen["width"] + 0.5, f"{track.key}: the button leaves the screen sideways"
        assert button["path"].endswith("/" + _url(track.pages[0])), f"{track.key}: starts at {button['path']}"
        assert re.search(r"約 \d+ 分", button["text"]), f"{track.key}: no length on its button: {button['text']!r}"
    above_fold = [text for text, (top, *_) in seen["downloads"] if top < fold]
    assert not above_fold, f"a download button on the first screen: {above_fold}"


@in_views((390, "light"))
def test_each_button_says_the_sum_of_its_pages_reading_times(page_walk, view):
    seen = dict(readings(page_walk, FIRST_SCREEN, *view))[""]
    for button, track in zip(seen["buttons"], course.TRACKS, strict=True):
        total = sum(course.reading_minutes((DOCS / p).read_text(encoding="utf-8")) for p in track.pages)
        assert f"約 {total} 分" in button["text"], f"{track.key}: {button['text']!r}, the pages add up to {total}"
