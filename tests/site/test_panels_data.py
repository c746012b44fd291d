"""The embedded panel data is src's values (rounded where the page prints them), and the HTML is well formed."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import numpy as np
import pytest

from transformer_figures.palette_data import palette_data
from transformer_figures.plots import ColourScale
from transformer_math import SENTENCES, build_preset, derivations, preset
from transformer_pages import tryit as mp
from transformer_site.panels import html as sp
from transformer_site.panels.kernel_data import kernel_data


@pytest.mark.parametrize(
    ("value", "decimals", "shown"),
    [(-0.0004, 3, "0.000"), (-1.5, 3, "−1.500"), (2, 3, "2.000"), (0.125, 2, "0.12"), (47117.24, 1, "47117.2")],
)
def test_format_value(value: float, decimals: int, shown: str) -> None:
    assert sp.format_value(value, decimals) == shown


@pytest.mark.parametrize(("value", "shown"), [(0.7734, "+0.773"), (-0.2, "−0.200"), (-0.0001, "0.000")])
def test_format_signed(value: float, shown: str) -> None:
    assert sp.format_signed(value, 3) == shown


@pytest.mark.slow  # the panel's data holds the gradient measured at 64 sizes of d_k, twice each
def test_sdpa_data_is_every_state_rounded_and_nested_by_control() -> None:
    states = sp.sdpa_data()["states"]
    assert list(states) == [str(d) for d in range(1, mp.SDPA_MAX_D_K + 1)]
    for state in mp.sdpa_states():
        shown = states[str(state.d_k)][json.dumps(state.scale)][json.dumps(state.causal)]
        assert shown["weights"] == np.round(state.weights, sp.CELL_DECIMALS).tolist()
        assert shown["std"] == round(state.scores_std, sp.STAT_DECIMALS)
        assert shown["row_max"] == round(state.mean_row_max, sp.STAT_DECIMALS)


def test_pe_data_draws_the_encoding() -> None:
    data = sp.pe_data()
    assert len(data["sin_path"]) == len(data["wavelength"]) == mp.PE_D_MODEL // 2
    curve = mp.pe_curve(5)
    first = data["sin_path"][5].split("L")[0].lstrip("M")
    assert first == f"{sp.curve_x(curve.pos[0]):.1f},{sp.curve_y(curve.sin[0]):.1f}"
    assert "sin" not in data and "points" not in data  # values come from the kernel's W_P


def test_kernel_data_is_the_preset() -> None:
    data = kernel_data()
    weights = build_preset()
    assert data["vocab"] == list(preset.VOCAB) and data["T"] == preset.T
    for name, value in data["weights"].items():
        assert np.array_equal(np.array(value), getattr(weights, name)), name
    assert data["eps"] == weights.eps and data["n_heads"] == weights.n_heads
    assert [k["name"] for k in data["knobs"]] == list(preset.KNOB_NAMES)
    assert json.loads(json.dumps(data)) == data  # plain JSON, floats round-trip exactly
    assert " " in data["whitespace"] and "\u3000" in data["whitespace"] and "a" not in data["whitespace"]


def test_explorer_data_offers_every_stage_knob_and_switch() -> None:
    data = sp.explorer_data()
    assert [s["name"] for s in data["stages"]] == list(mp.EXPLORER_STAGES)
    assert [k["name"] for k in data["knobs"]] == [r.name for r in mp.KNOB_RANGES] == list(preset.KNOB_NAMES)
    for knob in data["knobs"]:
        assert knob["min"] <= knob["default"] <= knob["max"], knob
    assert [s["ids"] for s in data["sentences"]] == [s.token_ids.tolist() for s in SENTENCES]
    kinds = set(data["intermediate_tex"])
    assert kinds <= set(derivations.FORMULAS) and set(mp.EXPLORER_STAGES) <= kinds


def test_palette_is_the_heat_tables_colour_maps() -> None:
    """panels.js picks entry min(floor(x·N), N − 1): the colour heat_table gives the same value."""
    from transformer_figures.heat_table import _hex

    palette = palette_data()
    for kind, scale in (("diverging", ColourScale.for_values(None, vmin=-2.0, vmax=2.0, center=0.0)),
                        ("sequential", ColourScale.for_values(None, vmin=0.0, vmax=1.0))):  # fmt: skip
        colours = palette[kind]["colours"]
        for value in np.linspace(scale.vmin - 0.5, scale.vmax + 0.5, 97):
            x = min(1.0, max(0.0, (value - scale.vmin) / (scale.vmax - scale.vmin)))
            assert colours[min(len(colours) - 1, int(np.floor(x * len(colours))))] == _hex(scale.rgba(value))


def test_data_text_cannot_end_its_template() -> None:
    text = sp._data_script("x", {"a": "</template><b>&"})
    assert text.count("</template>") == 1 and "&lt;/template&gt;&lt;b&gt;&amp;" in text


class _Controls(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids, self.label_for, self.controls, self.open_labels, self.wrapped = set(), set(), [], 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids.add(a["id"])
        if tag == "label":
            self.open_labels += 1
            if "for" in a:
                self.label_for.add(a["for"])
        if tag in ("input", "select"):
            self.controls.append((a.get("id"), self.open_labels > 0))

    def handle_endtag(self, tag):
        if tag == "label":
            self.open_labels -= 1


@pytest.mark.parametrize(
    "make",
    [pytest.param(sp.sdpa_panel_html, marks=pytest.mark.slow), sp.pe_panel_html, sp.explorer_panel_html],
)  # the SDPA panel: its data holds the gradient measured at 64 sizes of d_k, twice each
def test_panel_html_is_labelled_and_carries_its_data(make) -> None:
    text = make()
    parser = _Controls()
    parser.feed(text)
    assert parser.controls
    for control_id, wrapped in parser.controls:
        assert wrapped or control_id in parser.label_for, f"control {control_id} has no label"
    blocks = re.findall(r'<template class="tm-panel-data" data-search-exclude>(.*?)</template>', text, re.S)
    assert len(blocks) == 1 and "<" not in blocks[0]
    assert json.loads(html.unescape(blocks[0])) == json.loads(json.dumps(_data_of(make)))


def _data_of(make) -> dict:
    return {sp.sdpa_panel_html: sp.sdpa_data, sp.pe_panel_html: sp.pe_data, sp.explorer_panel_html: sp.explorer_data}[
        make
    ]()


@pytest.mark.parametrize("make", [sp.pe_panel_html, sp.explorer_panel_html])
def test_panels_that_compute_carry_the_kernels_preset(make) -> None:
    blocks = re.findall(r'<template class="tm-kernel-data" data-search-exclude>(.*?)</template>', make(), re.S)
    assert len(blocks) == 1 and json.loads(html.unescape(blocks[0])) == json.loads(json.dumps(kernel_data()))


def test_bad_panel_id() -> None:
    with pytest.raises(ValueError, match="panel_id must match"):
        sp.sdpa_panel_html("Bad Id")
