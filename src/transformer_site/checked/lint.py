"""Lint: every decimal, e-notation or thousands-separated number a reader sees must be checked or exempted.

Read: prose, tables, admonitions, tabs and math. Skipped: fenced code (with the exec fence's attribute
line), inline code, HTML comments and tags, link targets and bare URLs, front matter, and the inside
of ``{{ … }}`` tokens. A ``{{ 0.98 unchecked }}`` marker exempts exactly the one number it wraps.
A ``$`` left in prose (math that arithmatex will not recognise, e.g. ``$ x$``) is flagged too.
Not flagged: plain integers, version numbers (``1.6.1``) and section numbers after ``§`` (``§3.2``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .syntax import CHECKED_TOKEN, find_checked_numbers, is_candidate, scan
from .syntax import LineIndex as _LineIndex
from .verify import display_path, markdown_files, read_page

UNCITED_NUMBER = re.compile(
    r"""
    (?<![A-Za-z0-9_.§])            # not inside an identifier, a longer number or a section number
    [+\-−]?
    (?:
        \d+(?:\.\d+)?[eE][+\-−]?\d+                     # 3.1e6, 1e-9
      | \d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?          # 109,482,240
      | \d+\.\d+(?:\s*(?:×|\\times)\s*10\^\{?[+\-−]?\d+\}?)?  # 0.5, 3.1 × 10^6
    )
    (?![A-Za-z0-9_]|\.\d)          # not followed by letters or another ".digit" (1.6.1)
    """,
    re.VERBOSE,
)


_STRAY_DOLLAR = re.compile(r"(?<!\\)\$")
_STRAY_DOLLAR_MESSAGE = "a $ that opens no math: arithmatex needs no space after the opening $ and before the closing $"


@dataclass(frozen=True)
class LintProblem:
    path: str
    line: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def lint_text(text: str, path: str) -> list[LintProblem]:
    """Uncited numbers and malformed ``{{ … }}`` tokens in one page."""
    lines = _LineIndex(text)
    problems = [
        LintProblem(n.path, n.line, n.literal, n.problem) for n in find_checked_numbers(text, path) if n.problem
    ]
    for region in scan(text):
        if region.kind not in ("text", "math"):
            continue
        chunk = text[region.start : region.end]
        if region.kind == "math":  # checked tokens inside math are blanked out, keeping offsets
            chunk = CHECKED_TOKEN.sub(lambda m: " " * len(m[0]) if is_candidate(m[0]) else m[0], chunk)
        if region.kind == "text":
            for m in _STRAY_DOLLAR.finditer(chunk):
                problems.append(LintProblem(path, lines.line(region.start + m.start()), "$", _STRAY_DOLLAR_MESSAGE))
        for m in UNCITED_NUMBER.finditer(chunk):
            number = m[0]
            message = (
                f"uncited number {number}: write {{{{ {number} = expression }}}} "
                f"(or {{{{ {number} unchecked }}}} for a constant that nothing in src produces)"
            )
            problems.append(LintProblem(path, lines.line(region.start + m.start()), number, message))
    return sorted(problems, key=lambda p: p.line)


def lint_paths(paths: Iterable[str | os.PathLike], root: str | os.PathLike | None = None) -> list[LintProblem]:
    problems: list[LintProblem] = []
    for page in markdown_files(paths):
        problems.extend(lint_text(read_page(page), display_path(page, root)))
    return problems
