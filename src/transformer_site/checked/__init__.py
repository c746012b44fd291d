"""Checked numbers: ``{{ +3.526 = s1.scores[0, 2, 3] }}`` in a page is verified by pytest and by the build.

The tokens and their literals' forms are the page model's (``transformer_site.page.tokens``, ``page.formats``).
Modules: ``evaluation`` (the restricted expression evaluator over ``transformer_site.citable.NAMES``), ``verify``
(checking, collecting), ``render`` (the build's part), ``lint`` (with ``code_names``) and ``refresh``. CLI:
``python -m transformer_site.checked {check,list,lint,refresh} [paths]``.
"""

from transformer_site.page.formats import LiteralError, NumberFormat, parse_literal
from transformer_site.page.tokens import CheckedNumber, find_checked_numbers

from .lint import lint_paths, lint_text
from .render import render_checked_numbers
from .verify import Outcome, check, collect, number_ids

__all__ = [
    "CheckedNumber", "LiteralError", "NumberFormat", "Outcome", "check", "collect", "find_checked_numbers",
    "lint_paths", "lint_text", "number_ids", "parse_literal", "render_checked_numbers",
]  # fmt: skip
