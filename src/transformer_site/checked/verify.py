"""Check a checked number: evaluate its expression and compare the formatted live value with the literal."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .evaluation import ExpressionError, evaluate
from .formats import NotANumber, as_number, full_value, short_value
from .syntax import CheckedNumber, find_checked_numbers


@dataclass(frozen=True)
class Outcome:
    number: CheckedNumber
    ok: bool
    message: str | None = None  # "docs/x.md:42: quoted +3.526, live +3.524 (expr = 3.523981…)"
    value: int | float | None = None  # the live value (None on error or for an exemption)
    live: str | None = None  # the live value written in the literal's format

    @property
    def stale(self) -> bool:
        """The expression works but the quoted literal no longer matches (refresh can fix it)."""
        return not self.ok and self.live is not None


def check(number: CheckedNumber) -> Outcome:
    """Verify one checked number; an exemption only needs a well-formed literal."""
    where = number.location
    if number.problem:
        return Outcome(number, False, f"{where}: {number.problem}")
    if number.expression is None:
        return Outcome(number, True)
    try:
        value = as_number(evaluate(number.expression, where=where))
    except ExpressionError as exc:
        return Outcome(number, False, f"{where}: {exc}")
    except NotANumber as exc:
        return Outcome(number, False, f"{where}: {number.expression} is {exc}")
    live = number.fmt.format(value)
    if live == number.literal:
        return Outcome(number, True, value=value, live=live)
    message = f"{where}: quoted {number.literal}, live {live} ({number.expression} = {short_value(value)})"
    return Outcome(number, False, message, value=value, live=live)


def display_path(path: str | os.PathLike, root: str | os.PathLike | None = None) -> str:
    """``path`` relative to ``root`` (default: the working directory) with forward slashes."""
    path = Path(path)
    root = Path.cwd() if root is None else Path(root)
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def markdown_files(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Markdown files named or found under the given paths, in a stable order."""
    found: list[Path] = []
    for item in paths:
        item = Path(item)
        found.extend(sorted(item.rglob("*.md")) if item.is_dir() else [item])
    return found


def read_page(path: Path) -> str:
    """The page text exactly as on disk (newline="" keeps CRLF so refresh stays byte-identical)."""
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def collect(paths: Iterable[str | os.PathLike], root: str | os.PathLike | None = None) -> list[CheckedNumber]:
    """Every checked number and exemption in the Markdown files under ``paths``."""
    numbers: list[CheckedNumber] = []
    for page in markdown_files(paths):
        numbers.extend(find_checked_numbers(read_page(page), display_path(page, root)))
    return numbers


def number_ids(numbers: list[CheckedNumber]) -> list[str]:
    """``page.md:line``; a second number on the same line gets ``page.md:line#2``."""
    seen: dict[str, int] = {}
    ids = []
    for number in numbers:
        seen[number.location] = seen.get(number.location, 0) + 1
        count = seen[number.location]
        ids.append(number.location if count == 1 else f"{number.location}#{count}")
    return ids


def describe(outcome: Outcome) -> str:
    """One line for ``list``: location, literal, expression and live value."""
    number = outcome.number
    if number.expression is None:
        return f"{number.location}: {number.literal} (unchecked)"
    if outcome.value is None:
        return outcome.message or number.location
    mark = "" if outcome.ok else f"  STALE → {outcome.live}"
    return f"{number.location}: {number.literal} = {number.expression} = {full_value(outcome.value)}{mark}"
