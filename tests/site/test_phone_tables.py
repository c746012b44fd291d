"""The phone layout of wide tables (``transformer_site.publishing.tables``): which layout a table gets from its
HTML, the roles and labels it then carries, narrow tables and matrices left as they are, and a wide table that
cannot be laid out named with its page and line."""

from __future__ import annotations

import re

import pytest

from transformer_site.failures import Failures
from transformer_site.publishing import tables


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A table as Python-Markdown writes one."""
    head = "".join(f"<th>{h}</th>\n" for h in headers)
    body = "".join("<tr>\n" + "".join(f"<td>{c}</td>\n" for c in row) + "</tr>\n" for row in rows)
    return f"<table>\n<thead>\n<tr>\n{head}</tr>\n</thead>\n<tbody>\n{body}</tbody>\n</table>"


def laid_out(page_html: str) -> list[str | None]:
    """The phone layout of each table of the page after the step (None: left as it is)."""
    out = tables.lay_out_page(page_html, Failures())
    return [m.group(1) for m in re.finditer(r'<table(?: role="table" data-tm-phone="(\w+)")?', out)]


NARROW = markdown_table(["記号", "意味"], [["T", "トークン数"], ["d", "次元"]])
EIGHT_COLUMNS = markdown_table(
    ["関係", "ヘッド", "重み", "次点", "差", "倍", "判定", "他"],
    [["これ → 花", "0", "0.912", "美しい", "+0.873", "×23.5", "勝ち", "0.403"]] * 2,
)
LONG = markdown_table(
    ["#", "トークン", "token id", "意図した関係"],
    [[f"文{i}", "これ は 花 です", "0, 12", "これ → 花"] for i in range(8)],
)
CODE_NAMES = markdown_table(
    ["名前", "種類", "説明"],
    [[f"<code>preset.AND_DETECTOR_FEATURES_{i}</code>", "値 (tuple)", ""] for i in range(6)],
)


def test_a_narrow_table_is_left_exactly_as_it_is():
    page = f"<p>前</p>{NARROW}<p>後</p>"
    assert tables.lay_out_page(page, Failures()) == page


def test_a_short_table_with_many_columns_is_turned_and_a_long_one_stacked():
    assert laid_out(EIGHT_COLUMNS + LONG) == ["turn", "stack"]


def test_three_short_columns_are_stacked_when_long_code_names_make_them_wide():
    short = markdown_table(["名前", "種類", "説明"], [["<code>D_K</code>", "値 (int)", "幅"]] * 6)
    assert laid_out(short + CODE_NAMES) == [None, "stack"]


def test_a_table_inside_a_box_has_less_room():
    three = markdown_table(["名前", "種類", "説明"], [["a", "b", "c"]] * 5)
    boxed = f'<div class="admonition note"><p class="admonition-title">注</p>{three}</div>'
    assert laid_out(three + boxed) == [None, "stack"]


def test_a_turned_table_keeps_its_cells_once_with_roles_and_its_size_for_the_grid():
    out = tables.lay_out_page(EIGHT_COLUMNS, Failures())
    assert out.count("これ → 花") == 2  # each cell once: the grid turns them, nothing is copied
    assert 'style="--tm-cols: 8; --tm-rows: 2"' in out
    assert out.count('role="columnheader"') == 8 and out.count('role="cell"') == 16
    assert out.count('role="rowgroup"') == 2 and out.count('role="row"') == 3
    assert "data-th" not in out


def test_a_stacked_cell_is_labelled_with_its_header_as_plain_text():
    header = 'キー <span class="arithmatex">\\(X[j, \\mathrm{d0}]\\)</span> &amp; 値'
    out = tables.lay_out_page(markdown_table(["#", header, "c", "d"], [["1", "2", "3", "4"]] * 5), Failures())
    cells = re.findall(r'<td role="cell" data-th="([^"]*)">(\d)</td>', out)
    assert cells[:4] == [("#", "1"), ("キー X[j, d0] &amp; 値", "2"), ("c", "3"), ("d", "4")]
    assert len(cells) == 20


def test_a_header_cell_in_a_body_row_is_a_row_header():
    table = markdown_table(["a", "b", "c", "d"], [["1", "2", "3", "4"]] * 5).replace("<td>1</td>", "<th>1</th>")
    out = tables.lay_out_page(table, Failures())
    assert out.count('<th role="rowheader" data-th="a">1</th>') == 5


def test_matrices_and_tables_with_attributes_of_their_own_are_not_touched():
    heat = EIGHT_COLUMNS.replace("<table>", '<table class="tf-heat" data-scale="diverging">')
    assert tables.lay_out_page(heat, Failures()) == heat


def test_a_nowrap_cell_is_one_piece_unless_stacked_and_code_breaks_once_laid_out():
    cell = tables.Cell("td", ' style="white-space: nowrap"', "これ → 花 → です → 美しい")
    assert tables.unbreakable_px(cell) > 150 and tables.unbreakable_px(cell, "stack") == 0
    code = tables.Cell("td", "", "<code>preset.AND_DETECTOR_FEATURES</code>")
    assert tables.unbreakable_px(code) > 150 and tables.unbreakable_px(code, "turn") == 0
    number = tables.Cell("td", "", '<span class="checked-number checked-claim" data-x="1">文1・文2・文8</span>')
    assert tables.unbreakable_px(number, "stack") > 60


@pytest.mark.parametrize(
    ("table", "reason"),
    [
        ("<table><tbody><tr><td>a</td><td>b</td><td>c</td><td>d</td></tr></tbody></table>", "no header row"),
        (markdown_table(["a", "b", "c", "d"], [["1", "2", "3"]]), "row 1 has 3 cells and its header 4"),
        (markdown_table(["a", "b", "c", "d"], [["1", "2", "3", "4"]]).replace("<td>1", '<td colspan="2">1'), "spans"),
    ],
)
def test_a_wide_table_that_cannot_be_laid_out_is_a_failure_naming_page_line_and_table(table, reason):
    lines = "# 見出し\n\n| a | b | c | d |\n|---|---|---|---|\n".split("\n")
    failures = Failures()
    out = tables.lay_out_page(table, failures, "docs/notes/page.md", lines)
    assert out == table
    [message] = failures.reported()
    assert message.startswith("docs/notes/page.md:3 (table starting 'a')")
    assert reason in message and "too wide for a phone" in message


def test_a_narrow_table_that_cannot_be_laid_out_is_left_alone():
    failures = Failures()
    table = "<table><tr><td>a</td><td>b</td></tr></table>"
    assert tables.lay_out_page(table, failures, "docs/x.md") == table
    assert not failures.reported()


def test_a_failure_without_a_source_line_names_the_page():
    failures = Failures()
    table = "<table><tr><td>甲</td><td>b</td><td>c</td><td>d</td></tr></table>"
    tables.lay_out_page(table, failures, "docs/x.md")
    assert failures.reported()[0].startswith("docs/x.md (table starting '甲')")


def test_long_numbers_in_plain_text_count_whole_so_a_table_of_them_is_stacked_not_turned():
    heads = ["トークン数 n", "パーセプトロン", "ブロック", "比"]
    big = markdown_table(heads, [["128", "4,294,967,296", "3,152", "1,362"], ["512", "68,719,476,736", "3,152", "21"]])
    small = markdown_table(heads, [["128", "4,294", "3,152", "1,362"], ["512", "68,719", "3,152", "21"]])
    assert laid_out(big + small) == ["stack", "turn"]


def test_a_laid_out_tables_caption_says_its_role():
    table = EIGHT_COLUMNS.replace("<table>", "<table><caption>注意の重み</caption>", 1)
    assert '<caption role="caption">注意の重み</caption>' in tables.lay_out_page(table, Failures())
