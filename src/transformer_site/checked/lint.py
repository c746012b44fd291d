"""Lint: every number a reader sees is checked, or carries a marker that says why it is exempt.

A number a reader sees: a decimal, an e-notation or thousands-separated number, an integer of two or more digits
(a unit may follow: ``110M``, ``64Gi``), and the irrational constants of ``src`` written as formulas
(``SRC_CONSTANT_FORMS``: √(2/π)). It must stand in a checked number ``{{ 512 = configs.TRANSFORMER_BASE.d_model }}``,
a checked claim's condition, or a marker ``{{ 2017 year @vaswani2017 }}`` (kinds: ``syntax.MARKER_KINDS``).

Read: prose, tables, admonitions, tabs, math, and the words of checked claims. Skipped: fenced code (with the exec
fence's attribute line), inline code, HTML comments and tags, link targets and bare URLs, front matter,
citations ``[@key, §3.5]`` (checked against §10 instead) and the inside of number tokens.
Not numbers: single digits, digits glued to a name (``d12``, ``h13``, ``W1``, ``float64``, ``GPT-2``), version
numbers (``1.6.1``) and section numbers after ``§`` — which must name a section of the notes (§0 … §10; a source's
section goes in a citation), and a link ``[§3](…)`` must lead to that section's page.
A ``$`` left in prose (math that arithmatex will not recognise, e.g. ``$ x$``) is flagged too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from . import code_names
from .syntax import CHECKED_TOKEN, MARKER_KINDS, find_checked_numbers, is_candidate, scan
from .syntax import LineIndex as _LineIndex
from .verify import check, display_path, markdown_files, read_page

UNCITED_NUMBER = re.compile(
    r"""
    (?<![A-Za-z0-9_.§\-−+])        # not inside a name (d12, GPT-2), a longer number or a section number
    [+\-−]?
    (?:
        \d+(?:\.\d+)?[eE][+\-−]?\d+(?![A-Za-z0-9_])       # 3.1e6, 1e-9
      | \d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?           # 109,482,240
      | \d+\.\d+(?:\s*(?:×|\\times)\s*10\^\{?[+\-−]?\d+\}?)?  # 0.5, 3.1 × 10^6
      | \d{2,}                                         # 512, 2017, 110 (of 110M)
    )
    (?![0-9]|\.\d|(?:,|\{,\})\d)      # not followed by more of a number (1.6.1)
    """,
    re.VERBOSE,
)

SRC_CONSTANT_FORMS = re.compile(
    r"\\sqrt\{\s*2\s*/\s*\\pi\s*\}|\\sqrt\{\s*\\frac\{2\}\{\\pi\}\s*\}|√\(2/π\)|√\(2/\\pi\)"
)  # √(2/π) of GELU's tanh form (ops.GELU_SQRT_2_OVER_PI)
_SECTION = re.compile(r"(?<![A-Za-z0-9])§(?P<number>\d+(?:\.\d+)*)")
_SECTION_LINK = re.compile(r"\[§(?P<number>\d+)[^\]\n]*\]\((?P<target>[^)\s]+)")
NOTES_SECTIONS = range(0, 11)  # §0 … §10


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
    """Uncited numbers, malformed tokens and wrong section numbers in one page."""
    lines = _LineIndex(text)
    tokens = find_checked_numbers(text, path)
    problems = [LintProblem(n.path, n.line, n.literal, n.problem) for n in tokens if n.problem]
    # Claims, markers and citations are cheap to check (data of §10, one boolean): the lint checks them too, so a
    # claim that is not a truth value, a marker its source contradicts or an unknown reference fails here as well.
    for token in tokens:
        if not token.problem and token.kind != "number":
            outcome = check(token)
            if not outcome.ok:
                message = outcome.message.removeprefix(f"{token.location}: ")
                problems.append(LintProblem(token.path, token.line, token.literal, message))
    for claim in (n for n in tokens if n.kind == "claim" and not n.problem):
        problems += _uncited(claim.literal, lambda offset, c=claim: c.line, path, constants=False)
    for region in scan(text):
        if region.kind not in ("text", "math"):
            continue
        chunk = text[region.start : region.end]
        if region.kind == "math":  # tokens inside math are blanked out, keeping offsets
            chunk = CHECKED_TOKEN.sub(lambda m: " " * len(m[0]) if is_candidate(m[0]) else m[0], chunk)
        else:
            for m in _STRAY_DOLLAR.finditer(chunk):
                problems.append(LintProblem(path, lines.line(region.start + m.start()), "$", _STRAY_DOLLAR_MESSAGE))
            problems += _sections(chunk, region.start, lines, path)
        problems += _uncited(chunk, lambda offset, r=region: lines.line(r.start + offset), path)
    problems += _section_links(text, lines, path)
    if code_names.ENFORCED:  # a lesson page names no module, file, function, test or tool (code_names)
        problems += [LintProblem(c.path, c.line, c.name, c.message) for c in code_names.in_page(text, path)]
    return sorted(problems, key=lambda p: p.line)


def _uncited(chunk: str, line_of, path: str, constants: bool = True) -> list[LintProblem]:
    """Numbers (and, unless ``constants`` is False — a claim's words are checked by its condition — src's
    constant forms) in ``chunk`` that no token covers."""
    problems = []
    for m in UNCITED_NUMBER.finditer(chunk):
        number = m[0]
        before = chunk[: m.start()].rstrip()[-1:]
        if number[0] in "+-−" and ((before.isascii() and before.isalnum()) or before in ")]}"):
            number = number[1:]  # "x - 12": after an operand the minus is an operator, not the number's sign
        message = (
            f"uncited number {number}: write {{{{ {number} = expression }}}} (give the value a name in the page's "
            f"module if src has none), or a marker {{{{ {number} KIND … }}}} with KIND one of {', '.join(MARKER_KINDS)}"
        )
        problems.append(LintProblem(path, line_of(m.start()), number, message))
    for m in SRC_CONSTANT_FORMS.finditer(chunk) if constants else ():
        message = (
            f"the constant {m[0]} of src stands unchecked: write it as a claim that src uses it, "
            f"{{{{ {m[0]} if ops.GELU_SQRT_2_OVER_PI == sqrt(2 / pi) }}}}"
        )
        problems.append(LintProblem(path, line_of(m.start()), m[0], message))
    return problems


def _sections(chunk: str, start: int, lines: _LineIndex, path: str) -> list[LintProblem]:
    problems = []
    for m in _SECTION.finditer(chunk):
        number = m["number"]
        if "." in number or int(number) not in NOTES_SECTIONS:
            problems.append(
                LintProblem(
                    path, lines.line(start + m.start()), m[0],
                    f"{m[0]} is no section of these notes (§0 … §10); a source's section goes in its citation: "
                    f"[@key, {m[0]}]",
                )
            )  # fmt: skip
    return problems


def _section_links(text: str, lines: _LineIndex, path: str) -> list[LintProblem]:
    """``[§3 …](03-attention.md)``: the page linked is that section's."""
    code = [(r.start, r.end) for r in scan(text) if r.kind in ("code", "comment")]
    problems = []
    for m in _SECTION_LINK.finditer(text):
        if any(a <= m.start() < b for a, b in code):
            continue
        name = m["target"].split("#")[0].rsplit("/", 1)[-1]
        if not name.startswith(f"{int(m['number']):02d}-"):
            problems.append(
                LintProblem(
                    path, lines.line(m.start()), m[0],
                    f"the link {m[0]}) leads to {name or 'this page'}, not to §{m['number']}'s page",
                )
            )  # fmt: skip
    return problems


def summary(paths: Iterable[str | os.PathLike], root: str | os.PathLike | None = None) -> str:
    """What the lint read: checked numbers and claims, citations, and markers by kind."""
    from collections import Counter

    kinds: Counter = Counter()
    markers: Counter = Counter()
    for page in markdown_files(paths):
        for token in find_checked_numbers(read_page(page), display_path(page, root)):
            if token.problem:
                continue
            kinds[token.kind] += 1
            if token.kind == "marker":
                markers[token.marker] += 1
    shown = ", ".join(f"{kind} {markers[kind]}" for kind in MARKER_KINDS)
    return (
        f"{kinds['number']} checked number(s), {kinds['claim']} checked claim(s), {kinds['cite']} citation(s) of "
        f"{kinds['entry']} entries; markers: {sum(markers.values())} ({shown})"
    )


def lint_paths(paths: Iterable[str | os.PathLike], root: str | os.PathLike | None = None) -> list[LintProblem]:
    problems: list[LintProblem] = []
    for page in markdown_files(paths):
        problems.extend(lint_text(read_page(page), display_path(page, root)))
    return problems
