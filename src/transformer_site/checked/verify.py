"""Check a token: a number's live value written the literal's way must be the literal; a claim's condition must
be True; a marker's or citation's source must say what it says (``transformer_site.checked.references``)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from transformer_site.execution.isolation import StateBaseline
from transformer_site.page import Page
from transformer_site.page.formats import NotANumber, as_number, full_value, short_value
from transformer_site.page.tokens import CheckedNumber, parse_source

from .evaluation import ExpressionError, evaluate


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


def check(number: CheckedNumber, baseline: StateBaseline | None = None) -> Outcome:
    """Verify one token: a number, a claim, a marker against its source, a citation against §10.

    ``baseline``: the build's record of what executed code may not change (None outside a build)."""
    from transformer_site.checked import references

    where = number.location
    if number.problem:
        return Outcome(number, False, f"{where}: {number.problem}")
    if number.kind in ("cite", "entry"):
        problem = references.citation_problem(number.literal, number.source)
        return Outcome(number, problem is None, f"{where}: {problem}" if problem else None)
    if number.kind == "marker":
        key, locator = parse_source(number.source)
        problem = references.marker_source_problem(number.literal, number.marker, key, locator)
        return Outcome(number, problem is None, f"{where}: {problem}" if problem else None)
    if number.kind == "claim":
        return _check_claim(number, baseline)
    try:
        value = as_number(evaluate(number.expression, where=where, baseline=baseline))
    except ExpressionError as exc:
        return Outcome(number, False, f"{where}: {exc}")
    except NotANumber as exc:
        return Outcome(number, False, f"{where}: {number.expression} is {exc}")
    live = number.fmt.format(value)
    if live == number.literal:
        return Outcome(number, True, value=value, live=live)
    message = f"{where}: quoted {number.literal}, live {live} ({number.expression} = {short_value(value)})"
    return Outcome(number, False, message, value=value, live=live)


def _check_claim(claim: CheckedNumber, baseline: StateBaseline | None) -> Outcome:
    where = claim.location
    try:
        value = evaluate(claim.expression, where=where, claim=True, baseline=baseline)
    except ExpressionError as exc:
        return Outcome(claim, False, f"{where}: {exc}")
    truth = as_truth(value)
    if truth is None:
        return Outcome(claim, False, f"{where}: the condition of the claim {claim.literal!r} is {_not_a_truth(value)}")
    if not truth:
        return Outcome(claim, False, f"{where}: the claim {claim.literal!r} is false: {claim.expression} is False")
    return Outcome(claim, True, value=True)


def as_truth(value: object) -> bool | None:
    """``True``/``False`` for a Python or numpy boolean (a 0-d boolean array too); None for anything else."""
    import numpy as np

    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype == bool:
        return bool(value)
    return None


def _not_a_truth(value: object) -> str:
    import numpy as np

    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}, not True or False (reduce it with .all() or .any())"
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"a {type(value).__name__} ({shown}), not True or False (a claim's condition is a comparison)"


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


def pages(paths: Iterable[str | os.PathLike], root: str | os.PathLike | None = None) -> list[Page]:
    """The Markdown pages under ``paths``, each read once, named relative to ``root`` (default: the working
    directory)."""
    return [Page.read(file, display_path(file, root)) for file in markdown_files(paths)]


def collect(paths: Iterable[str | os.PathLike], root: str | os.PathLike | None = None) -> list[CheckedNumber]:
    """Every checked number and exemption in the Markdown files under ``paths``."""
    return [number for page in pages(paths, root) for number in page.tokens]


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
    if number.kind in ("cite", "entry"):
        return f"{number.location}: [@{number.literal}{', ' + number.source if number.source else ''}] ({number.kind})"
    if number.kind == "marker":
        return f"{number.location}: {number.literal} ({number.marker}{' ' + number.source if number.source else ''})"
    if number.kind == "claim":
        mark = "" if outcome.ok else "  FALSE"
        return f"{number.location}: 「{number.literal}」 if {number.expression}{mark}"
    if outcome.value is None:
        return outcome.message or number.location
    mark = "" if outcome.ok else f"  STALE → {outcome.live}"
    return f"{number.location}: {number.literal} = {number.expression} = {full_value(outcome.value)}{mark}"
