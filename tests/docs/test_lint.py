"""Lint over docs/: every decimal, e-notation or thousands-separated number is checked or exempted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from transformer_site.checked.lint import lint_page
from transformer_site.checked.verify import pages

ROOT = Path(os.environ.get("CHECKED_NUMBERS_ROOT", Path(__file__).resolve().parents[2]))
PAGES = pages([ROOT / "docs"], ROOT)


@pytest.mark.parametrize("page", PAGES, ids=[p.path for p in PAGES])
def test_no_uncited_numbers(page):
    problems = lint_page(page)
    if problems:
        pytest.fail("\n".join(map(str, problems)), pytrace=False)
