"""A page enters the nav only when it has content: every nav page exists, has a title and real prose, and
carries no placeholder marker. (Pages outside the nav already fail the strict build: omitted_files: warn.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
PLACEHOLDERS = re.compile(r"\b(TODO|TBD|FIXME|XXX|lorem ipsum)\b|準備中|工事中|執筆中|未定稿|ここに.{0,10}書く", re.I)
MIN_PROSE_CHARS = 400  # a real page says more than a heading and a sentence


def nav_pages() -> list[str]:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))

    def walk(entry):
        if isinstance(entry, str):
            return [entry] if entry.endswith(".md") else []
        if isinstance(entry, list):
            return [p for item in entry for p in walk(item)]
        if isinstance(entry, dict):
            return [p for value in entry.values() for p in walk(value)]
        return []

    return walk(config.get("nav", []))


def prose(markdown: str) -> str:
    """The page without fenced code, math, checked-number expressions and HTML tags."""
    text = re.sub(r"^(```|~~~).*?^\1", "", markdown, flags=re.S | re.M)
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", "", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", "0", text)
    return re.sub(r"<[^>]+>", "", text)


@pytest.mark.parametrize("md_path", nav_pages())
def test_nav_page_has_content(md_path: str):
    path = REPO / "docs" / md_path
    assert path.is_file(), f"mkdocs.yml nav names docs/{md_path}, which does not exist"
    markdown = path.read_text(encoding="utf-8")
    assert re.search(r"^# \S", markdown, re.M), f"docs/{md_path}: no '# title' line"
    for number, line in enumerate(markdown.splitlines(), start=1):
        found = PLACEHOLDERS.search(line)
        assert not found, f"docs/{md_path}:{number}: placeholder {found.group(0)!r} in a page that is in the nav"
    length = len(re.sub(r"\s+", "", prose(markdown)))
    assert length >= MIN_PROSE_CHARS, f"docs/{md_path}: only {length} characters of prose; not ready for the nav"
