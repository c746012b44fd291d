"""No lesson page's executed block prints a code name (captions, alt texts, table cells, figure text): the part of
the code-name rule that needs the blocks run (``transformer_site.checked.code_names``; the pages' own text and
tooltip labels are read by the lint, tests/docs/test_lint.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from transformer_site.checked import code_names
from transformer_site.checked.verify import display_path, markdown_files
from transformer_site.page import Page

ROOT = Path(__file__).resolve().parents[2]
PAGES = [p for p in markdown_files([ROOT / "docs"]) if code_names.is_lesson_page(display_path(p, ROOT))]


@pytest.mark.slow  # executes every lesson's blocks
@pytest.mark.skipif(not code_names.ENFORCED, reason="reported only: lint --code-names --figures lists them")
@pytest.mark.parametrize("page", PAGES, ids=[display_path(p, ROOT) for p in PAGES])
def test_lesson_blocks_print_no_code_name(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    found = code_names.in_blocks(Page.read(page, display_path(page, ROOT)))
    if found:
        pytest.fail("\n".join(map(str, found)), pytrace=False)
