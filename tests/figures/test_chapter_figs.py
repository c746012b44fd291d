"""Chapter figures and tables: they render, keep Japanese as text, are deterministic and show src's values."""

from __future__ import annotations

import html
import re
import runpy
from pathlib import Path

import pytest
from matplotlib import pyplot as plt

from transformer_figures import HeatFigure, chapter_figs, figure_html, to_svg
from transformer_math import experiments
from transformer_math.configs import TRANSFORMER_BASE

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = sorted(ROOT.glob("snippets/chapter/0[1-6]-*/*.py"))

HEAT_FIGURES = {
    "mask": (chapter_figs.mask_placement_figure, "softmax の前にマスク"),
    "padding": (chapter_figs.padding_figure, "パディングマスクあり"),
    "cross_heads": (chapter_figs.cross_heads_figure, "ヘッド 7"),
}
FIGURES = {
    "architecture": (chapter_figs.architecture_figure, "エンコーダ"),
    "wavelength": (chapter_figs.wavelength_figure, "次元の組の番号"),
    "offset": (chapter_figs.offset_dot_figure, "オフセット"),
    "activations": (chapter_figs.relu_gelu_figure, "傾き"),
    "ln": (chapter_figs.ln_stack_figure, "残差ストリーム"),
}


@pytest.mark.parametrize("name", FIGURES)
def test_figure_keeps_japanese_as_text_and_is_deterministic(name):
    make, japanese = FIGURES[name]
    first, second = to_svg(make(), what=name), to_svg(make(), what=name)
    plt.close("all")
    assert first == second
    texts = "".join(re.findall(r"<text[^>]*>([^<]*)</text>", first))
    assert japanese in html.unescape(texts)


@pytest.mark.parametrize("name", HEAT_FIGURES)
def test_heat_figure_is_deterministic_and_titled_in_japanese(name):
    make, japanese = HEAT_FIGURES[name]
    first, second = figure_html(make(), alt=name), figure_html(make(), alt=name)
    assert first == second
    assert japanese in html.unescape("".join(re.findall(r"<caption>([^<]*)</caption>", first)))


def test_weight_tables_print_the_experiment_weights():
    figure = chapter_figs.cross_heads_figure()
    assert isinstance(figure, HeatFigure) and len(figure.tables) == experiments.CROSS.attn.shape[0]
    for table, weights in zip(figure.tables, experiments.CROSS.attn, strict=True):
        assert table.printed == [[f"{w:.2f}" for w in row] for row in weights]
    padding = chapter_figs.padding_figure()
    assert [t.matrix.tolist() for t in padding.tables] == [experiments.PADDING.weights.tolist(),
                                                          experiments.PADDING.weights_unmasked.tolist()]


def test_architecture_figure_writes_the_config_sizes():
    svg = html.unescape(to_svg(chapter_figs.architecture_figure()))
    assert f"N = {TRANSFORMER_BASE.n_layers}" in svg
    assert f"{TRANSFORMER_BASE.d_model}→{TRANSFORMER_BASE.d_ff}→{TRANSFORMER_BASE.d_model}" in svg


def test_mask_figure_prints_the_row_sums_of_experiments():
    wrong = chapter_figs.mask_placement_figure().tables[1]
    assert wrong.row_notes == tuple(f"和 {s:.2f}" for s in experiments.MASK.row_sums_zeroed)
    assert f'<th class="n">和 {experiments.MASK.row_sums_zeroed[0]:.2f}</th>' in wrong.to_html()


def test_cross_shapes_table_reads_the_computed_shapes():
    table = chapter_figs.cross_shapes_table()
    h, n, m = TRANSFORMER_BASE.n_heads, experiments.CROSS_N, experiments.CROSS_M
    assert f"<td>{h} × {n} × {m}</td>" in table  # scores
    assert f"<td>{n} × {TRANSFORMER_BASE.d_model}</td>" in table  # output


def test_head_cost_table_has_one_row_per_length_and_head_count():
    table = chapter_figs.head_cost_table()
    assert table.count("<tr>") == 1 + 2 * len(experiments.HEAD_COST_LENGTHS)
    assert f"{experiments.HEAD_COST[(128, 1)].total_macs:,}" in table


def test_table_html_escapes_cells():
    assert "&lt;b&gt;" in chapter_figs.table_html(["a"], [["<b>"]])


@pytest.mark.parametrize("path", SNIPPETS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_snippet_prints_a_figure_with_alt_text_or_a_table(path, capsys):
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    assert "<svg" in out or "<table" in out
    if "<svg" in out:
        assert re.search(r'aria-label="[^"]{20,}"', out)


def test_there_is_a_snippet_for_every_chapter_page():
    assert {p.parent.name for p in SNIPPETS} == {
        "01-overview", "02-attention-kinds", "03-multi-head",
        "04-positional-encoding", "05-ffn", "06-add-norm",
    }  # fmt: skip
