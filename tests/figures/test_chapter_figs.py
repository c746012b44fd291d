"""Chapter figures and tables: they render, keep Japanese as text, are deterministic and show src's values."""

from __future__ import annotations

import functools
import html
import re
import runpy
from pathlib import Path

import numpy as np
import pytest
from matplotlib import pyplot as plt

from transformer_figures import HeatFigure, chapter_figs, figure_html, table_html, to_svg
from transformer_math import activations, ops
from transformer_math.configs import TRANSFORMER_BASE
from transformer_pages.chapter import add_norm, attention_kinds, multi_head

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = sorted(ROOT.glob("snippets/chapter/0[1-6]-*/*.py"))

# Computed when a test first asks (not at import: every pytest worker imports this file, one runs it).
MASK, PADDING, CROSS = map(functools.cache, (attention_kinds.mask, attention_kinds.padding, attention_kinds.cross))


# What each page's snippet computes and hands to the helper.
def mask():
    return chapter_figs.mask_placement_figure(MASK().masked_before, MASK().zeroed_after, attention_kinds.MASK_WORDS)


def padding():
    return chapter_figs.padding_figure(PADDING().weights, PADDING().weights_unmasked, PADDING().valid)


def offset():
    ks, pe = np.arange(51), ops.positional_encoding(100, 512)
    return chapter_figs.offset_dot_figure(ks, {pos: pe[pos + ks] @ pe[pos] for pos in (0, 37)})


def relu_gelu():
    x = np.linspace(-4, 4, 401)
    values, slopes = (
        {"ReLU": ops.relu(x), "GELU": ops.gelu(x)},
        {"ReLU": (x > 0) * 1.0, "GELU": activations.gelu_derivative(x)},
    )
    return chapter_figs.relu_gelu_figure(x, values, slopes, activations.gelu_minimum())


def head_cost_rows():
    return [
        [str(n), str(h), f"{r.projection_macs:,}", f"{r.mixing_macs:,}", f"{r.total_macs:,}", f"{r.softmax_entries:,}"]
        for (n, h), r in multi_head.head_cost().items()
    ]


HEAT_FIGURES = {
    "mask": (mask, "softmax の前にマスク"),
    "padding": (padding, "パディングマスクあり"),
    "cross_heads": (lambda: chapter_figs.cross_heads_figure(CROSS().attn), "ヘッド 7"),
}
FIGURES = {
    "architecture": (lambda: chapter_figs.architecture_figure(TRANSFORMER_BASE), "エンコーダ"),
    "wavelength": (lambda: chapter_figs.wavelength_figure(ops.pe_wavelengths(512), 512), "次元の組の番号"),
    "offset": (offset, "オフセット"),
    "activations": (relu_gelu, "傾き"),
    "ln": (lambda: chapter_figs.ln_stack_figure(add_norm.ln()), "残差ストリーム"),
}


@functools.cache
def _first_render(name: str) -> str:
    """One render per figure and process, shared by the tests below (the fast tier renders each figure once)."""
    svg = to_svg(FIGURES[name][0](), what=name)
    plt.close("all")
    return svg


@pytest.mark.parametrize("name", FIGURES)
def test_figure_keeps_japanese_as_text(name):
    texts = "".join(re.findall(r"<text[^>]*>([^<]*)</text>", _first_render(name)))
    assert FIGURES[name][1] in html.unescape(texts)


@pytest.mark.repeat
@pytest.mark.parametrize("name", FIGURES)
def test_figure_is_deterministic(name):
    again = to_svg(FIGURES[name][0](), what=name)
    plt.close("all")
    assert again == _first_render(name)


@pytest.mark.parametrize("name", HEAT_FIGURES)
def test_heat_figure_is_deterministic_and_titled_in_japanese(name):
    make, japanese = HEAT_FIGURES[name]
    first, second = figure_html(make(), alt=name), figure_html(make(), alt=name)
    assert first == second
    assert japanese in html.unescape("".join(re.findall(r"<caption>([^<]*)</caption>", first)))


def test_weight_tables_print_the_experiment_weights():
    figure = chapter_figs.cross_heads_figure(CROSS().attn)
    assert isinstance(figure, HeatFigure) and len(figure.tables) == CROSS().attn.shape[0]
    for table, weights in zip(figure.tables, CROSS().attn, strict=True):
        assert table.printed == [[f"{w:.2f}" for w in row] for row in weights]
    padding_fig = padding()
    assert [t.matrix.tolist() for t in padding_fig.tables] == [
        PADDING().weights.tolist(),
        PADDING().weights_unmasked.tolist(),
    ]


def test_architecture_figure_writes_the_config_sizes():
    svg = html.unescape(to_svg(chapter_figs.architecture_figure(TRANSFORMER_BASE)))
    assert f"N = {TRANSFORMER_BASE.n_layers}" in svg
    assert f"{TRANSFORMER_BASE.d_model}→{TRANSFORMER_BASE.d_ff}→{TRANSFORMER_BASE.d_model}" in svg


def test_mask_figure_prints_the_row_sums_of_experiments():
    wrong = mask().tables[1]
    assert wrong.row_notes == tuple(f"和 {s:.2f}" for s in MASK().row_sums_zeroed)
    assert f'<th class="n">和 {MASK().row_sums_zeroed[0]:.2f}</th>' in wrong.to_html()


def test_cross_shapes_table_reads_the_computed_shapes():
    table = chapter_figs.cross_shapes_table(CROSS().shapes)
    h, n, m = TRANSFORMER_BASE.n_heads, attention_kinds.CROSS_N, attention_kinds.CROSS_M
    assert f"<td>{h} × {n} × {m}</td>" in table  # scores
    assert f"<td>{n} × {TRANSFORMER_BASE.d_model}</td>" in table  # output


def test_head_cost_table_has_one_row_per_length_and_head_count():
    table = chapter_figs.head_cost_table(head_cost_rows())
    assert table.count("<tr>") == 1 + 2 * len(multi_head.HEAD_COST_LENGTHS)
    assert f"{multi_head.head_cost()[(128, 1)].total_macs:,}" in table


def test_table_html_escapes_cells():
    assert "&lt;b&gt;" in table_html(["a"], [["<b>"]])


@pytest.mark.parametrize("path", SNIPPETS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_snippet_prints_a_figure_with_alt_text_or_a_table(path, capsys):
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    assert "<svg" in out or "<table" in out
    if "<svg" in out:
        assert re.search(r'aria-label="[^"]{20,}"', out)


def test_there_is_a_snippet_for_every_chapter_page():
    assert {p.parent.name for p in SNIPPETS} == {
        "01-overview",
        "02-attention-kinds",
        "03-multi-head",
        "04-positional-encoding",
        "05-ffn",
        "06-add-norm",
    }
