"""The doc-value collector: one test per token in docs/**/*.md, id ``page.md:line``.

Checked numbers (the live value written the literal's way is the literal), checked claims (the condition is True),
markers (their source says so) and citations (the entry and the place exist on §10). No site build: expressions are
evaluated against ``transformer_site.citable.NAMES``. ``CHECKED_NUMBERS_ROOT`` points the collector at another
project (tests/site uses it to prove a wrong literal fails here).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from docs_tokens import docs_tokens

from transformer_site.checked import check, number_ids

ROOT = Path(os.environ.get("CHECKED_NUMBERS_ROOT", Path(__file__).resolve().parents[2]))
NUMBERS = docs_tokens(ROOT)


@pytest.mark.parametrize("number", NUMBERS, ids=number_ids(NUMBERS))
def test_checked_number(number):
    outcome = check(number)
    if not outcome.ok:
        pytest.fail(outcome.message, pytrace=False)


def test_collector_found_checked_numbers():
    """An empty collection would pass silently; the site quotes numbers, so finding none is a bug."""
    assert any(n.expression is not None for n in NUMBERS), f"no checked numbers found under {ROOT / 'docs'}"
