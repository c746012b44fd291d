"""Find checked numbers ``{{ literal = expression }}`` and exemptions ``{{ literal unchecked }}`` in Markdown.

The scanner splits a page into regions so that code is never read as prose:

- ``frontmatter``: a YAML block at the top of the file;
- ``code``: fenced blocks (found by ``transformer_site.fences``, the scanner the build hook and the notebook
  export use too: ``` and ~~~, any indentation, inside blockquotes, the exec fence's own attribute line
  included) and inline code spans (a span does not cross a blank line);
- ``comment``: HTML comments;
- ``math``: ``$…$``, ``\\(…\\)``, ``$$…$$``, ``\\[…\\]`` and ``\\begin{env}…\\end{env}``;
- ``tag`` / ``url``: HTML tags, link targets ``](…)``, reference definitions and bare URLs;
- ``checked``: a ``{{ … }}`` token in prose (tokens inside math are found within the math region);
- ``text``: everything else — prose, tables, admonitions, tabs.

Indented (4-space) code blocks are not recognised, because admonitions and tabs indent prose:
write code in fences.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from transformer_site.fences import fence_spans

from .formats import LiteralError, NumberFormat, parse_literal

_FRONT_MATTER = re.compile(r"-{3}[ \t]*\n.*?\n(?:\.{3}|-{3})[ \t]*(?:\n|\Z)", re.DOTALL)
_NO_BLANK = r"(?:(?!\n[ \t]*\n)[\s\S])"  # any character, but never across a blank line

# Order matters where two alternatives start at the same position.
_INLINE = re.compile(
    rf"""
      (?P<comment><!--[\s\S]*?-->)
    | (?P<checked>\{{\{{(?:[^{{}}\n]|\{{[^{{}}\n]*\}})*?\}}\}})
    | (?P<code>(?<!`)(?P<ticks>`+)(?!`){_NO_BLANK}+?(?<!`)(?P=ticks)(?!`))
    | (?P<display>(?<!\\)\$\$[\s\S]+?\$\$
        | (?<!\\)\\\[[\s\S]+?\\\]
        | \\begin\{{(?P<env>[A-Za-z]+\*?)\}}[\s\S]+?\\end\{{(?P=env)\}})
    | (?P<inline>(?<!\\)\\\({_NO_BLANK}+?\\\)
        | (?<![\\$])\$(?![\s$]){_NO_BLANK}*?[^\s\\]\$(?!\$))
    | (?P<url>\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)
        | ^[ \t]*\[(?!\^)[^\]\n]+\]:[ \t]*\S+.*$
        | https?://[^\s<>()]+)
    | (?P<tag></?[A-Za-z][^<>\n]*>)
    """,
    re.VERBOSE | re.MULTILINE,
)
CHECKED_TOKEN = re.compile(r"\{\{(?:[^{}\n]|\{[^{}\n]*\})*?\}\}")
_CHECKED_BODY = re.compile(r"\s*(?P<literal>[^=]*?)\s*=\s*(?P<expression>.*?)\s*")
_UNCHECKED_BODY = re.compile(r"\s*(?P<literal>.*?)\s+unchecked\s*")


@dataclass(frozen=True)
class Region:
    start: int
    end: int
    kind: str


@dataclass(frozen=True)
class CheckedNumber:
    """One ``{{ … }}`` token of a page. ``expression`` is None for an ``unchecked`` exemption."""

    path: str  # as shown in messages: docs/notes/03-attention.md
    line: int  # 1-based line in the source file
    start: int  # offset of "{{" in the scanned text
    end: int  # offset after "}}"
    literal: str
    literal_start: int
    expression: str | None
    in_math: bool
    problem: str | None = None  # a syntax error in the token itself

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def literal_end(self) -> int:
        return self.literal_start + len(self.literal)

    @property
    def fmt(self) -> NumberFormat:
        return parse_literal(self.literal)


def is_candidate(token: str) -> bool:
    """``{{ … }}`` inside math that looks like a checked number or an exemption — a space after the braces, an
    ``=``, or ``unchecked`` — while TeX's ``{{a}}`` and ``\\frac{{1}}{2}`` are left alone. (In prose every
    ``{{ … }}`` is read as a checked number: prose has no other use for the braces.)"""
    body = token[2:-2]
    return body[:1].isspace() or "=" in body or body.strip().endswith("unchecked")


def scan(text: str) -> list[Region]:
    """Regions covering ``text`` in order."""
    regions: list[Region] = []
    pos = 0
    m = _FRONT_MATTER.match(text)
    if m:
        regions.append(Region(0, m.end(), "frontmatter"))
        pos = m.end()
    for start, end in fence_spans(text):
        if start < pos:  # a fence inside the front matter is YAML, already skipped
            continue
        regions.extend(_scan_inline(text, pos, start))
        regions.append(Region(start, end, "code"))
        pos = end
    regions.extend(_scan_inline(text, pos, len(text)))
    return [r for r in regions if r.end > r.start]


def _scan_inline(text: str, start: int, end: int) -> list[Region]:
    regions = []
    pos = start
    for m in _INLINE.finditer(text, start, end):
        kind = next(k for k in ("comment", "checked", "code", "display", "inline", "url", "tag") if m[k] is not None)
        if m.start() > pos:
            regions.append(Region(pos, m.start(), "text"))
        regions.append(Region(m.start(), m.end(), "math" if kind in ("display", "inline") else kind))
        pos = m.end()
    if end > pos:
        regions.append(Region(pos, end, "text"))
    return regions


class LineIndex:
    """Offset → 1-based line number, in O(log n)."""

    def __init__(self, text: str, first_line: int = 1):
        self._starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self._first = first_line

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset) - 1 + self._first


# What is left of the syntax once the complete tokens are taken out: in prose any "{{" or "}}" (prose has no
# other use for them); in math a "{{" that goes on like a checked number — a space right after the braces, or
# an "=" before the next brace (TeX groups as {{a}} or \frac{{1}}{2}, without either).
_STRAY_IN_TEXT = re.compile(r"\{\{|\}\}")
_STRAY_IN_MATH = re.compile(r"\{\{(?=\s|[^{}\n]*=)")


def find_checked_numbers(text: str, path: str, first_line: int = 1) -> list[CheckedNumber]:
    """Every checked number and exemption in ``text`` (code, comments and front matter skipped), and every
    broken attempt at one (an unclosed ``{{``, a lone ``}}``): those carry a ``problem``."""
    lines = LineIndex(text, first_line)
    found = []
    for region in scan(text):
        if region.kind == "checked":
            found.append(_parse_token(text, region.start, region.end, path, lines, in_math=False))
        elif region.kind == "math":
            pos = region.start
            for m in CHECKED_TOKEN.finditer(text, region.start, region.end):
                if is_candidate(m[0]):
                    found.extend(_strays(text, pos, m.start(), path, lines, _STRAY_IN_MATH))
                    found.append(_parse_token(text, m.start(), m.end(), path, lines, in_math=True))
                    pos = m.end()
            found.extend(_strays(text, pos, region.end, path, lines, _STRAY_IN_MATH))
        elif region.kind == "text":
            found.extend(_strays(text, region.start, region.end, path, lines, _STRAY_IN_TEXT))
    return found


def _strays(text: str, start: int, end: int, path: str, lines: LineIndex, pattern: re.Pattern) -> list[CheckedNumber]:
    """Braces of the checked-number syntax between ``start`` and ``end`` that belong to no complete token."""
    strays = []
    for m in pattern.finditer(text, start, end):
        line_end = text.find("\n", m.start())
        context = text[m.start() : line_end if line_end != -1 else len(text)].strip()
        context = context if len(context) <= 60 else context[:57] + "…"
        if m[0] == "{{":
            problem = (
                f"unclosed checked number {context!r}: a {{{{ needs its }}}} on the same line "
                "(write {{ literal = expression }} or {{ literal unchecked }})"
            )
        else:
            problem = (
                f"a }}}} without its {{{{ before it on the same line: …{text[max(start, m.start() - 40) : m.end()]!r} "
                "(write {{ literal = expression }} or {{ literal unchecked }})"
            )
        strays.append(
            CheckedNumber(
                path=path, line=lines.line(m.start()), start=m.start(), end=m.end(), literal=m[0],
                literal_start=m.start(), expression=None, in_math=False, problem=problem,
            )
        )  # fmt: skip
    return strays


def _parse_token(text: str, start: int, end: int, path: str, lines: LineIndex, in_math: bool) -> CheckedNumber:
    body_start = start + 2
    body = text[body_start : end - 2]
    expression = None
    m = _UNCHECKED_BODY.fullmatch(body)
    if m is None:
        m = _CHECKED_BODY.fullmatch(body)
        if m is not None:
            expression = m["expression"]
    problem = None
    if m is None or (expression is not None and not expression):
        literal, literal_start = body.strip(), body_start + len(body) - len(body.lstrip())
        problem = (
            f"malformed checked number {text[start:end]} "
            "(write {{ literal = expression }} or {{ literal unchecked }})"
        )
    else:
        literal, literal_start = m["literal"], body_start + m.start("literal")
        if not literal:
            token = text[start:end]
            problem = f"checked number {token} has no literal before its = (write {{{{ 3.526 = expression }}}})"
        else:
            problem = literal_problem(literal, in_math)
    return CheckedNumber(
        path=path,
        line=lines.line(start),
        start=start,
        end=end,
        literal=literal,
        literal_start=literal_start,
        expression=expression,
        in_math=in_math,
        problem=problem,
    )


def literal_problem(literal: str, in_math: bool) -> str | None:
    """Why ``literal`` cannot be shown where it stands, or None."""
    try:
        fmt = parse_literal(literal)
    except LiteralError as exc:
        return str(exc)
    if in_math:
        if fmt.percent is not None and not fmt.percent.endswith("\\%"):
            return f"{literal!r}: inside math write the percent sign as \\% (a bare % starts a TeX comment)"
        if fmt.kind == "times" and not fmt.braces and re.search(r"\^[+\-−]?\d\d|\^[+\-−]", literal):
            return f"{literal!r}: inside math write the exponent in braces, 10^{{…}}"
        if fmt.group == ",":
            return f"{literal!r}: inside math write thousands separators as {{,}} (109{{,}}482{{,}}240)"
    elif "\\" in literal or "{," in literal or "^{" in literal:
        return (
            f"{literal!r}: TeX forms (\\times, \\%, {{,}}, ^{{…}}) belong inside math; "
            "in prose write 3.1 × 10^6, 15 %, 109,482,240"
        )
    return None
