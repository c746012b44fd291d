"""The intuition page's figures: each fits a phone's column with every text inside and no two texts over each
other; the soft lookup keeps the two colour scales apart; bad input is refused with what is wrong."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from matplotlib.text import Text

from transformer_figures import figure_html, intuition_figs
from transformer_figures.html import PHONE_WIDTH_IN
from transformer_math import SENTENCES, preset_trace
from transformer_pages.notes import intuition

WORDS = list(SENTENCES[0].words)


def plane():
    keys = intuition.plane_keys()
    queries = {p: intuition.plane_query(p) for p in (intuition.QUERY, intuition.FLAT_QUERY)}
    scores = {p: preset_trace(1).scores[0, p] for p in queries}
    return intuition_figs.plane_figure(queries, keys, scores, WORDS)


def softmax_row():
    return intuition_figs.softmax_figure(intuition.row_scores(), intuition.row_exp(), intuition.row_weights(), WORDS)


def residual():
    x, y, total = (part[list(intuition.RESIDUAL_DIMS)] for part in intuition.residual_parts())
    return intuition_figs.residual_figure(x, y, total)


def block():
    return intuition_figs.block_figure(intuition.block_stages(), WORDS)


FIGURES = {"plane": plane, "softmax_row": softmax_row, "residual": residual, "block": block}


def _ticks_out_of_view(fig) -> set[int]:
    """Tick labels that an axis laid out beyond its view limits (never drawn)."""
    hidden = set()
    for ax in fig.axes:
        for axis, (low, high) in ((ax.xaxis, sorted(ax.get_xlim())), (ax.yaxis, sorted(ax.get_ylim()))):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                    hidden |= {id(tick.label1), id(tick.label2)}
    return hidden


def _texts(fig):
    fig.draw_without_rendering()
    hidden = _ticks_out_of_view(fig)
    texts = [t for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and t.figure is fig and id(t) not in hidden]  # fmt: skip
    boxes = [(t.get_text(), t.get_window_extent()) for t in texts]
    return [(s, box) for s, box in boxes if box.x1 > fig.bbox.x0 and box.x0 < fig.bbox.x1]


@pytest.mark.parametrize("name", FIGURES)
def test_phone_drawing_fits_the_column_with_every_text_inside_and_apart(name):
    fig = FIGURES[name]()
    html = figure_html(fig, alt="figure under test")  # leaves fig at its phone size, when it has one
    assert fig.get_figwidth() <= PHONE_WIDTH_IN + 1e-9, f"{name}: {fig.get_figwidth()} in wide on a phone"
    assert "tf-figure-wide" not in html, f"{name}: scrolls sideways on a phone"
    texts = _texts(fig)
    outside = [s for s, box in texts if box.x0 < fig.bbox.x0 - 1 or box.x1 > fig.bbox.x1 + 1]
    assert not outside, f"{name}: text past the drawing's edge: {outside}"
    overlapping = [
        (a, b)
        for (a, box_a), (b, box_b) in itertools.combinations(texts, 2)
        if min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 1
        and min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 1
    ]
    assert not overlapping, f"{name}: texts drawn over each other: {overlapping[:5]}"


def test_keys_whose_tips_meet_share_one_label():
    keys = intuition.plane_keys()
    groups = intuition_figs._tips_together(keys)
    assert sorted(j for g in groups for j in g) == list(range(len(keys)))
    together = [g for g in groups if len(g) > 1]
    assert [sorted(WORDS[j] for j in g) for g in together] == [sorted(["は", "美しい"])]


def test_the_soft_lookup_shows_weights_on_the_sequential_scale_and_values_on_the_diverging_one():
    figure = intuition_figs.lookup_figure(intuition.values(), intuition.row_weights(), intuition.lookup_output(),
                                          WORDS, chosen=intuition.KEY)  # fmt: skip
    weights, values = figure.tables
    assert weights.scale.kind == "sequential" and (weights.scale.vmin, weights.scale.vmax) == (0.0, 1.0)
    assert values.scale.kind == "diverging" and values.scale.center == 0.0
    assert values.matrix.shape == (intuition.values().shape[1], len(WORDS) + 1)
    assert np.array_equal(values.matrix[:, -1], intuition.lookup_output())


def test_bad_shapes_are_refused_with_what_is_wrong():
    with pytest.raises(ValueError, match=r"weights must be \(5,\) and output \(8,\)"):
        intuition_figs.lookup_figure(intuition.values(), np.ones(4), np.ones(8), WORDS, chosen=0)
    with pytest.raises(ValueError, match="must each hold 4 values"):
        intuition_figs.residual_figure(np.ones(3), np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="at least one"):
        intuition_figs.block_figure([], WORDS)
