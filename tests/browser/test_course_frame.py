"""The course frame as a reader sees it, on every content page in every view (1280 and 390 px, light and dark):
the block map is shown under the title, fits the column and marks one stage; 「このページで学ぶこと」 opens the
page and 「まとめ」 closes it, both visible; a notes page links to its chapter page and back.

Which pages must have what comes from the course's own tables (``transformer_pages.course``) and the Markdown
sources, not from the built pages, so a page that lost its frame still fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from walk import VIEWS, View, in_views, probe

from transformer_pages import course

pytestmark = [pytest.mark.browser, pytest.mark.build]

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _url(md: str) -> str:
    return md[: -len(".md")] + "/"


def _framed() -> set[str]:
    pages = [p for s in ("notes", "chapter", "scale") for p in sorted((DOCS / s).glob("*.md"))]
    questions = re.compile(r"^## 確認問題", re.M)
    return {_url(p.relative_to(DOCS).as_posix()) for p in pages if questions.search(p.read_text("utf-8"))}


FRAMED = _framed()
MAPPED = {_url(p.relative_to(DOCS).as_posix()) for s in course.MAPPED_SECTIONS for p in (DOCS / s).glob("*.md")}

FRAME = probe("course-frame", """
() => {
  const article = document.querySelector("article.md-content__inner");
  const column = article.getBoundingClientRect();
  const shown = el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const map = article.querySelector("nav.block-map");
  const mapBox = map ? map.getBoundingClientRect() : null;
  const h2 = [...article.querySelectorAll("h2")];
  const titled = text => h2.find(h => h.textContent.replace("¶", "").trim() === text);
  return {
    map: !!map, whole: !!map && map.classList.contains("block-map--whole"), mapShown: shown(map),
    mapWidth: mapBox ? mapBox.width : 0, column: column.width,
    mapLeft: mapBox ? mapBox.left - column.left : 0,
    current: map ? map.querySelectorAll("[aria-current]").length : 0,
    links: map ? [...map.querySelectorAll("a")].filter(a => a.getAttribute("href")).length : 0,
    first: h2.length ? h2[0].textContent.replace("¶", "").trim() : "",
    learn: shown(titled("このページで学ぶこと")), summary: shown(titled("まとめ")),
    hrefs: [...article.querySelectorAll("a[href]")].map(a => new URL(a.href, location.href).pathname),
  };
}
""")


def _problems(view, seen: dict) -> list[str]:
    problems = []
    if view.path in MAPPED:
        if not (seen["map"] and seen["mapShown"]):
            problems.append("no visible block map")
        elif seen["mapWidth"] > seen["column"] + 0.5 or seen["mapLeft"] < -0.5:
            problems.append(f"block map {seen['mapWidth']:.0f} px wide in a {seen['column']:.0f} px column")
        elif seen["current"] != (0 if seen["whole"] else 1) or seen["links"] < len(course.STAGES) - 1:
            problems.append(f"block map marks {seen['current']} stages and has {seen['links']} links")
    if view.path in FRAMED:
        if seen["first"] != "このページで学ぶこと" or not seen["learn"]:
            problems.append(f"the page opens with {seen['first']!r}, not a visible 「このページで学ぶこと」")
        if not seen["summary"]:
            problems.append("no visible 「まとめ」")
    return problems


@in_views(*VIEWS)
def test_every_content_page_shows_its_frame_and_block_map(page_walk, view):
    assert FRAMED and MAPPED, "no content pages found in docs/"
    seen_at = {View(path, *view): seen[FRAME] for path, seen in page_walk.view(*view).items()}
    walked = {v.path for v in seen_at}
    assert FRAMED <= walked and MAPPED <= walked, f"pages not built: {sorted((FRAMED | MAPPED) - walked)}"
    wrong = [f"{v}: {p}" for v, seen in seen_at.items() for p in _problems(v, seen)]
    assert not wrong, f"{len(wrong)} problems, e.g.\n" + "\n".join(wrong[:12])


@in_views((1280, "light"))  # links do not change with the view
def test_every_notes_page_links_to_its_chapter_page_and_back(page_walk, view):
    wrong = []
    for path, seen in page_walk.view(*view).items():
        md = path[:-1] + ".md" if path else ""
        for other in course.counterparts(md):
            if not any(href.endswith("/" + _url(other)) for href in seen[FRAME]["hrefs"]):
                wrong.append(f"/{path} has no link to {other}")
    assert not wrong, "\n".join(wrong)
