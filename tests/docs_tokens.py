"""The checked numbers, claims, markers and citations of a project's pages, read once per process: two test files
parametrize over them, and every worker collects both."""

from __future__ import annotations

import functools
from pathlib import Path

from transformer_site.checked import CheckedNumber, collect


@functools.cache
def _tokens(root: Path) -> tuple[CheckedNumber, ...]:
    return tuple(collect([root / "docs"], root=root))


def docs_tokens(root: Path) -> list[CheckedNumber]:
    """Every token under ``root``/docs, in page and line order (a new list: a caller may filter it)."""
    return list(_tokens(root.resolve()))
