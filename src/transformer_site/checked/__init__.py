"""Checked numbers: ``{{ +3.526 = s1.scores[0, 2, 3] }}`` in a page is verified by pytest and by the build.

Modules: ``syntax`` (finding tokens, regions of a page), ``formats`` (literal ↔ value), ``evaluation``
(the restricted expression evaluator over ``transformer_site.citable.NAMES``), ``verify`` (checking,
collecting), ``render`` (the MkDocs hook's part), ``lint`` and ``refresh``. CLI: ``python -m
transformer_site.checked {check,list,lint,refresh} [paths]``.
"""

from .formats import LiteralError, NumberFormat, parse_literal
from .lint import lint_paths, lint_text
from .render import render_checked_numbers
from .syntax import CheckedNumber, find_checked_numbers
from .verify import Outcome, check, collect, number_ids

__all__ = [
    "CheckedNumber", "LiteralError", "NumberFormat", "Outcome", "check", "collect", "find_checked_numbers",
    "lint_paths", "lint_text", "number_ids", "parse_literal", "render_checked_numbers",
]  # fmt: skip
