"""The embedded panel data is src's values rounded to the displayed precision, and the HTML is well formed."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import numpy as np
import pytest

from transformer_math import SENTENCES, build_preset, preset_trace
from transformer_math import derivations as dv
from transformer_math import panels as mp
from transformer_site import panels as sp


@pytest.mark.parametrize(
    ("value", "decimals", "shown"),
    [(-0.0004, 3, "0.000"), (-1.5, 3, "−1.500"), (2, 3, "2.000"), (0.125, 2, "0.12"), (47117.24, 1, "47117.2")],
)
def test_format_value(value: float, decimals: int, shown: str) -> None:
    assert sp.format_value(value, decimals) == shown


def test_sdpa_data_is_every_state_rounded() -> None:
    data = sp.sdpa_data()
    for state in mp.sdpa_states():
        i = sp.sdpa_state_index(state.d_k, state.scale, state.causal)
        assert data["weights"][i] == np.round(state.weights, sp.CELL_DECIMALS).tolist()
        assert data["std"][i] == round(state.scores_std, sp.STAT_DECIMALS)
        assert data["row_max"][i] == round(state.mean_row_max, sp.STAT_DECIMALS)


def test_pe_data_values() -> None:
    data = sp.pe_data()
    table = mp.pe_table()
    assert data["sin"][5][77] == round(table[77, 10], sp.PE_DECIMALS)
    assert data["cos"][31][127] == round(table[127, 63], sp.PE_DECIMALS)
    assert len(data["sin_path"]) == len(data["wavelength"]) == mp.PE_D_MODEL // 2


@pytest.mark.parametrize("number", range(1, len(SENTENCES) + 1))
def test_explorer_derivations_resolve_to_src(number: int) -> None:
    sentence = sp.explorer_data()["sentences"][number - 1]
    trace, weights = preset_trace(number), build_preset()
    for stage in dv.STAGES:
        cells = sentence["derivations"][stage]
        ders = dv.derive_all(trace, stage, weights)
        assert len(cells) == len(ders)
        for (termset, n_zero, inter, value), der in zip(cells, ders, strict=True):
            terms = sentence["termsets"][termset]
            assert [t[0] for t in terms] == [t.label for t in der.terms]
            assert [t[1] for t in terms] == [round(t.value, sp.DERIVATION_DECIMALS) + 0.0 for t in der.terms]
            assert n_zero == der.n_zero_terms
            assert inter == [round(q.value, sp.DERIVATION_DECIMALS) + 0.0 for q in der.intermediates]
            assert value == round(der.value, sp.DERIVATION_DECIMALS) + 0.0
    for stage in mp.EXPLORER_STAGES:
        expected = np.round(mp.explorer_matrix(trace, stage), sp.CELL_DECIMALS) + 0.0
        assert sentence["stages"][stage] == expected.tolist()


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


@pytest.mark.parametrize("make", [sp.sdpa_panel_html, sp.pe_panel_html, sp.explorer_panel_html])
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


def test_bad_panel_id() -> None:
    with pytest.raises(ValueError, match="panel_id must match"):
        sp.sdpa_panel_html("Bad Id")
