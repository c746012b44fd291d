"""Phone drawings (figure_html's second SVG, 3.4 in wide): every text inside the figure, and no two texts of a
figure drawn over each other — the long-label bar charts, the training schedule and the tick rows that were
cramped at 390 px."""

from __future__ import annotations

import itertools

import pytest
from matplotlib.text import Text
from test_scale_figs import label_smoothing, noam

from transformer_figures import chapter_figs, figure_html, scale_figs
from transformer_figures.html import PHONE_MIN_TEXT_PT, PHONE_WIDTH_IN
from transformer_figures.notes_attention_figs import positional_periods_figure
from transformer_math import configs, counting, ops


def rough_vs_exact():
    d, d_ff = 512, 2048
    rows = [
        ("ブロック（ノートの概算 2Mi）", counting.ROUGH_BLOCK_ESTIMATE, 0, True),
        ("ブロック（重みのみ・厳密）", counting.block_params(d, d_ff, bias=False, layer_norm=False), 0, False),
        ("パーセプトロン（ノートの概算 64Gi）", counting.ROUGH_PERCEPTRON_ESTIMATE, 1, True),
        ("パーセプトロン（$512^4$・厳密）", (512 * d) ** 2, 1, False),
    ]
    return scale_figs.parameters_rough_vs_exact(rows)


def shares():
    models = [counting.bert_params(cfg) for cfg in configs.BERT_MODELS]
    return scale_figs.parameter_shares(models + [counting.gpt_params(cfg) for cfg in configs.GPT_MODELS])


def periods():
    return positional_periods_figure(ops.pe_wavelengths(16))  # the notes' d_model = 16


FIGURES = {"rough_vs_exact": rough_vs_exact, "shares": shares, "noam": noam, "periods": periods,
           "label_smoothing": lambda: label_smoothing(3)}  # fmt: skip


def _phone_drawing(make):
    fig = make()
    figure_html(fig, alt="phone drawing under test")  # leaves fig at its phone size (closed, still drawable)
    assert fig.get_figwidth() == pytest.approx(PHONE_WIDTH_IN)
    fig.draw_without_rendering()
    return fig


def _texts(fig):
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip() and t.figure is fig]
    boxes = [(t.get_text(), t.get_window_extent()) for t in texts]
    # ticks beyond the axes' view limits are laid out far outside the figure and never drawn
    return [(s, box) for s, box in boxes if box.x1 > fig.bbox.x0 and box.x0 < fig.bbox.x1]


@pytest.mark.parametrize("name", FIGURES)
def test_phone_drawing_keeps_every_text_inside_and_apart(name):
    fig = _phone_drawing(FIGURES[name])
    texts = _texts(fig)
    assert texts, f"{name}: the phone drawing has no text"
    outside = [s for s, box in texts if box.x0 < fig.bbox.x0 - 1 or box.x1 > fig.bbox.x1 + 1]
    assert not outside, f"{name}: text past the phone drawing's edge: {outside}"
    overlapping = [
        (a, b)
        for (a, box_a), (b, box_b) in itertools.combinations(texts, 2)
        if box_a.width and box_b.width and box_a.overlaps(box_b)
        and min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 1
        and min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 1
    ]  # fmt: skip
    assert not overlapping, f"{name}: texts drawn over each other: {overlapping[:5]}"


@pytest.mark.parametrize("name", ["rough_vs_exact", "shares"])
def test_long_bar_names_sit_above_their_bars_on_a_phone(name):
    fig = _phone_drawing(FIGURES[name])
    ax = fig.axes[0]
    assert not [t for t in ax.get_yticklabels() if t.get_text()], "names still take the width left of the bars"
    left = min(p.get_window_extent().x0 for p in ax.patches)
    assert left - fig.bbox.x0 < 0.1 * fig.bbox.width, "the bars do not start near the left edge of the column"


def _block_flow_phone():
    from transformer_figures.notes_ffn_figs import block_flow_phone_figure

    stages = [("X = W_E[tokens] + W_P", "埋め込み + 位置", (5, 16)),
              ("out = attn·V → concat → Y = concat·W_O", "ヘッドを連結", (5, 16))] * 5  # fmt: skip
    return block_flow_phone_figure(stages[:9])


HAND_PLACED = {"architecture": lambda: chapter_figs.architecture_phone_figure(configs.TRANSFORMER_BASE),
               "block_flow": _block_flow_phone}  # fmt: skip


@pytest.mark.parametrize("name", HAND_PLACED)
def test_a_hand_placed_diagram_has_its_own_phone_drawing_with_every_text_inside_and_apart(name):
    """Diagrams whose boxes are placed by hand give figure_html their own phone drawing (the architecture's two
    stacks one above the other): it is the phone's width, shown instead of a sideways scroller."""
    desktop = chapter_figs.architecture_figure(configs.TRANSFORMER_BASE)
    out = figure_html(desktop, alt="test", phone=HAND_PLACED[name]())
    assert 'class="tf-figure tf-figure-phone"' in out and "tf-figure-wide" not in out
    fig = HAND_PLACED[name]()
    assert fig.get_figwidth() <= PHONE_WIDTH_IN
    fig.draw_without_rendering()
    texts = _texts(fig)
    outside = [s for s, box in texts if box.x0 < fig.bbox.x0 - 1 or box.x1 > fig.bbox.x1 + 1]
    assert not outside, f"{name}: text past the phone drawing's edge: {outside}"
    assert all(t.get_fontsize() >= PHONE_MIN_TEXT_PT for t in fig.findobj(Text) if t.get_text().strip())
    overlapping = [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(texts, 2)
                   if min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 1
                   and min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 1]  # fmt: skip
    assert not overlapping, f"{name}: texts drawn over each other: {overlapping[:5]}"


def test_a_phone_drawing_wider_than_the_column_is_refused():
    import matplotlib.pyplot as plt

    too_wide = plt.figure(figsize=(PHONE_WIDTH_IN + 1, 2))
    with pytest.raises(ValueError, match=r"the phone drawing is .* wide; a phone's column takes"):
        figure_html(chapter_figs.architecture_figure(configs.TRANSFORMER_BASE), alt="test", phone=too_wide)
