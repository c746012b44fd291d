"""scale_figs: every figure renders without tofu, deterministically, and draws what the math layer computed."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib import pyplot as plt

from transformer_figures import figure_html, scale_figs, to_svg
from transformer_math import comparisons, configs, counting, preset, schedules


def _all_figures():
    models = [counting.bert_params(cfg) for cfg in configs.BERT_MODELS]
    models += [counting.gpt_params(cfg) for cfg in configs.GPT_MODELS]
    return {
        "noam": lambda: scale_figs.noam_schedule(),
        "label_smoothing": lambda: scale_figs.label_smoothing_target(4, list(preset.VOCAB)),
        "cost_vs_n": lambda: scale_figs.cost_vs_n(),
        "path_length": lambda: scale_figs.path_length_vs_n(),
        "block_shares": lambda: scale_figs.block_cost_breakdown(),
        "rough_vs_exact": lambda: scale_figs.parameters_rough_vs_exact(),
        "parameter_shares": lambda: scale_figs.parameter_shares(models),
        "dot_vs_cos": lambda: scale_figs.dot_vs_cos(),
    }


@pytest.mark.parametrize("name", list(_all_figures()))
def test_figure_renders_identically_twice(name):
    make = _all_figures()[name]
    first, second = make(), make()
    try:
        svg1, svg2 = to_svg(first, name), to_svg(second, name)
    finally:
        plt.close(first)
        plt.close(second)
    assert svg1 == svg2
    assert "currentColor" in svg1  # axes and text follow the page palette
    assert "<text" in svg1  # labels stay text, not paths


def test_noam_peak_marker_is_the_schedule_maximum():
    fig = scale_figs.noam_schedule(steps=20_000)
    ax = fig.axes[0]
    lr_line = next(line for line in ax.lines if line.get_linewidth() > 2)
    marker = next(line for line in ax.lines if line.get_marker() == "o")
    y = np.asarray(lr_line.get_ydata())
    assert float(marker.get_ydata()[0]) == pytest.approx(y.max(), rel=1e-12)
    assert int(marker.get_xdata()[0]) == int(np.asarray(lr_line.get_xdata())[y.argmax()])
    plt.close(fig)


def test_label_smoothing_bars_hold_the_targets():
    fig = scale_figs.label_smoothing_target(3, list(preset.VOCAB), 0.1)
    heights = np.array([p.get_height() for p in fig.axes[0].patches])
    k = len(preset.VOCAB)
    onehot, smooth = heights[:k], heights[k:]
    np.testing.assert_array_equal(onehot, np.eye(k)[3])
    np.testing.assert_allclose(smooth, schedules.label_smoothing_target(3, k, 0.1))
    plt.close(fig)


def test_cost_vs_n_marks_the_crossover():
    fig = scale_figs.cost_vs_n(d=256, n_max=2048)
    vline = [line for line in fig.axes[0].lines if len(set(line.get_xdata())) == 1]
    assert [line.get_xdata()[0] for line in vline] == [comparisons.crossover_n(256)]
    plt.close(fig)


def test_block_shares_sum_to_one():
    fig = scale_figs.block_cost_breakdown(512, 2048, n_max=1024)
    collections = fig.axes[0].collections  # one PolyCollection per stacked band
    tops = [np.asarray(c.get_paths()[0].vertices)[:, 1].max() for c in collections]
    assert max(tops) == pytest.approx(1.0)
    plt.close(fig)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: scale_figs.noam_schedule(steps=4000), "steps must exceed warmup"),
        (lambda: scale_figs.parameter_shares([]), "models must hold at least one"),
    ],
)
def test_bad_arguments_raise(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_figure_html_has_alt_text():
    html = figure_html(scale_figs.cost_vs_n(), alt="計算量の図")
    assert 'aria-label="計算量の図"' in html
