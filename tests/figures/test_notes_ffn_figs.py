"""Figures and tables of the notes §5–§9 (transformer_figures.notes_ffn_figs)."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from transformer_figures import figure_html, table_html
from transformer_figures import notes_ffn_figs as F
from transformer_figures.style import raise_on_missing_glyphs
from transformer_math import SENTENCES, activations, build_preset, derivations, layernorm, ops, preset, preset_trace
from transformer_pages.notes import ffn


# What each page's snippet computes and hands to the helper.
def words(n):
    return preset.sentence(n).words


def ln1(n):
    tr = preset_trace(n)
    return F.ln1_before_after_figure(tr.residual1, tr.ln1_out, layernorm.ln1_stats(tr), words(n))


def ln2(n):
    tr = preset_trace(n)
    return F.ln2_before_after_figure(tr.ffn_out, tr.residual2, tr.ln2_out, layernorm.ln2_stats(tr), words(n))


def gelu():
    x = np.linspace(-3.0, 3.0, 601)
    return F.gelu_relu_figure(x, ops.gelu(x), ops.relu(x), ffn.GELU_THRESHOLD, activations.gelu_minimum())


def ffn_h(n):
    return F.ffn_h_figure(preset_trace(n).ffn_h, words(n))


def flow():
    tr = preset_trace(1)
    names = ("tokens", "X", "Q", "attn", "Y", "ln1_out", "ffn_h", "ffn_out", "ln2_out")
    return F.block_flow_figure([(name, "", getattr(tr, name).shape) for name in names])


FIGURES = {
    "ln1": lambda: ln1(1),
    "ln2": lambda: ln2(3),
    "ln1_stats": lambda: F.ln_stats_figure([layernorm.ln1_stats(preset_trace(s.number)) for s in SENTENCES]),
    "gelu": gelu,
    "ffn_h": lambda: ffn_h(3),
    "attribution": lambda: F.detector_attribution_figure(ffn.detector_attributions(5)),
    "pe_means": lambda: F.pe_column_mean_figure(ops.positional_encoding(5, 16).mean(axis=0)),
    "flow": flow,
}


@functools.cache
def _first_render(name: str) -> str:
    """One render per figure and process, shared by the tests below (the fast tier renders each figure once)."""
    with raise_on_missing_glyphs(name):
        return figure_html(FIGURES[name](), alt=f"test {name}")


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_renders_without_missing_glyphs(name):
    first = _first_render(name)
    assert ("<svg" in first or "<table" in first) and 'aria-label="test' in first


@pytest.mark.repeat
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_is_deterministic(name):
    assert figure_html(FIGURES[name](), alt=f"test {name}") == _first_render(name)


def test_ffn_h_figure_frames_exactly_the_firing_cells_and_names_the_detectors():
    table = ffn_h(1).tables[0]
    firing = np.argwhere(preset_trace(1).ffn_h > preset.FIRING_THRESHOLD)
    assert table.framed_cells == {(int(t), int(k)) for t, k in firing} and len(firing) > 0
    assert table.col_labels == tuple(preset.NEURON_NAMES[: F.N_USED_UNITS])


def test_ln_figure_rows_carry_mu_and_sigma():
    fig = ln1(2)
    stats = layernorm.ln1_stats(preset_trace(2))
    before, after = (t.row_notes for t in fig.tables)
    assert f"σ={stats.std_in[0]:.2f}" in before[0]
    assert all("μ=0.00" in row and "σ=1.00" in row for row in after)  # no "−0.00"
    assert len(after) == 5


def test_attribution_table_has_one_row_per_firing_detector_and_frames_the_threshold():
    threshold = ffn.GELU_THRESHOLD
    for n in (1, 2):
        rows = ffn.detector_attributions(n)
        table = F.detector_attribution_figure(rows).tables[0]
        assert table.matrix.shape == (len(rows), len(F.ATTRIBUTION_COLUMNS))
        # route 1: the four parts and the bias (columns 2 … 6) sum to ffn_pre (column 0)
        assert np.allclose(table.matrix[:, 2:7].sum(axis=1), table.matrix[:, 0], atol=1e-12)
        assert all(a.ffn_pre > threshold for a in rows)  # every row fires
        without = {(i, 1) for i, a in enumerate(rows) if a.pre_without_position <= threshold}
        assert table.dashed_cells == without
    labels = F.detector_attribution_figure(ffn.detector_attributions(2)).tables[0].row_labels
    assert any(label.endswith("· 位置") and "人気" in label for label in labels)  # 人気 h11 is position-driven


def test_table_html_escapes_cells():
    html = table_html(["a"], [["<b>"]])
    assert "&lt;b&gt;" in html and "<b>" not in html


@pytest.mark.parametrize(
    ("stage", "index", "sentence"), [("ln1_out", (3, 0), 1), ("ffn_h", (0, 13), 3), ("ln2_out", (2, 9), 3)]
)
def test_derivation_html_shows_the_derived_value(stage, index, sentence):
    trace = preset_trace(sentence)
    der = derivations.derive(trace, stage, index, build_preset())
    html = F.derivation_html(der, [f"T{t}" for t in range(5)])
    assert f"= {der.value:.4f}" in html
    assert len(re.findall(r'<div class="arithmatex">\\\[', html)) >= 3


def test_derivation_html_rejects_other_stages():
    der = derivations.derive_score(preset_trace(1), 0, 2, 3)
    with pytest.raises(ValueError, match="derivation_html supports"):
        F.derivation_html(der, ["a"] * 5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="sentence_number"):
        ffn_h(0)
    with pytest.raises(ValueError, match="no detector fires"):
        F.detector_attribution_figure(())


def test_gelu_figure_marks_the_threshold_point():
    fig = gelu()
    xs = [float(np.asarray(line.get_xdata())[0]) for line in fig.axes[0].lines if len(line.get_xdata()) == 1]
    assert any(abs(x - ffn.GELU_THRESHOLD) < 1e-12 for x in xs)
