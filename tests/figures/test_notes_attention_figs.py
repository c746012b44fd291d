"""Figures of the notes §0–§4: they render in the house style and show what the pages say they show."""

from __future__ import annotations

import re

import numpy as np
import pytest
from matplotlib import pyplot as plt
from matplotlib.patches import Rectangle

from transformer_figures import figure_html, to_svg
from transformer_figures import notes_attention_figs as F
from transformer_math import SENTENCES, analysis_attention, preset_trace
from transformer_math.preset import BONDS, D_K


@pytest.fixture(autouse=True)
def _close_figures():
    """Tests inspect Figure objects without showing them: close them, or pyplot keeps every one alive."""
    yield
    plt.close("all")


def _frames(fig) -> list[Rectangle]:
    return [p for ax in fig.axes for p in ax.patches if isinstance(p, Rectangle) and not p.get_fill()]


def test_qkv_figure_frames_exactly_the_bond_columns():
    fig = F.qkv_figure(1)
    frames = _frames(fig)
    # one frame per bond in Q and one in K
    assert len(frames) == 2 * len(BONDS)
    framed_k = sorted(int(r.get_x()) for r in frames)
    assert framed_k == sorted(2 * [b.column % D_K for b in BONDS])


def test_attention_figure_frames_each_relation_and_a_lost_winner():
    fig = F.attention_relations_figure(3)
    frames = _frames(fig)
    verdicts = analysis_attention.relation_verdicts(3)
    # the same frames on the scores and on the attn heatmaps
    assert len(frames) == 2 * (len(verdicts) + sum(not v.wins for v in verdicts))
    cells = {(int(r.get_y()), int(r.get_x())) for r in frames}
    assert {(v.query_pos, v.key_pos) for v in verdicts} <= cells


def test_heatmap_values_are_the_trace_values():
    # the numbers printed in the concat figure are the trace's concat, formatted
    fig = F.concat_figure(2)
    printed = [t.get_text() for t in fig.axes[0].texts]
    expected = [f"{v:.2f}".replace("-", "−") for v in preset_trace(2).concat.ravel()]
    assert printed == expected


def test_zero_cells_are_not_labelled_in_q():
    fig = F.qkv_figure(1)
    q_head0 = preset_trace(1).Q[:, 0, :]
    assert len(fig.axes[0].texts) == int(np.count_nonzero(q_head0))


def test_waves_title_gives_each_period():
    fig = F.positional_waves_figure()
    titles = [ax.get_title() for ax in fig.axes]
    for title, period in zip(titles, analysis_attention.pe_periods(), strict=True):
        assert f"{period:,.1f}" in title


@pytest.mark.parametrize(
    "make",
    [F.embedding_figure, F.positional_heatmap_figure, F.positional_periods_figure, lambda: F.x_decomposition_figure(8),
     lambda: F.bond_split_figure(5), lambda: F.y_sources_figure(6, 0)],
)  # fmt: skip
def test_figures_render_to_deterministic_svg_with_japanese_text(make):
    first, second = to_svg(make()), to_svg(make())
    assert first == second
    assert re.search(r">[^<]*[\u3040-\u30ff\u4e00-\u9fff][^<]*</text>", first)


def test_verdict_table_lists_every_relation():
    for sentence in SENTENCES:
        table = F.verdict_table_html(sentence.number)
        assert table.count("<tr>") == 1 + len(sentence.relations)
        for v in analysis_attention.relation_verdicts(sentence.number):
            assert f"{v.weight:.3f}" in table


def test_figure_html_carries_alt_text():
    html = figure_html(F.positional_periods_figure(), alt="周期の棒グラフ")
    assert 'aria-label="周期の棒グラフ"' in html


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: F.qkv_figure(0), "sentence_number"),
        (lambda: F.concat_figure(9), "sentence_number"),
        (lambda: F.y_sources_figure(1, 5), "t"),
        (lambda: F.table_html(["a", "b"], [["1"]]), "every row"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
