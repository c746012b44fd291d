"""The tokens of a page: checked numbers, checked claims, exemption markers and citations (``Page.tokens``).

- a checked number ``{{ +3.526 = s1.scores[0, 2, 3] }}``: the literal the reader sees, the expression computing it;
- a checked claim ``{{ どの文でも if notes.attention.n_relations_won() == 16 }}``: the words the reader sees, and a
  condition that must be True;
- an exemption marker ``{{ 2017 year @vaswani2017 }}``: a number that nothing in ``src`` computes, with its kind
  (``MARKER_KINDS``) and, for the kinds that need one, its source;
- a citation ``[@vaswani2017, §3.5]`` of a numbered entry of §10, and on §10 the entry line ``[@vaswani2017]:``.

The scanner splits a page into regions so that code is never read as prose:

- ``frontmatter``: a YAML block at the top of the file;
- ``code``: fenced blocks (the page's fences, ``transformer_site.page.fences``: ``` and ~~~, any indentation,
  inside blockquotes, the exec fence's own attribute line included) and inline code spans (a span does not
  cross a blank line);
- ``comment``: HTML comments;
- ``math``: ``$…$``, ``\\(…\\)``, ``$$…$$``, ``\\[…\\]`` and ``\\begin{env}…\\end{env}``;
- ``tag`` / ``url``: HTML tags, link targets ``](…)``, reference definitions and bare URLs;
- ``checked``: a ``{{ … }}`` token in prose (tokens inside math are found within the math region);
- ``cite``: a citation ``[@key]`` / ``[@key, locator]``, or an entry line ``[@key]:`` of the references page;
- ``text``: everything else — prose, tables, admonitions, tabs.

Indented (4-space) code blocks are not recognised, because admonitions and tabs indent prose:
write code in fences.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from transformer_site.page.fences import fence_spans
from transformer_site.page.formats import LiteralError, NumberFormat, parse_literal

_FRONT_MATTER = re.compile(r"-{3}[ \t]*\n.*?\n(?:\.{3}|-{3})[ \t]*(?:\n|\Z)", re.DOTALL)
_NO_BLANK = r"(?:(?!\n[ \t]*\n)[\s\S])"  # any character, but never across a blank line

# Order matters where two alternatives start at the same position.
_INLINE = re.compile(
    rf"""
      (?P<comment><!--[\s\S]*?-->)
    | (?P<checked>\{{\{{(?:[^{{}}\n]|\{{[^{{}}\n]*\}})*?\}}\}})
    | (?P<cite>^[ \t]*\[@[^\]\n]*\]:[ \t]*$|\[@[^\]\n]*\])
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
_CLAIM_BODY = re.compile(r"\s*(?P<literal>\S.*?)\s+if\s+(?P<expression>.*?)\s*")
MARKER_KINDS = {
    "year": "a year, checked against the cited entry of §10: {{ 2017 year @vaswani2017 }}",
    "page": "a page of a source, one the cited entry of §10 lists: {{ 33 page @key, p. 33 }}",
    "section": "a section number of these notes (§0 … §10) or an example sentence number: {{ 10 section }}",
    "index": "an index in notation that no value of src names: $x_{ {{ 12 index }} }$",
    "reported": "a figure a source reports, recorded by the entry of §10: {{ 65 reported @vaswani2017, Table 3 }}",
}
SOURCED_MARKERS = ("year", "page", "reported")  # these need "@key" (and page/reported a locator)
_MARKER_BODY = re.compile(
    rf"\s*(?P<literal>\S.*?)\s+(?P<marker>{'|'.join(MARKER_KINDS)}|unchecked)\b\s*(?P<source>.*?)\s*"
)
CITATION = re.compile(r"\[@(?P<key>[a-z][a-z0-9]*)(?:,[ \t]*(?P<locator>[^\]\n]*?))?[ \t]*\](?P<entry>:)?")


@dataclass(frozen=True)
class Region:
    start: int
    end: int
    kind: str


@dataclass(frozen=True)
class CheckedNumber:
    """One token of a page (``kind``): a checked ``number``, a checked ``claim`` (``literal`` is the claim's words,
    ``expression`` its condition), an exemption ``marker`` (``expression`` is None; ``marker`` is its kind and
    ``source`` what follows it), a citation ``cite`` or a references-page ``entry`` (``literal`` is the key,
    ``source`` the locator)."""

    path: str  # as shown in messages: docs/notes/03-attention.md
    line: int  # 1-based line in the source file
    start: int  # offset of "{{" in the scanned text
    end: int  # offset after "}}"
    literal: str
    literal_start: int
    expression: str | None
    in_math: bool
    problem: str | None = None  # a syntax error in the token itself
    kind: str = "number"  # "number", "claim", "marker", "cite" or "entry"
    marker: str | None = None  # the marker's kind: "year", "page", "section", "index", "reported"
    source: str | None = None  # a marker's source ("@vaswani2017, Table 3"), a citation's locator ("§3.5")

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def literal_end(self) -> int:
        return self.literal_start + len(self.literal)

    @property
    def fmt(self) -> NumberFormat:
        return parse_literal(self.literal)

    @property
    def checks_something(self) -> bool:
        """A number or a claim (an expression is evaluated), a sourced marker or a citation (checked against §10)."""
        return self.kind in ("number", "claim", "cite", "entry") or self.marker in (*SOURCED_MARKERS, "section")


def is_candidate(token: str) -> bool:
    """``{{ … }}`` inside math that looks like a token — a space after the braces, an ``=``, or a marker's
    kind — while TeX's ``{{a}}`` and ``\\frac{{1}}{2}`` are left alone. (In prose every ``{{ … }}`` is read as a
    token: prose has no other use for the braces.)"""
    body = token[2:-2]
    return body[:1].isspace() or "=" in body or _MARKER_BODY.fullmatch(body) is not None


def scan(text: str, fences: list[tuple[int, int]] | None = None) -> list[Region]:
    """Regions covering ``text`` in order. ``fences``: the (start, end) offsets of its fenced blocks, if known."""
    regions: list[Region] = []
    pos = 0
    m = _FRONT_MATTER.match(text)
    if m:
        regions.append(Region(0, m.end(), "frontmatter"))
        pos = m.end()
    for start, end in fence_spans(text) if fences is None else fences:
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
        kinds = ("comment", "checked", "cite", "code", "display", "inline", "url", "tag")
        kind = next(k for k in kinds if m[k] is not None)
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


def find_checked_numbers(
    text: str, path: str, first_line: int = 1, regions: list[Region] | None = None
) -> list[CheckedNumber]:
    """Every token in ``text`` (code, comments and front matter skipped): checked numbers and claims, markers,
    citations, and every broken attempt at one (an unclosed ``{{``, a lone ``}}``): those carry a ``problem``.
    ``regions``: ``scan(text)``, if known."""
    lines = LineIndex(text, first_line)
    found = []
    for region in scan(text) if regions is None else regions:
        if region.kind == "checked":
            found.append(_parse_token(text, region.start, region.end, path, lines, in_math=False))
        elif region.kind == "cite":
            found.append(_parse_citation(text, region.start, region.end, path, lines))
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
                "(write {{ literal = expression }}, {{ words if condition }} or {{ literal KIND … }})"
            )
        else:
            problem = (
                f"a }}}} without its {{{{ before it on the same line: …{text[max(start, m.start() - 40) : m.end()]!r} "
                "(write {{ literal = expression }}, {{ words if condition }} or {{ literal KIND … }})"
            )
        strays.append(
            CheckedNumber(
                path=path, line=lines.line(m.start()), start=m.start(), end=m.end(), literal=m[0],
                literal_start=m.start(), expression=None, in_math=False, problem=problem,
            )
        )  # fmt: skip
    return strays


def _parse_citation(text: str, start: int, end: int, path: str, lines: LineIndex) -> CheckedNumber:
    token = text[start:end]
    stripped = token.strip()
    m = CITATION.fullmatch(stripped)
    problem = None
    if m is None:
        problem = (
            f"malformed citation {stripped!r}: write [@key] or [@key, §3.5] with a key of §10 "
            "(lower-case letters and digits, e.g. vaswani2017)"
        )
        key, locator, kind = stripped, None, "cite"
    else:
        key, locator, kind = m["key"], m["locator"] or None, "entry" if m["entry"] else "cite"
        if kind == "entry" and locator:
            problem = f"an entry line of §10 names only its key: [@{key}]: (not {stripped!r})"
    offset = start + token.index("[")
    return CheckedNumber(
        path=path, line=lines.line(offset), start=start, end=end, literal=key, literal_start=offset + 2,
        expression=None, in_math=False, problem=problem, kind=kind, source=locator,
    )  # fmt: skip


def _parse_token(text: str, start: int, end: int, path: str, lines: LineIndex, in_math: bool) -> CheckedNumber:
    body_start = start + 2
    body = text[body_start : end - 2]
    token = text[start:end]
    fields = dict(path=path, line=lines.line(start), start=start, end=end, in_math=in_math)

    m = _CLAIM_BODY.fullmatch(body)
    if m is not None:
        literal, literal_start = m["literal"], body_start + m.start("literal")
        problem = None
        if not m["expression"]:
            problem = f"checked claim {token} has no condition after its 'if' (write {{{{ words if condition }}}})"
        elif _CHECKED_BODY.fullmatch(m["literal"]) and _is_number(_CHECKED_BODY.fullmatch(m["literal"])["literal"]):
            problem = f"{token}: a checked number cannot hold an 'if' (write {{{{ 3.526 = expression }}}})"
        return CheckedNumber(
            **fields, literal=literal, literal_start=literal_start, expression=m["expression"], problem=problem,
            kind="claim",
        )  # fmt: skip

    m = _MARKER_BODY.fullmatch(body)
    if m is not None:
        literal, literal_start = m["literal"], body_start + m.start("literal")
        return CheckedNumber(
            **fields, literal=literal, literal_start=literal_start, expression=None, kind="marker",
            marker=m["marker"], source=m["source"] or None,
            problem=marker_problem(literal, m["marker"], m["source"] or None, in_math, token),
        )  # fmt: skip

    expression = None
    m = _CHECKED_BODY.fullmatch(body)
    if m is not None:
        expression = m["expression"]
    problem = None
    if m is None or not expression:
        literal, literal_start = body.strip(), body_start + len(body) - len(body.lstrip())
        problem = (
            f"malformed checked number {token} (write {{{{ literal = expression }}}}, {{{{ words if condition }}}} "
            f"or a marker {{{{ literal KIND … }}}} with KIND one of {', '.join(MARKER_KINDS)})"
        )
    else:
        literal, literal_start = m["literal"], body_start + m.start("literal")
        if not literal:
            problem = f"checked number {token} has no literal before its = (write {{{{ 3.526 = expression }}}})"
        else:
            problem = literal_problem(literal, in_math)
    return CheckedNumber(**fields, literal=literal, literal_start=literal_start, expression=expression, problem=problem)


def _is_number(literal: str) -> bool:
    try:
        parse_literal(literal)
    except LiteralError:
        return False
    return True


_SOURCE = re.compile(r"@(?P<key>[a-z][a-z0-9]*)(?:,[ \t]*(?P<locator>\S.*?))?")


def parse_source(source: str | None) -> tuple[str | None, str | None]:
    """``"@vaswani2017, Table 3"`` → ``("vaswani2017", "Table 3")``; (None, None) when absent or malformed."""
    m = _SOURCE.fullmatch(source or "")
    return (m["key"], m["locator"]) if m else (None, None)


def marker_problem(literal: str, marker: str, source: str | None, in_math: bool, token: str) -> str | None:
    """Why a marker is malformed (its checks against §10 come later, in ``verify``), or None."""
    if marker == "unchecked":
        return (
            f"{token}: 'unchecked' is not an exemption any more; a number is checked ({{{{ 0.98 = expression }}}}) "
            f"or carries a marker of one kind: {', '.join(MARKER_KINDS)} (see docs/reference/citable.md)"
        )
    problem = literal_problem(literal, in_math)
    if problem:
        return problem
    if marker in ("year", "page", "section", "index") and not re.fullmatch(r"\d+", literal):
        return f"{token}: a {marker} is a whole number written without sign or separators"
    key, locator = parse_source(source)
    if marker in SOURCED_MARKERS:
        if key is None:
            return f"{token}: a {marker} marker names its source: {MARKER_KINDS[marker].split(': ')[-1]}"
        if marker != "year" and not locator:
            return f"{token}: a {marker} marker names where in the source: @{key}, Table 3 (or §3.5, p. 33)"
        if marker == "year" and locator:
            return f"{token}: a year marker names its source only: {{{{ {literal} year @{key} }}}}"
    elif source:
        return f"{token}: a {marker} marker takes no source (only {', '.join(SOURCED_MARKERS)} do)"
    return None


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
