"""Doc values for 確認問題: one test per question in docs/**/*.md, id ``page.md:line``, without a build.

Each question is read with its lines and its answer evaluated in the citable names: a number question's answer
must be a number (its literal against the value is the checked number's own test in test_checked_numbers.py),
a choice or stage question's right option — the key the page marks — must be what ``src`` computes. So a change
in ``src`` that changes a question's answer fails here (or there), naming the page and the line.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from transformer_site.checked.verify import pages
from transformer_site.exercises.render import check_answer

ROOT = Path(os.environ.get("CHECKED_NUMBERS_ROOT", Path(__file__).resolve().parents[2]))


def _questions():
    found = []
    for page in pages([ROOT / "docs"], ROOT):
        if page.exercise_error is not None:
            raise page.exercise_error
        found += page.exercises
    return found


QUESTIONS = _questions()


@pytest.mark.parametrize("exercise", QUESTIONS, ids=[e.location for e in QUESTIONS])
def test_question_answer(exercise):
    problem = check_answer(exercise)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


def test_questions_were_found():
    """An empty collection would pass silently; every content page has questions."""
    assert len(QUESTIONS) >= 30, f"only {len(QUESTIONS)} questions under {ROOT / 'docs'}"
