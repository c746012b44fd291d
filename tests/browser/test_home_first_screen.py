"""The home page starts the course: on a phone (390 × 844, light and dark) its first screen, before any scroll,
holds the block map and one start button per reading track, each with its reading time, and no download button.

Which tracks there are, their first pages and their lengths come from the course's own table
(``transformer_pages.course``), so a track added later must get its button here too.
"""

from __future__ import annotations

import re

import pytest
from walk import HEIGHT, in_views, probe, readings

from transformer_pages import course

pytestmark = [pytest.mark.browser, pytest.mark.build]

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
    pathTotals: Object.fromEntries([...article.querySelectorAll(".course-path__track")]
      .map(t => [t.dataset.track, (t.querySelector("h3 small") || {}).textContent || ""])),
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
def test_each_button_says_its_tracks_total_as_the_reading_path_adds_it(page_walk, view):
    seen = dict(readings(page_walk, FIRST_SCREEN, *view))[""]
    for button, track in zip(seen["buttons"], course.TRACKS, strict=True):
        total = re.search(r"約 (\d+) 分", seen["pathTotals"].get(track.key, ""))
        assert total, f"{track.key}: no total in the reading path below"
        assert f"約 {total.group(1)} 分" in button["text"], f"{track.key}: {button['text']!r}, the path says {total[0]}"
