"""Lint over docs/: every decimal, e-notation or thousands-separated number is checked or exempted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from transformer_site.checked.lint import lint_text
from transformer_site.checked.verify import display_path, markdown_files, read_page

ROOT = Path(os.environ.get("CHECKED_NUMBERS_ROOT", Path(__file__).resolve().parents[2]))
PAGES = markdown_files([ROOT / "docs"])


@pytest.mark.parametrize("page", PAGES, ids=[display_path(p, ROOT) for p in PAGES])
def test_no_uncited_numbers(page):
    problems = lint_text(read_page(page), display_path(page, ROOT))
    if problems:
        pytest.fail("\n".join(map(str, problems)), pytrace=False)
