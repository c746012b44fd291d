"""A phone layout for the page's tables that are wider than a phone's column.

A table written in Markdown (or given as a plain ``<table>`` by a block) is laid out as a table at every width. On a
390 px phone a table of four or more columns, or one whose cells hold long code names, runs past the text column
(Material gives each header at least 5 rem). :func:`lay_out_page` decides, from each such table's HTML alone, which
layout it gets on a phone (``site.css`` draws them under its phone media query; wider screens see the table as it
was, since the step only adds attributes that nothing draws there):

- ``turn``: a short table (at most :data:`TURN_ROWS` body rows) is shown transposed, its headers down the first
  column and each body row as a column beside them: a CSS grid over the same cells, so nothing is written twice
  (search would index it twice, a screen reader read it twice);
- ``stack``: a longer one shows each row as a block of its own, one cell a line, each labelled with its column's
  header (``data-th``, shown by CSS before the value and hidden from assistive technology, which has the header);
- a table that fits the column (:func:`fits`) is left exactly as it is.

The heat tables of ``transformer_figures`` (``class="tf-heat"``) are matrices: they keep their rows and columns
and scroll sideways with a cue (``site.css``); this step never touches a table that has attributes of its own.

A table that is laid out gets explicit ARIA roles (``table``, ``caption``, ``rowgroup``, ``row``, ``columnheader``,
``rowheader``, ``cell``):
a table drawn with ``display: grid`` or ``block`` would otherwise lose its table semantics in some browsers.

A wide table whose structure cannot be laid out (no header row, a row with another number of cells than the
header, a cell spanning several, a table inside a cell) is a failure of the build naming the page, the line of
its Markdown source where that can be found, and its first header; a narrow one is left alone.

Widths are estimated from the text, in CSS px of the phone's table font, with margins on the safe side: a table
that is just too wide for the estimate is laid out, never one the reader would have to scroll.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from transformer_site.failures import Failures
from transformer_site.publishing.formulas import strip_delimiters

TURN_ROWS = 3
"""A wide table with at most this many body rows is transposed on a phone; a longer one is stacked."""

# The phone's text column in CSS px (390 px less Material's 0.8 rem margins), a little less to be safe; each
# admonition or details box around a table takes its padding and border off that.
COLUMN_PX = 354.0
BOX_PX = 30.0
FONT_PX = 12.4  # the tables' font on a phone (site.css: 0.62 rem of Material's 20 px)
TH_MIN_PX = 100.0  # Material's smallest header: 5 rem
CELL_PAD_PX = 2 * 0.45 * FONT_PX + 1  # site.css' cell padding on a phone, and a border
TURN_HEADS_SHARE = 0.4  # the transposed headers' column takes at most this share of the width (site.css)
# Width of one character in em of the table's font: a wide (Japanese) one, a Latin one, one of code (Material's
# 0.85 em monospace) and one symbol of a formula (KaTeX's 1.21 em, 1.1 em on a phone, about 0.6 em a symbol).
EM_WIDE, EM_NARROW, EM_CODE, EM_FORMULA = 1.0, 0.6, 0.85 * 0.6, 1.1 * 0.62
CODE_PAD_EM = 0.85 * 2 * 0.3  # Material's inline code padding

_TABLE = re.compile(r"<table>(.*?)</table>", re.S)
_BOX_TAG = re.compile(r"<(/?)(div|details|table)\b([^>]*)>", re.I)
_ADMONITION = re.compile(r'class="[^"]*\badmonition\b')
_TAG = re.compile(r"<(/?)(table|caption|thead|tbody|tr|th|td)\b([^>]*)>", re.I)
_CELL = re.compile(r"<(th|td)\b([^>]*)>(.*?)</\1>", re.S | re.I)
_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.S | re.I)
_NOWRAP_STYLE = re.compile(r"white-space:\s*nowrap", re.I)
# Pieces of a cell that never break on a phone (site.css): code, a checked number, a formula.
_PIECE = re.compile(
    r"<code\b[^>]*>(?P<code>.*?)</code>"
    r'|<span class="checked-number\b[^"]*"[^>]*>(?P<number>.*?)</span>'
    r'|<span class="arithmatex"[^>]*>(?P<tex>.*?)</span>',
    re.S,
)
_TAGS = re.compile(r"<[^>]+>")
_NUMBER = re.compile(r"[−+-]?\d[\d,.]*\d")
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+|\\.")
_TEX_SPACING = re.compile(r"\\[,;:!]|\\quad|\\qquad")
_TEX_SYMBOLS = {
    "cdot": "·", "times": "×", "to": "→", "rightarrow": "→", "le": "≤", "ge": "≥", "ne": "≠", "sqrt": "√", "sum": "Σ",
    "in": "∈", "infty": "∞", "approx": "≈", "ldots": "…", "cdots": "…", "alpha": "α", "beta": "β", "gamma": "γ",
    "mu": "μ", "sigma": "σ", "theta": "θ", "lambda": "λ",
}  # fmt: skip
_TEX_WRAPPER = re.compile(r"\\(?:mathrm|text|mathbf|mathit|operatorname|boldsymbol|mathsf|texttt)\{([^{}]*)\}")


class TableError(ValueError):
    """A table wider than a phone's column whose structure cannot be laid out for one."""


@dataclass(frozen=True)
class Cell:
    tag: str  # th or td
    attrs: str
    inner: str  # the cell's HTML

    @property
    def text(self) -> str:
        return plain_text(self.inner)


@dataclass(frozen=True)
class Table:
    caption: str | None
    headers: list[Cell]
    rows: list[list[Cell]]


# ------------------------------------------------------------------------------------------------ reading a table


def plain_text(cell_html: str) -> str:
    """What a cell shows, as plain text: a formula as its TeX made readable (``X[j, \\mathrm{d0}]`` → ``X[j, d0]``)."""
    text = _PIECE.sub(lambda m: _tex_as_text(m.group("tex")) if m.group("tex") is not None else m.group(0), cell_html)
    return " ".join(html.unescape(_TAGS.sub("", text)).split())


def _tex_as_text(tex: str) -> str:
    tex = _TEX_SPACING.sub(" ", strip_delimiters(html.unescape(tex)))
    while _TEX_WRAPPER.search(tex):
        tex = _TEX_WRAPPER.sub(r"\1", tex)
    tex = _TEX_COMMAND.sub(lambda m: _TEX_SYMBOLS.get(m.group(0)[1:], m.group(0)[1:]), tex)
    return tex.replace("{", "").replace("}", "")


def read_table(body: str) -> Table:
    """The table whose HTML between ``<table>`` and ``</table>`` is ``body``; :class:`TableError` if it has no header
    row, a row of another length than the header, a spanning cell or a table inside it."""
    if re.search(r"<table\b", body, re.I):
        raise TableError("it holds another table")
    caption = re.search(r"<caption\b[^>]*>(.*?)</caption>", body, re.S | re.I)
    head = re.search(r"<thead\b[^>]*>(.*?)</thead>", body, re.S | re.I)
    if head is None:
        raise TableError("it has no header row (<thead>)")
    head_rows = _ROW.findall(head.group(1))
    if len(head_rows) != 1:
        raise TableError(f"its header has {len(head_rows)} rows, not one")
    headers = _cells(head_rows[0])
    rest = body[head.end() :]
    rows = [_cells(row) for row in _ROW.findall(rest)]
    for n, row in enumerate(rows, start=1):
        if len(row) != len(headers):
            raise TableError(f"its row {n} has {len(row)} cells and its header {len(headers)}")
    spanning = [c for c in [*headers, *(c for row in rows for c in row)] if re.search(r"\b(col|row)span=", c.attrs)]
    if spanning:
        raise TableError(f"a cell spans several ({spanning[0].text[:30]!r})")
    return Table(caption.group(1) if caption else None, headers, rows)


def _cells(row_html: str) -> list[Cell]:
    return [Cell(m.group(1).lower(), m.group(2), m.group(3)) for m in _CELL.finditer(row_html)]


# ------------------------------------------------------------------------------------------------ widths


def _chars_px(text: str, em: float | None = None) -> float:
    if em is not None:
        return len(text) * em * FONT_PX
    return sum((EM_WIDE if unicodedata.east_asian_width(ch) in "WF" else EM_NARROW) * FONT_PX for ch in text)


def unbreakable_px(cell: Cell, how: str | None = None) -> float:
    """The widest piece of ``cell`` that a phone never breaks in layout ``how`` (None: as a table): a checked number,
    a formula and a number in the text never break; code only as a table; a cell whose style says ``nowrap`` is one
    piece but where it is stacked (a line of its own, site.css)."""
    if how != "stack" and _NOWRAP_STYLE.search(cell.attrs):
        return _chars_px(cell.text)
    widest = 0.0
    for m in _PIECE.finditer(cell.inner):
        if m.group("code") is not None:
            px = 0.0 if how else _chars_px(plain_text(m.group("code")), EM_CODE) + CODE_PAD_EM * FONT_PX
        elif m.group("number") is not None:
            px = _chars_px(plain_text(m.group("number")))
        else:
            px = _chars_px(_tex_as_text(m.group("tex")).replace(" ", ""), EM_FORMULA)
        widest = max(widest, px)
    # a long number in plain text may break anywhere (site.css), but one broken between its digits misreads
    numbers = _NUMBER.findall(plain_text(_PIECE.sub("", cell.inner)))
    return max(widest, *(_chars_px(n) for n in numbers)) if numbers else widest


def table_px(table: Table) -> float:
    """The narrowest the table can be drawn as a table on a phone: each column as wide as its widest unbreakable
    piece, a column with a header at least Material's 5 rem."""
    columns = zip(table.headers, *table.rows, strict=True)
    return sum(max(TH_MIN_PX, *(unbreakable_px(c) for c in column)) + CELL_PAD_PX for column in columns) + 2


def turns(table: Table, column_px: float = COLUMN_PX) -> bool:
    """Whether the transposed table fits: its headers in the first column, each body row a column beside them."""
    if len(table.rows) > TURN_ROWS or not table.rows:
        return False
    heads = column_px * TURN_HEADS_SHARE
    if any(unbreakable_px(h, "turn") + CELL_PAD_PX > heads for h in table.headers):
        return False
    widest = max(unbreakable_px(c, "turn") for row in table.rows for c in row)
    return widest + CELL_PAD_PX <= (column_px - heads) / len(table.rows)


def layout(table: Table, boxes: int = 0) -> str | None:
    """The table's layout on a phone, inside ``boxes`` admonitions or details: None (as it is), ``turn`` or
    ``stack``."""
    column_px = COLUMN_PX - BOX_PX * boxes
    if table_px(table) <= column_px:
        return None
    return "turn" if turns(table, column_px) else "stack"


# ------------------------------------------------------------------------------------------------ writing it


def with_roles(body: str, table: Table, how: str) -> str:
    """``<table>…</table>`` with the layout, the roles and (stacked) each cell's header as ``data-th``."""
    labels = [html.escape(h.text, quote=True) for h in table.headers]
    state = {"section": "", "cell": 0}

    def tag(m: re.Match) -> str:
        closing, name, attrs = m.group(1), m.group(2).lower(), m.group(3)
        if closing:
            return m.group(0)
        if name in ("thead", "tbody"):
            state["section"] = name
            return f'<{m.group(2)} role="rowgroup"{attrs}>'
        if name == "tr":
            state["cell"] = 0
            return f'<{m.group(2)} role="row"{attrs}>'
        if name in ("th", "td"):
            index = state["cell"]
            state["cell"] += 1
            if state["section"] == "thead":
                return f'<{m.group(2)} role="columnheader"{attrs}>'
            role = "rowheader" if name == "th" else "cell"
            label = f' data-th="{labels[index]}"' if how == "stack" else ""
            return f'<{m.group(2)} role="{role}"{label}{attrs}>'
        # a caption keeps its role in so many words: axe-core, reading a table's roles, would otherwise take a
        # focusable term explained in the caption for a child the table may not have
        return f'<{m.group(2)} role="caption"{attrs}>'

    inner = _TAG.sub(tag, body)
    size = f' style="--tm-cols: {len(table.headers)}; --tm-rows: {len(table.rows)}"' if how == "turn" else ""
    return f'<table role="table" data-tm-phone="{how}"{size}>{inner}</table>'


def lay_out_page(page_html: str, failures: Failures, where: str = "<page>", lines: Sequence[str] = ()) -> str:
    """``page_html`` with each plain table that is too wide for a phone given its phone layout; a wide table that
    cannot be laid out is reported to ``failures`` (the build's), at its line among the page's Markdown ``lines``
    where they show its header, and left as it is."""
    boxes = _boxes_around(page_html)

    def one(m: re.Match) -> str:
        body = m.group(1)
        try:
            table = read_table(body)
        except TableError as err:
            if not _looks_wide(body, boxes[m.start()]):
                return m.group(0)
            failures.report(f"{_place(where, lines, body)}: this table is too wide for a phone and {err}; "
                            "write it as a Markdown table with one header row")  # fmt: skip
            return m.group(0)
        how = layout(table, boxes[m.start()])
        return m.group(0) if how is None else with_roles(body, table, how)

    return _TABLE.sub(one, page_html)


def _looks_wide(body: str, boxes: int) -> bool:
    """Whether a table that cannot be read as one header row and body rows is too wide for a phone: a row with
    more cells of Material's smallest width than the column holds."""
    most = max((len(_cells(row)) for row in _ROW.findall(body)), default=0)
    return most * (TH_MIN_PX + CELL_PAD_PX) > COLUMN_PX - BOX_PX * boxes


def _boxes_around(page_html: str) -> dict[int, int]:
    """{where a ``<table>`` starts: how many admonition or details boxes it sits in}."""
    found: dict[int, int] = {}
    open_divs: list[bool] = []  # for each open <div>: whether it is an admonition
    details = 0
    for m in _BOX_TAG.finditer(page_html):
        closing, name, attrs = m.group(1), m.group(2), m.group(3)
        if name == "table":
            if not closing:
                found[m.start()] = details + sum(open_divs)
        elif name == "details":
            details += -1 if closing else 1
        elif closing:
            if open_divs:
                open_divs.pop()
        elif not attrs.rstrip().endswith("/"):
            open_divs.append(bool(_ADMONITION.search(attrs)))
    return found


def _place(where: str, lines: Sequence[str], body: str) -> str:
    """The page and, where its Markdown source has the table's header row, the line of it; and its first cell."""
    first = next(iter(_CELL.finditer(body)), None)
    words = plain_text(first.group(3))[:30] if first else ""
    line = _source_line(lines, words) if words else None
    place = f"{where}:{line}" if line else where
    return f"{place} (table starting {words!r})" if words else place


def _source_line(lines: Sequence[str], words: str) -> int | None:
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith("|") and words in line:
            return number
    return None
