"""The course: the stage table, tracks and counterparts point at real pages; every content page has its frame
(このページで学ぶこと at the top, まとめ before 確認問題, 次に読む last, with a link); the reading-time rule."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from transformer_pages import course

DOCS = Path(__file__).resolve().parents[2] / "docs"
_FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.S)


def _pages(section: str) -> list[Path]:
    return sorted((DOCS / section).glob("*.md"))


def _headings(path: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]


CONTENT = [p for s in ("notes", "chapter", "scale") for p in _pages(s) if "確認問題" in _headings(p)]


def test_every_page_the_course_names_exists():
    named = [p for t in course.TRACKS for p in t.pages] + [x for s in course.STAGES for x in (s.notes, s.chapter)]
    named += [x for pair in course.COUNTERPARTS for x in pair]
    missing = sorted({p for p in named if not (DOCS / p).is_file()})
    assert not missing, f"the course names pages that do not exist: {missing}"


def test_every_notes_and_chapter_page_declares_a_known_stage():
    for section in course.MAPPED_SECTIONS:
        for page in _pages(section):
            front = _FRONT.match(page.read_text(encoding="utf-8"))
            assert front, f"{page.relative_to(DOCS)} has no front matter with its stage"
            stage = re.search(r"^stage:\s*(\S+)", front.group(1), re.M)
            assert stage and stage.group(1) in course.STAGE_KEYS, f"{page.relative_to(DOCS)}: stage {stage}"


def test_every_notes_page_of_a_stage_faces_its_chapter_page_and_back():
    for s in course.STAGES:
        assert s.chapter in course.counterparts(s.notes) and s.notes in course.counterparts(s.chapter)


@pytest.mark.parametrize("page", CONTENT, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_content_page_has_its_frame(page: Path):
    heads = _headings(page)
    assert heads[0] == "このページで学ぶこと", f"first section is {heads[0]!r}"
    q = heads.index("確認問題")
    assert heads[q - 1] == "まとめ", f"the section before 確認問題 is {heads[q - 1]!r}"
    assert heads[-1] == "次に読む" and heads.index("次に読む") > q
    last = page.read_text(encoding="utf-8").rsplit("## 次に読む", 1)[1]
    assert re.search(r"\]\([^)]+\.md\)", last), "次に読む links to no page"


def test_every_page_of_every_track_ends_with_where_to_go_next():
    for track in course.TRACKS:
        for name in track.pages:
            text = (DOCS / name).read_text(encoding="utf-8")
            assert "## 次に読む" in text or name.startswith("backprop/"), name


def test_reading_time_follows_the_stated_rule():
    prose = "あ" * (3 * course.CHARS_PER_MINUTE + 1)  # just over three minutes of prose
    page = f"---\nstage: block\n---\n# 題\n\n{prose}\n\n$$\nx\n$$\n\n```python exec=\"on\"\nprint(1)\n```\n"
    page += "\n!!! exercise number\n    answer: 1\n\n    問題文はいくら長くても字数に入らない\n"
    r = course.reading(page)
    assert (r.figures, r.formulas, r.questions) == (1, 1, 1)
    assert r.chars == len(prose) + 1  # the title's one character
    expected = r.chars / course.CHARS_PER_MINUTE + course.MINUTES_PER_FIGURE + course.MINUTES_PER_FORMULA
    assert r.minutes == math.ceil(expected + course.MINUTES_PER_QUESTION)


def test_a_checked_number_counts_as_its_literal():
    shown = course.reading("値は {{ +3.526 = s1.scores[0, 2, 3] }} です")
    assert shown.chars == len("値は+3.526です")
