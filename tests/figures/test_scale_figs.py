"""scale_figs: every figure renders without tofu, deterministically, and draws what the math layer computed."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from matplotlib import pyplot as plt

from transformer_figures import figure_html, scale_figs, to_svg
from transformer_math import configs, counting, preset, schedules
from transformer_pages.scale import pre_ln


# What each page's snippet computes and hands to the helper.
def noam(steps=40_000, d_model=512, warmup=4000):
    step = np.arange(1, steps + 1)
    rise, decay = d_model**-0.5 * step * warmup**-1.5, d_model**-0.5 * step**-0.5
    lr = schedules.noam_lr(step, d_model, warmup)
    return scale_figs.noam_schedule(step, lr, rise, decay, (warmup, schedules.noam_peak_lr(d_model, warmup)))


def label_smoothing(label, epsilon=0.1):
    k = len(preset.VOCAB)
    onehot, smooth = np.eye(k)[label], schedules.label_smoothing_target(label, k, epsilon)
    return scale_figs.label_smoothing_figure(onehot, smooth, list(preset.VOCAB), epsilon)


def cost(d=512, n_max=4096):
    n = np.unique(np.geomspace(8, n_max, 50).astype(int))
    rows = {"attention": n**2 * d, "recurrent": n * d**2, "conv": 3 * n * d**2, "restricted": 32 * n * d}
    cross = counting.crossover_n(d)
    return scale_figs.cost_vs_n(n, rows, (cross, counting.recurrent_multiplies(cross, d)), d)


def block_shares(d=512, d_ff=2048, n_max=4096):
    n = np.unique(np.geomspace(16, n_max, 40).astype(int))
    parts = {"qkv": 3 * n * d**2, "core": 2 * n**2 * d, "o": n * d**2, "ffn": 2 * n * d * d_ff}
    return scale_figs.block_cost_breakdown(n, parts, d, d_ff)


def _all_figures():
    models = [counting.bert_params(cfg) for cfg in configs.BERT_MODELS]
    models += [counting.gpt_params(cfg) for cfg in configs.GPT_MODELS]
    n = np.array([2, 8, 64, 512])
    return {
        "noam": noam,
        "label_smoothing": lambda: label_smoothing(4),
        "cost_vs_n": cost,
        "path_length": lambda: scale_figs.path_length_vs_n(n, {"1": np.ones_like(n), "n": n}),
        "block_shares": block_shares,
        "rough_vs_exact": lambda: scale_figs.parameters_rough_vs_exact([("a", 10**6, 0, True), ("b", 10**9, 1, False)]),
        "parameter_shares": lambda: scale_figs.parameter_shares(models),
        "dot_vs_cos": lambda: scale_figs.dot_vs_cos(
            {stage: pre_ln.preset_dot_cos(stage) for stage in ("X", "ln1_out")}
        ),
    }


@functools.cache
def _first_render(name: str) -> str:
    """One render per figure and process, shared by the tests below (the fast tier renders each figure once)."""
    fig = _all_figures()[name]()
    try:
        return to_svg(fig, name)
    finally:
        plt.close(fig)


@pytest.mark.parametrize("name", list(_all_figures()))
def test_figure_follows_the_palette_and_keeps_its_labels_as_text(name):
    svg = _first_render(name)
    assert "currentColor" in svg  # axes and text follow the page palette
    assert "<text" in svg  # labels stay text, not paths


@pytest.mark.repeat
@pytest.mark.parametrize("name", list(_all_figures()))
def test_figure_renders_identically_twice(name):
    fig = _all_figures()[name]()
    try:
        again = to_svg(fig, name)
    finally:
        plt.close(fig)
    assert again == _first_render(name)


def test_noam_peak_marker_is_the_schedule_maximum():
    fig = noam(steps=20_000)
    ax = fig.axes[0]
    lr_line = next(line for line in ax.lines if line.get_linewidth() > 2)
    marker = next(line for line in ax.lines if line.get_marker() == "o")
    y = np.asarray(lr_line.get_ydata())
    assert float(marker.get_ydata()[0]) == pytest.approx(y.max(), rel=1e-12)
    assert int(marker.get_xdata()[0]) == int(np.asarray(lr_line.get_xdata())[y.argmax()])
    plt.close(fig)


def test_label_smoothing_bars_hold_the_targets():
    fig = label_smoothing(3, 0.1)
    heights = np.array([p.get_height() for p in fig.axes[0].patches])
    k = len(preset.VOCAB)
    onehot, smooth = heights[:k], heights[k:]
    np.testing.assert_array_equal(onehot, np.eye(k)[3])
    np.testing.assert_allclose(smooth, schedules.label_smoothing_target(3, k, 0.1))
    plt.close(fig)


def test_cost_vs_n_marks_the_crossover():
    fig = cost(d=256, n_max=2048)
    vline = [line for line in fig.axes[0].lines if len(set(line.get_xdata())) == 1]
    assert [line.get_xdata()[0] for line in vline] == [counting.crossover_n(256)]
    plt.close(fig)


def test_block_shares_sum_to_one():
    fig = block_shares(512, 2048, n_max=1024)
    collections = fig.axes[0].collections  # one PolyCollection per stacked band
    tops = [np.asarray(c.get_paths()[0].vertices)[:, 1].max() for c in collections]
    assert max(tops) == pytest.approx(1.0)
    plt.close(fig)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: noam(steps=4000), "must run past the peak step"),
        (lambda: scale_figs.parameter_shares([]), "models must hold at least one"),
    ],
)
def test_bad_arguments_raise(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_figure_html_has_alt_text():
    html = figure_html(cost(), alt="計算量の図")
    assert 'aria-label="計算量の図"' in html
