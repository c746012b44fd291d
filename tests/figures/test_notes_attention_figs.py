"""Figures of the notes §0–§4: they render in the house style and show what the pages say they show."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from matplotlib import pyplot as plt

from transformer_figures import figure_html, table_html, to_svg
from transformer_figures import notes_attention_figs as F
from transformer_math import SENTENCES, ops, preset, preset_trace
from transformer_math.preset import BONDS, D_K, D_MODEL
from transformer_pages.notes import attention, concat


# What each page's snippet computes and hands to the helper, for sentence n.
def words(n):
    return preset.sentence(n).words


def qkv(n):
    tr = preset_trace(n)
    return F.qkv_figure(tr.Q, tr.K, tr.V, words(n))


def relations(n):
    tr = preset_trace(n)
    return F.attention_relations_figure(tr.scores, tr.attn, attention.relation_verdicts(n), words(n))


def concat_fig(n):
    tr = preset_trace(n)
    return F.concat_figure(tr.concat, tr.Y, words(n))


def x_decomposition(n):
    tr = preset_trace(n)
    return F.x_decomposition_figure(tr.X_tok, tr.X_pos, tr.X, words(n))


def bond_split(n):
    tr = preset_trace(n)
    splits = [
        (
            np.stack([tr.X_tok[:, b.query_dim], tr.X_pos[:, b.query_dim]], axis=1),
            np.stack([tr.X_tok[:, b.key_dim], tr.X_pos[:, b.key_dim]], axis=1),
        )
        for b in BONDS
    ]
    return F.bond_split_figure(splits, words(n))


def y_sources(n, t):
    terms = np.array([concat.y_sources(n, t, d) for d in range(D_MODEL)]).T  # (j, d)
    return F.y_sources_figure(terms, words(n), t)


def periods():
    return ops.pe_wavelengths(D_MODEL)


def waves():
    return F.positional_waves_figure(ops.pe_angular_frequencies(D_MODEL), periods())


@pytest.fixture(autouse=True)
def _close_figures():
    """Tests inspect Figure objects without showing them: close them, or pyplot keeps every one alive."""
    yield
    plt.close("all")


def test_qkv_figure_frames_exactly_the_bond_columns():
    fig = qkv(1)
    by_title = {t.title: t for t in fig.tables}
    for head in range(2):
        bonds = {b.column % D_K for b in BONDS if b.head == head}
        assert by_title[f"Q  ヘッド {head}"].framed_columns == bonds
        assert by_title[f"K  ヘッド {head}"].framed_columns == bonds
        assert not by_title[f"V  ヘッド {head}"].framed_columns
    assert sum(len(t.framed_columns) for t in fig.tables) == 2 * len(BONDS)  # one frame per bond in Q and in K


def test_attention_figure_frames_each_relation_and_a_lost_winner():
    fig = relations(3)
    verdicts = attention.relation_verdicts(3)
    for name in ("scores", "attn"):  # the same frames on the scores and on the attn tables
        for head in range(2):
            table = next(t for t in fig.tables if t.title == f"{name}  ヘッド {head}")
            mine = [v for v in verdicts if v.head == head]
            assert table.framed_cells == {(v.query_pos, v.key_pos) for v in mine}
            assert table.dashed_cells == {(v.query_pos, v.winner_pos) for v in mine if not v.wins}
    assert all(v.wins for v in verdicts)  # every relation wins in the preset, so no dashed frame is drawn today


def test_heat_table_values_are_the_trace_values():
    # the numbers printed in the concat figure are the trace's concat, formatted
    fig = concat_fig(2)
    printed = [text for row in fig.tables[0].printed for text in row]
    expected = [f"{v:.2f}".replace("-", "−").replace("−0.00", "0.00") for v in preset_trace(2).concat.ravel()]
    assert printed == expected
    assert fig.tables[0].divider_before == {D_K}  # the head boundary


def test_zero_cells_are_not_shown_in_q():
    table = qkv(1).tables[0]
    q_head0 = preset_trace(1).Q[:, 0, :]
    assert table.to_html().count('class="z') + table.to_html().count(' z"') + table.to_html().count(" z ") == int(
        np.count_nonzero(q_head0 == 0.0)
    )


def test_waves_title_gives_each_period():
    fig = waves()
    titles = [ax.get_title() for ax in fig.axes]
    for title, period in zip(titles, periods(), strict=True):
        assert f"{period:,.1f}" in title


SVG_FIGURES = {"periods": lambda: F.positional_periods_figure(periods()), "waves": waves}


@functools.cache
def _first_render(name: str) -> str:
    """One render per figure and process, shared by the tests below (the fast tier renders each figure once)."""
    return to_svg(SVG_FIGURES[name]())


@pytest.mark.parametrize("name", SVG_FIGURES)
def test_figures_render_to_svg_with_japanese_text(name):
    assert re.search(r">[^<]*[\u3040-\u30ff\u4e00-\u9fff][^<]*</text>", _first_render(name))


@pytest.mark.repeat
@pytest.mark.parametrize("name", SVG_FIGURES)
def test_figures_render_to_deterministic_svg(name):
    assert to_svg(SVG_FIGURES[name]()) == _first_render(name)


@pytest.mark.parametrize(
    "make",
    [
        lambda: F.embedding_figure(preset.build_embedding()),
        lambda: F.positional_heatmap_figure(ops.positional_encoding(5, 16)),
        lambda: x_decomposition(8),
        lambda: qkv(4),
        lambda: concat_fig(5),
        lambda: relations(7),
        lambda: bond_split(5),
        lambda: y_sources(6, 0),
    ],
)
def test_heat_figures_are_deterministic_with_japanese_labels(make):
    first, second = figure_html(make(), alt="図"), figure_html(make(), alt="図")
    assert first == second
    assert re.search(r"<(th|td class=\"k\"|caption)[^>]*>[^<]*[\u3040-\u30ff\u4e00-\u9fff][^<]*</", first)


def test_bond_split_parts_add_up_to_the_bond_column():
    fig = bond_split(1)
    trace = preset_trace(1)
    assert len(fig.tables) == len(BONDS)
    for b, table in zip(BONDS, fig.tables, strict=True):
        m = table.matrix
        assert np.array_equal(m[:, 0] + m[:, 1], m[:, 2]) and np.array_equal(m[:, 3] + m[:, 4], m[:, 5])
        assert np.array_equal(m[:, 2], trace.Q_full[:, b.column]) and np.array_equal(m[:, 5], trace.K_full[:, b.column])


def test_y_sources_rows_sum_to_y():
    table = y_sources(1, 0).tables[0]
    assert np.allclose(table.matrix[:-1].sum(axis=0), preset_trace(1).Y[0], atol=1e-15)
    assert table.rule_before_rows == {5} and table.row_labels[-1] == "= Y[T0 これ, d]"


def test_embedding_figure_prints_the_non_zero_entries_of_w_e():
    table = F.embedding_figure(preset.build_embedding()).tables[0]
    W_E = preset.build_embedding()
    assert table.matrix.tolist() == W_E.tolist() and table.hidden_zeros
    assert table.divider_before == {8, 12}  # category | feature | identity trace


def test_verdict_table_lists_every_relation():
    for sentence in SENTENCES:
        table = F.verdict_table_html(attention.relation_verdicts(sentence.number))
        assert table.count("<tr>") == 1 + len(sentence.relations)
        for v in attention.relation_verdicts(sentence.number):
            assert f"{v.weight:.3f}" in table


def test_figure_html_carries_alt_text():
    html = figure_html(F.positional_periods_figure(periods()), alt="周期の棒グラフ")
    assert 'aria-label="周期の棒グラフ"' in html


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: qkv(0), "sentence_number"),
        (lambda: concat_fig(9), "sentence_number"),
        (lambda: y_sources(1, 5), "t"),
        (lambda: table_html(["a", "b"], [["1"]]), "every row"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
