"""Heat tables (transformer_figures.heat_table): the printed values, the colours, the ink, the marks, bad input."""

from __future__ import annotations

import re

import numpy as np
import pytest
from matplotlib import colormaps
from matplotlib.colors import to_hex

from transformer_figures import ColourScale, HeatFigure, figure_html, heat_figure, heat_table
from transformer_figures.style import text_color_for

MATRIX = np.array([[-2.0, 0.0, 0.5], [1.25, -0.004, 2.0]])
ROWS, COLS = ["これ", "は"], ["a", "b", "c"]


def _cells(html: str) -> list[tuple[str, str, str]]:
    """(classes, background, text) of every data cell, in row order."""
    found = re.findall(r'<td(?: class="([^"]*)")? style="background:(#[0-9a-f]{6})">([^<]*)</td>', html)
    return [(classes, background, text) for classes, background, text in found]


def _contrast(hex_a: str, hex_b: str) -> float:
    def luminance(hex_colour: str) -> float:
        c = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255.0
        linear = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(linear @ np.array([0.2126, 0.7152, 0.0722]))

    hi, lo = sorted((luminance(hex_a), luminance(hex_b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_cells_print_the_formatted_values_with_a_typographic_minus_and_unsigned_zeros():
    html = heat_table(MATRIX, ROWS, COLS, fmt="{:+.2f}", center=0.0).to_html()
    assert [text for _, _, text in _cells(html)] == ["−2.00", "0.00", "+0.50", "+1.25", "0.00", "+2.00"]


def test_cell_colours_are_the_colour_map_of_the_normalised_value():
    table = heat_table(MATRIX + 2.0, ROWS, COLS, cmap="viridis", vmin=0.0, vmax=4.0)
    backgrounds = [bg for _, bg, _ in _cells(table.to_html())]
    expected = [to_hex(colormaps["viridis"]((v + 2.0) / 4.0)) for v in MATRIX.ravel()]
    assert backgrounds == expected


def test_signed_values_take_the_diverging_scale():
    """Red and blue mean signed values on every page: a table with a value below 0 is centred at 0 unless a colour
    map was chosen, and a sequential scale for signed values is refused, naming the table and the value."""
    assert heat_table(MATRIX, ROWS, COLS).scale.kind == "diverging"
    assert heat_table(np.abs(MATRIX), ROWS, COLS).scale.kind == "sequential"
    with pytest.raises(ValueError, match=r"heat table 表: a signed value \(-2\) on the sequential scale"):
        heat_table(MATRIX, ROWS, COLS, scale=ColourScale.for_values(None, vmin=0.0, vmax=2.0), title="表")
    with pytest.raises(ValueError, match="signed values take the diverging scale"):
        heat_table(MATRIX, ROWS, COLS, cmap="viridis")


def test_centred_scale_is_symmetric_about_the_centre():
    scale = ColourScale.for_values(MATRIX, center=0.0)
    assert (scale.vmin, scale.vmax, scale.cmap) == (-2.0, 2.0, "RdBu_r")
    scale = ColourScale.for_values(np.array([[0.5, 3.0]]), center=1.0)
    assert (scale.vmin, scale.vmax) == (-1.0, 3.0)


@pytest.mark.parametrize("cmap", ["viridis", "RdBu_r", "Blues"])
def test_ink_is_the_legible_one_of_black_and_white_on_every_cell(cmap):
    values = np.linspace(-1.0, 1.0, 41).reshape(1, -1)
    html = heat_table(values, ["x"], [str(k) for k in range(41)], cmap=cmap, center=0.0).to_html()
    for classes, background, _ in _cells(html):
        ink = "#ffffff" if "w" in classes.split() else "#000000"
        rgba = [int(background[i : i + 2], 16) / 255.0 for i in (1, 3, 5)]
        assert ink == text_color_for(rgba)
        assert _contrast(ink, background) >= 4.5, (cmap, background, ink)


def test_marks_go_on_the_named_cells_and_columns():
    table = heat_table(
        MATRIX, ROWS, COLS, framed_cells=[(0, 2)], dashed_cells=[(1, 0)], framed_columns=[1], divider_before=[2],
        hidden_zeros=True,
    )  # fmt: skip
    classes = [set(c.split()) for c, _, _ in _cells(table.to_html())]
    assert "f" in classes[2] and "fd" in classes[3]
    assert {"c", "ct"} <= classes[1] and {"c", "cb"} <= classes[4]  # column frame: top on row 0, bottom on row 1
    assert "d" in classes[2] and "d" in classes[5]
    assert "z" in classes[1] and "z" not in classes[4]  # only an exact zero is hidden, −0.004 is printed
    assert '<th scope="col" class="d">c</th>' in table.to_html()
    ruled = heat_table(MATRIX, ROWS, COLS, rule_before_rows=[1]).to_html()
    assert ruled.count('<tr class="r">') == 1 and '<tr class="r"><th scope="row">は</th>' in ruled


def test_labels_notes_and_title_are_escaped_and_placed():
    table = heat_table(MATRIX, ["<b>", "は"], COLS, title="A & B", corner="行 ＼ 列", row_notes=["和 1", "和 2"])
    html = table.to_html()
    assert "<caption>A &amp; B</caption>" in html
    assert '<th scope="row">&lt;b&gt;</th>' in html and "<b>" not in html
    assert '<td class="k">行 ＼ 列</td>' in html
    assert html.count('<th class="n">') == 2 and '<th class="n">和 2</th></tr>' in html


def test_a_legend_follows_the_last_table_of_its_scale():
    shared = ColourScale.for_values(MATRIX, center=0.0)
    own = ColourScale.for_values(None, vmin=0.0, vmax=1.0)
    a, b = heat_table(MATRIX, ROWS, COLS, scale=shared), heat_table(MATRIX, ROWS, COLS, scale=shared)
    c = heat_table(np.clip(MATRIX, 0, 1), ROWS, COLS, scale=own)
    html = heat_figure(a, b, c, columns=2).to_html("説明")
    items = re.findall(r'<div class="(tf-heat-scroll|tf-heat-key|tf-heat-break)">', html)
    assert items == ["tf-heat-scroll", "tf-heat-scroll", "tf-heat-key", "tf-heat-scroll", "tf-heat-key"]
    assert html.count("linear-gradient") == 2


def test_rows_break_after_the_requested_number_of_columns():
    tables = [heat_table(MATRIX, ROWS, COLS, scale=ColourScale.for_values(MATRIX)) for _ in range(5)]
    html = heat_figure(*tables, columns=2).to_html("説明")
    items = re.findall(r'<div class="(tf-heat-scroll|tf-heat-key|tf-heat-break)">', html)
    assert items == ["tf-heat-scroll"] * 2 + ["tf-heat-break"] + ["tf-heat-scroll"] * 2 + ["tf-heat-break"] + [
        "tf-heat-scroll", "tf-heat-key"]  # fmt: skip


def test_figure_html_keeps_the_alt_text_and_the_search_exclusion():
    html = figure_html(heat_figure(heat_table(MATRIX, ROWS, COLS)), alt="2 行 3 列の表", caption="見出し")
    assert 'aria-label="2 行 3 列の表"' in html and "data-search-exclude" in html
    assert "<figcaption>見出し</figcaption>" in html
    with pytest.raises(ValueError, match="alt"):
        figure_html(heat_figure(heat_table(MATRIX, ROWS, COLS)), alt=" ")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: heat_table(np.zeros(3), ["a"], COLS), r"matrix must be 2-D .*\(3,\)"),
        (lambda: heat_table(MATRIX, ROWS[:1], COLS), r"row_labels/col_labels must match matrix shape \(2, 3\)"),
        (lambda: heat_table(np.array([[1.0, np.nan]]), ["a"], ["b", "c"]), "matrix must be finite, got 1"),
        (lambda: heat_table(MATRIX, ROWS, COLS, scale=ColourScale.for_values(MATRIX), vmin=0.0), "either scale"),
        (lambda: heat_table(MATRIX, ROWS, COLS, framed_cells=[(2, 0)]), r"framed_cells: cells \[\(2, 0\)\] are out"),
        (lambda: heat_table(MATRIX, ROWS, COLS, framed_columns=[3]), r"framed_columns: columns \[3\] are outside 0 …"),
        (lambda: heat_table(MATRIX, ROWS, COLS, row_notes=["x"]), r"row_notes must have one entry per row \(2\), got"),
        (lambda: heat_table(MATRIX, ROWS, COLS, rule_before_rows=[2]), r"rule_before_rows: rows \[2\] are outside"),
        (lambda: ColourScale.for_values([]), "values must not be empty"),
        (lambda: HeatFigure(()), "at least one table"),
        (lambda: heat_figure(heat_table(MATRIX, ROWS, COLS), columns=0), "columns must be at least 1, got 0"),
    ],
)  # fmt: skip
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
