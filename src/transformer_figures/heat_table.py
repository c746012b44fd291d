"""Annotated matrices as HTML "heat tables": a ``<table>`` whose cells are coloured by value and print it.

Why not an annotated matplotlib heatmap: a 5 × 16 matrix is 80 numbers, and matplotlib lays out each printed
number as a text artist, measured for the layout and again for the drawing — the per-sentence heatmaps were
four fifths of a clean build's execution time. A table costs a string join; the browser lays it out; readers can
select, copy and zoom the numbers and a screen reader reads them as a table with row and column headers.

Cell colours are fixed (the same colour maps as :func:`transformer_figures.heatmap`); the number in a cell is
black or white by the cell's luminance, so it reads on both palettes. Headers, captions and marks follow the
page (``currentColor`` and the CSS variable ``--tf-mark`` in ``site.css``).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .plots import ColourScale, checked_matrix, format_number, unsigned_zero

_LEGEND_STOPS = 11


def legend_html(scale: ColourScale, fmt: str = "{:.2f}") -> str:
    """A gradient bar with the two ends (and the centre) labelled: how to read the colours."""
    stops = scale.rgba(np.linspace(scale.vmin, scale.vmax, _LEGEND_STOPS))
    gradient = ", ".join(_hex(c) for c in stops)
    ends = [scale.vmin, scale.center, scale.vmax] if scale.center is not None else [scale.vmin, scale.vmax]
    labels = [unsigned_zero(format_number(v, fmt)) for v in ends]
    ticks = "".join(f"<span>{html.escape(t)}</span>" for t in labels)
    return (
        f'<div class="tf-heat-legend" aria-hidden="true"><div class="tf-heat-bar" '
        f'style="background: linear-gradient(to right, {gradient})"></div>'
        f'<div class="tf-heat-ticks">{ticks}</div></div>'
    )


@dataclass(frozen=True)
class HeatTable:
    """One matrix with its labels, the format of its printed values, its colour scale and its marks.

    ``corner`` names the axes in the top-left cell (e.g. "クエリ i ＼ キー j"); ``row_notes`` add a header cell
    after each row (e.g. its sum). ``framed_cells`` (row, col) get a solid frame, ``dashed_cells`` a dashed
    one; ``framed_columns`` frame a whole column; ``divider_before`` draws a rule left of those columns,
    ``rule_before_rows`` one above those rows (e.g. a sum row);
    ``hidden_zeros`` leaves exact zeros unprinted (in a sparse matrix they are the background; a screen reader
    still reads them).
    """

    matrix: np.ndarray
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    scale: ColourScale
    fmt: str = "{:.2f}"
    title: str | None = None
    corner: str = ""
    row_notes: tuple[str, ...] = ()
    vertical_columns: bool = False
    hidden_zeros: bool = False
    framed_cells: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    dashed_cells: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    framed_columns: frozenset[int] = field(default_factory=frozenset)
    divider_before: frozenset[int] = field(default_factory=frozenset)
    rule_before_rows: frozenset[int] = field(default_factory=frozenset)

    @property
    def printed(self) -> list[list[str]]:
        """The text of every cell, row by row, as the reader sees it (a value that rounds to zero unsigned)."""
        return [[unsigned_zero(format_number(v, self.fmt)) for v in row] for row in self.matrix]

    def to_html(self) -> str:
        rgba = self.scale.rgba(self.matrix)
        white_ink = _needs_white_ink(rgba)
        vertical = ' class="v"' if self.vertical_columns else ""
        head = "".join(
            f'<th scope="col"{self._divider(j)}>{html.escape(label)}</th>' for j, label in enumerate(self.col_labels)
        )
        rows = []
        for i, (label, values) in enumerate(zip(self.row_labels, self.printed, strict=True)):
            cells = "".join(self._cell(i, j, text, rgba[i, j], white_ink[i, j]) for j, text in enumerate(values))
            note = f'<th class="n">{html.escape(self.row_notes[i])}</th>' if self.row_notes else ""
            rule = ' class="r"' if i in self.rule_before_rows else ""
            rows.append(f'<tr{rule}><th scope="row">{html.escape(label)}</th>{cells}{note}</tr>')
        caption = f"<caption>{html.escape(self.title)}</caption>" if self.title else ""
        corner = f'<td class="k">{html.escape(self.corner)}</td>'
        notes_column = "<td></td>" if self.row_notes else ""
        return (
            f'<div class="tf-heat-scroll"><table class="tf-heat" {self._scale_attributes()}>'
            f"{caption}<thead{vertical}><tr>{corner}{head}"
            f"{notes_column}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        )

    def _scale_attributes(self) -> str:
        # what the colours mean, for a reader's tools and for the test that every page speaks one colour language
        scale = self.scale
        return (f'data-scale="{scale.kind}" data-cmap="{html.escape(scale.cmap)}" '
                f'data-vmin="{scale.vmin:.6g}" data-vmax="{scale.vmax:.6g}"')  # fmt: skip

    def _divider(self, j: int) -> str:
        return ' class="d"' if j in self.divider_before else ""

    def _cell(self, i: int, j: int, text: str, rgba, white: bool) -> str:
        classes = []
        if white:
            classes.append("w")
        if self.hidden_zeros and self.matrix[i, j] == 0.0:
            classes.append("z")
        if (i, j) in self.framed_cells:
            classes.append("f")
        if (i, j) in self.dashed_cells:
            classes.append("fd")
        if j in self.framed_columns:
            classes.append("c")
            classes += ["ct"] if i == 0 else []
            classes += ["cb"] if i == self.matrix.shape[0] - 1 else []
        if j in self.divider_before:
            classes.append("d")
        attr = f' class="{" ".join(classes)}"' if classes else ""
        return f'<td{attr} style="background:{_hex(rgba)}">{html.escape(text)}</td>'


def heat_table(
    matrix,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    fmt: str = "{:.2f}",
    cmap: str | None = None,
    vmin: float | None = None,
    vmax: float | None = None,
    center: float | None = None,
    scale: ColourScale | None = None,
    title: str | None = None,
    corner: str = "",
    row_notes: Sequence[str] = (),
    vertical_columns: bool = False,
    hidden_zeros: bool = False,
    framed_cells: Iterable[tuple[int, int]] = (),
    dashed_cells: Iterable[tuple[int, int]] = (),
    framed_columns: Iterable[int] = (),
    divider_before: Iterable[int] = (),
    rule_before_rows: Iterable[int] = (),
) -> HeatTable:
    """A :class:`HeatTable` of ``matrix`` (rows × cols); the colour arguments work as in ``heatmap``.

    Pass ``scale`` to share one colour scale between several tables (then cmap/vmin/vmax/center must be unset).
    """
    values = checked_matrix(matrix, row_labels, col_labels)
    n_rows, n_cols = values.shape
    if row_notes and len(row_notes) != n_rows:
        raise ValueError(f"row_notes must have one entry per row ({n_rows}), got {len(row_notes)}")
    if scale is None:
        scale = ColourScale.for_values(values, cmap=cmap, vmin=vmin, vmax=vmax, center=center)
    elif any(v is not None for v in (cmap, vmin, vmax, center)):
        raise ValueError("pass either scale or cmap/vmin/vmax/center, not both")
    scale.check_signs(values, f"heat table {title or ''}".strip())
    cells = {name: frozenset(_checked_cells(name, given, values.shape)) for name, given in
             (("framed_cells", framed_cells), ("dashed_cells", dashed_cells))}  # fmt: skip
    columns = {name: frozenset(_checked_columns(name, given, n_cols)) for name, given in
               (("framed_columns", framed_columns), ("divider_before", divider_before))}  # fmt: skip
    rules = frozenset(_checked_columns("rule_before_rows", rule_before_rows, n_rows, "rows"))
    return HeatTable(
        values, tuple(row_labels), tuple(col_labels), scale, fmt, title, corner, tuple(row_notes), vertical_columns,
        hidden_zeros,
        **cells, **columns, rule_before_rows=rules,
    )  # fmt: skip


@dataclass(frozen=True)
class HeatFigure:
    """Heat tables shown as one figure: at most ``columns`` side by side, fewer where the page is narrower.

    ``legends`` are (scale, format) pairs, one per distinct colour scale; each colour key is drawn under the
    last table that uses its scale, so a figure whose tables have scales of their own keys each table.
    """

    tables: tuple[HeatTable, ...]
    legends: tuple[tuple[ColourScale, str], ...] = ()
    columns: int = 1

    def __post_init__(self) -> None:
        if not self.tables:
            raise ValueError("a HeatFigure needs at least one table, got none")
        if self.columns < 1:
            raise ValueError(f"columns must be at least 1, got {self.columns}")
        unknown = {t.scale for t in self.tables} - {scale for scale, _ in self.legends}
        if self.legends and unknown:
            raise ValueError(f"legends must cover every table's scale; missing {sorted(map(repr, unknown))}")

    def to_html(self, alt: str, caption: str | None = None) -> str:
        """``<figure>`` around the tables; ``alt`` summarises them for screen readers (like an SVG's label)."""
        last_use = {t.scale: k for k, t in enumerate(self.tables)}
        keys = {last_use[scale]: legend_html(scale, fmt) for scale, fmt in self.legends if scale in last_use}
        items = []
        for k, table in enumerate(self.tables):
            items.append(table.to_html())
            if k in keys:  # a full-width item: it also ends the row
                items.append(f'<div class="tf-heat-key">{keys[k]}</div>')
            elif (k + 1) % self.columns == 0 and k + 1 < len(self.tables):
                items.append('<div class="tf-heat-break"></div>')  # narrower pages wrap earlier on their own
        label = html.escape(alt, quote=True)
        parts = [
            f'<figure class="tf-figure tf-heat-figure" data-search-exclude aria-label="{label}">',
            f'<div class="tf-heat-grid">{"".join(items)}</div>',
        ]
        if caption:
            parts.append(f"<figcaption>{html.escape(caption)}</figcaption>")
        parts.append("</figure>")
        return "\n".join(parts)


def heat_figure(*tables: HeatTable, columns: int = 1, legend_fmt: str = "{:.2f}") -> HeatFigure:
    """The tables as one figure, with one colour key per distinct scale (in order of first use)."""
    scales: list[ColourScale] = []
    for table in tables:
        if table.scale not in scales:
            scales.append(table.scale)
    return HeatFigure(tuple(tables), tuple((s, legend_fmt) for s in scales), columns)


def _checked_cells(name: str, cells: Iterable[tuple[int, int]], shape: tuple[int, int]) -> list[tuple[int, int]]:
    checked = [(int(i), int(j)) for i, j in cells]
    outside = [c for c in checked if not (0 <= c[0] < shape[0] and 0 <= c[1] < shape[1])]
    if outside:
        raise ValueError(f"{name}: cells {outside} are outside the matrix of shape {shape}")
    return checked


def _checked_columns(name: str, columns: Iterable[int], n_cols: int, what: str = "columns") -> list[int]:
    checked = [int(j) for j in columns]
    outside = [j for j in checked if not 0 <= j < n_cols]
    if outside:
        raise ValueError(f"{name}: {what} {outside} are outside 0 … {n_cols - 1}")
    return checked


def _hex(rgba) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(float(c) * 255) for c in rgba[:3]))  # as matplotlib's to_hex


def _needs_white_ink(rgba: np.ndarray) -> np.ndarray:
    """True where white text reads better than black (WCAG relative luminance ≤ 0.179, as text_color_for)."""
    c = rgba[..., :3]
    linear = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    luminance = linear @ np.array([0.2126, 0.7152, 0.0722])
    return luminance <= 0.179
