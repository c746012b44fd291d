"""Refresh: rewrite stale literals in place, in their own format; never run by CI.

Only the characters of each stale literal change; every other byte of the page stays as it was, so
an author can review the sentence around each ``page.md:line: old → new`` that is printed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from transformer_site.page import Page

from .verify import check, markdown_files, pages


@dataclass(frozen=True)
class Change:
    location: str
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.location}: {self.old} → {self.new}"


def refresh_text(text: str, path: str) -> tuple[str, list[Change], list[str]]:
    """(new text, changes, errors that refresh cannot fix)."""
    return refresh_page(Page(text, path))


def refresh_page(page: Page) -> tuple[str, list[Change], list[str]]:
    """(the page's new text, changes, errors that refresh cannot fix)."""
    text = page.text
    pieces, changes, errors = [], [], []
    pos = 0
    for number in page.tokens:
        outcome = check(number)
        if outcome.ok:
            continue
        if not outcome.stale:
            errors.append(outcome.message)
            continue
        pieces.append(text[pos : number.literal_start])
        pieces.append(outcome.live)
        pos = number.literal_end
        changes.append(Change(number.location, number.literal, outcome.live))
    pieces.append(text[pos:])
    return "".join(pieces), changes, errors


def refresh_paths(
    paths: Iterable[str | os.PathLike], root: str | os.PathLike | None = None
) -> tuple[list[Change], list[str]]:
    """Rewrite every page under ``paths`` that has stale literals; returns (changes, errors)."""
    all_changes, all_errors = [], []
    for file, page in zip(markdown_files(paths), pages(paths, root), strict=True):
        new_text, changes, errors = refresh_page(page)
        if changes:
            with open(Path(file), "w", encoding="utf-8", newline="") as f:
                f.write(new_text)
        all_changes.extend(changes)
        all_errors.extend(errors)
    return all_changes, all_errors
