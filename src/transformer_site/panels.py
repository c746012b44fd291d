"""HTML + compact JSON for the interactive panels (docs/assets/panels.js draws them).

The data is computed by :mod:`transformer_math.panels` and :mod:`transformer_math.derivations` and rounded
here to exactly the precision the page displays, so the browser never computes a number: it selects an
entry and formats it with the stated number of decimals.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache

import numpy as np

from transformer_math import SENTENCES, build_preset, preset, preset_trace
from transformer_math import derivations as dv
from transformer_math import panels as mp

# Decimals shown on the page (and therefore stored): heatmap cells, statistics, derivations, PE values.
CELL_DECIMALS = 2
STAT_DECIMALS = 3
DERIVATION_DECIMALS = 3
PE_DECIMALS = 3
WAVELENGTH_DECIMALS = 1
CURVE_WIDTH = 640  # SVG user units for pos 0 … 127
CURVE_HEIGHT = 160  # SVG user units for values −1 … +1 (plus margins)

_ID = re.compile(r"^[a-z][a-z0-9-]*$")


def rounded(values: object, decimals: int) -> object:
    """Nested lists of floats rounded to ``decimals``; −0.0 becomes 0.0 (the page shows no negative zero)."""
    arr = np.round(np.asarray(values, dtype=np.float64), decimals) + 0.0
    return arr.tolist()


def format_value(value: float, decimals: int) -> str:
    """How the page shows a number: U+2212 for negatives, no '+', no negative zero (mirrors panels.js fmt)."""
    r = round(float(value), decimals) + 0.0
    text = f"{abs(r):.{decimals}f}"
    return f"−{text}" if r < 0 else text


# ---------------------------------------------------------------- data


def sdpa_state_index(d_k: int, scale: bool, causal: bool) -> int:
    """Position of a setting in ``sdpa_data()['states']`` (the order of mp.sdpa_states())."""
    return ((d_k - 1) * 2 + int(scale)) * 2 + int(causal)


@lru_cache(maxsize=1)
def sdpa_data() -> dict:
    states = mp.sdpa_states()
    return {
        "n": mp.SDPA_N,
        "max_d_k": mp.SDPA_MAX_D_K,
        "cell_decimals": CELL_DECIMALS,
        "stat_decimals": STAT_DECIMALS,
        "weights": [rounded(s.weights, CELL_DECIMALS) for s in states],
        "std": [rounded(s.scores_std, STAT_DECIMALS) for s in states],
        "row_max": [rounded(s.mean_row_max, STAT_DECIMALS) for s in states],
    }


def _polyline(x: np.ndarray, y: np.ndarray) -> str:
    return "L".join(f"{a:.1f},{b:.1f}" for a, b in zip(x, y, strict=True))


def pe_point(pos: int, value: float) -> tuple[float, float]:
    """The marker's (x, y) in the same user units as the curves."""
    return (
        round(pos / (mp.PE_POSITIONS - 1) * CURVE_WIDTH, 1),
        round((1.0 - value) / 2.0 * (CURVE_HEIGHT - 20) + 10, 1),
    )


@lru_cache(maxsize=1)
def pe_data() -> dict:
    table = mp.pe_table()  # (positions, d_model)
    curves = mp.pe_curves()
    n_pairs = mp.PE_D_MODEL // 2
    points = [
        [[*pe_point(p, table[p, 2 * i]), *pe_point(p, table[p, 2 * i + 1])[1:]] for p in range(mp.PE_POSITIONS)]
        for i in range(n_pairs)
    ]  # [i][pos] = [x, y_sin, y_cos]
    return {
        "d_model": mp.PE_D_MODEL,
        "positions": mp.PE_POSITIONS,
        "decimals": PE_DECIMALS,
        "wavelength_decimals": WAVELENGTH_DECIMALS,
        "width": CURVE_WIDTH,
        "height": CURVE_HEIGHT,
        "sin": [rounded(table[:, 2 * i], PE_DECIMALS) for i in range(n_pairs)],  # [i][pos]
        "cos": [rounded(table[:, 2 * i + 1], PE_DECIMALS) for i in range(n_pairs)],
        "wavelength": rounded([c.wavelength for c in curves], WAVELENGTH_DECIMALS),
        "sin_path": ["M" + _polyline(*_xy(c.pos, c.sin)) for c in curves],
        "cos_path": ["M" + _polyline(*_xy(c.pos, c.cos)) for c in curves],
        "points": points,
    }


def _xy(pos: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return pos / (mp.PE_POSITIONS - 1) * CURVE_WIDTH, (1.0 - values) / 2.0 * (CURVE_HEIGHT - 20) + 10


def _column_labels(stage: str) -> list[str]:
    if stage in ("ffn_pre", "ffn_h"):
        return list(preset.NEURON_NAMES)
    if stage in mp.SPLIT_STAGES:
        return [f"h{g // preset.D_K}·{g % preset.D_K}" for g in range(preset.N_HEADS * preset.D_K)]
    return [f"d{d} {name}" for d, name in enumerate(preset.DIM_NAMES)]


def _stage_meta() -> dict:
    meta = {}
    for stage in mp.EXPLORER_STAGES:
        entry: dict = {"per_head": stage in mp.PER_HEAD_STAGES}
        if not entry["per_head"]:
            entry["columns"] = _column_labels(stage)
        if stage in dv.STAGES:
            sample = dv.derive(preset_trace(1), stage, (0, 0, 0) if entry["per_head"] else (0, 0))
            entry["formula"] = sample.formula
            entry["intermediates"] = [[q.name, q.latex] for q in sample.intermediates]
        meta[stage] = entry
    return meta


def _sentence_data(number: int, weights) -> dict:
    trace = preset_trace(number)
    stages, scales = {}, {}
    for stage in mp.EXPLORER_STAGES:
        m = mp.explorer_matrix(trace, stage)
        stages[stage] = rounded(m, CELL_DECIMALS)
        scales[stage] = rounded(float(np.max(np.abs(m))) or 1.0, STAT_DECIMALS)  # colour scale of the heatmap
    termsets: list = []
    seen: dict[str, int] = {}
    derivations: dict[str, list] = {}
    for stage in dv.STAGES:
        cells = []
        for der in dv.derive_all(trace, stage, weights):
            terms = [
                [t.label, _r(t.value), [[f.label, _r(f.value)] for f in t.factors]]
                for t in der.terms
            ]  # fmt: skip
            key = json.dumps(terms, ensure_ascii=False)
            if key not in seen:  # the cells of one LayerNorm row (or one softmax row) share their terms
                seen[key] = len(termsets)
                termsets.append(terms)
            cells.append([seen[key], der.n_zero_terms, [_r(q.value) for q in der.intermediates], _r(der.value)])
        derivations[stage] = cells  # C order of the trace's array
    return {
        "number": number,
        "words": list(SENTENCES[number - 1].words),
        "stages": stages,
        "scales": scales,
        "termsets": termsets,
        "derivations": derivations,
    }


def _r(x: float) -> float:
    return round(float(x), DERIVATION_DECIMALS) + 0.0


@lru_cache(maxsize=1)
def explorer_data() -> dict:
    weights = build_preset()
    return {
        "cell_decimals": CELL_DECIMALS,
        "derivation_decimals": DERIVATION_DECIMALS,
        "n_heads": preset.N_HEADS,
        "stages": list(mp.EXPLORER_STAGES),
        "derivable": list(dv.STAGES),
        "meta": _stage_meta(),
        "sentences": [_sentence_data(s.number, weights) for s in SENTENCES],
    }


def to_json(data: dict) -> str:
    """Compact JSON text (no NaN or infinity: every value is a finite number)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# ---------------------------------------------------------------- HTML


def _check_id(panel_id: str) -> str:
    if not isinstance(panel_id, str) or not _ID.match(panel_id):
        raise ValueError(f"panel_id must match {_ID.pattern} (it prefixes element ids), got {panel_id!r}")
    return panel_id


def _data_script(panel_id: str, data: dict) -> str:
    """The data as HTML-escaped text in a <template>: never executed, and kept out of the search index.

    Not <script type="application/json">: Material's instant navigation re-creates every <script> of the new
    page as a plain JavaScript one, which would run the JSON (a SyntaxError) and drop its class.
    """
    text = html.escape(to_json(data), quote=False)
    return f'<template class="tm-panel-data" data-search-exclude>{text}</template>'


def sdpa_panel_html(panel_id: str = "sdpa") -> str:
    """Scaled dot-product panel: d_k slider, √d_k and causal-mask switches, heatmap and statistics."""
    p = _check_id(panel_id)
    data = sdpa_data()
    return f"""<div class="tm-panel" data-tm-panel="sdpa" id="{p}">
<div class="tm-controls">
<label for="{p}-dk">d<sub>k</sub>
<output id="{p}-dk-out" for="{p}-dk" data-role="dk-out">{mp.SDPA_MAX_D_K}</output></label>
<input type="range" id="{p}-dk" data-role="dk" min="1" max="{data["max_d_k"]}" step="1" value="{mp.SDPA_MAX_D_K}">
<label><input type="checkbox" data-role="scale" checked> √d<sub>k</sub> で割る</label>
<label><input type="checkbox" data-role="causal"> 因果マスクあり</label>
</div>
<dl class="tm-stats" aria-live="polite" data-role="stats">
<div><dt>スコアの標準偏差</dt><dd data-role="std"></dd></div>
<div><dt>各行の最大の重みの平均</dt><dd data-role="row-max"></dd></div>
</dl>
<div class="tm-table-wrap"><table class="tm-heatmap" data-role="heatmap">
<caption>attention の重み（行 = クエリ q<sub>i</sub>、列 = キー k<sub>j</sub>、各行の和は 1）</caption>
</table></div>
<p class="tm-hint">乱数の種 {mp.SDPA_SEED} で固定した 1 組の q, k（各 {mp.SDPA_N} 個）での値です。
多数の乱数で平均した統計とは少しずれます。</p>
<noscript>この図を動かすには JavaScript が必要です。</noscript>
{_data_script(p, data)}
</div>
"""


def pe_panel_html(panel_id: str = "pe") -> str:
    """Positional-encoding panel: i and pos sliders, the sin (solid) and cos (dashed) waves, values, wavelength."""
    p = _check_id(panel_id)
    data = pe_data()
    return f"""<div class="tm-panel" data-tm-panel="pe" id="{p}">
<div class="tm-controls">
<label for="{p}-i">次元の組 i <output id="{p}-i-out" for="{p}-i" data-role="i-out">0</output></label>
<input type="range" id="{p}-i" data-role="i" min="0" max="{data["d_model"] // 2 - 1}" step="1" value="0">
<label for="{p}-pos">位置 pos <output id="{p}-pos-out" for="{p}-pos" data-role="pos-out">0</output></label>
<input type="range" id="{p}-pos" data-role="pos" min="0" max="{data["positions"] - 1}" step="1" value="0">
</div>
<svg class="tm-pe-plot" viewBox="-4 0 {data["width"] + 8} {data["height"]}" role="img"
 aria-labelledby="{p}-plot-title">
<title id="{p}-plot-title">位置 0〜{data["positions"] - 1} での sin（実線）と cos（破線）の波と、選んだ位置の点</title>
<line class="tm-axis" x1="0" x2="{data["width"]}" y1="{data["height"] / 2}" y2="{data["height"] / 2}"/>
<path class="tm-sin" data-role="sin-path" d=""/>
<path class="tm-cos" data-role="cos-path" d=""/>
<line class="tm-cursor" data-role="cursor" x1="0" x2="0" y1="0" y2="{data["height"]}"/>
<circle class="tm-dot-sin" data-role="dot-sin" r="5" cx="0" cy="0"/>
<circle class="tm-dot-cos" data-role="dot-cos" r="5" cx="0" cy="0"/>
</svg>
<dl class="tm-stats" aria-live="polite">
<div><dt>PE[pos, 2i] = sin(pos·ω<sub>i</sub>)</dt><dd data-role="sin"></dd></div>
<div><dt>PE[pos, 2i+1] = cos(pos·ω<sub>i</sub>)</dt><dd data-role="cos"></dd></div>
<div><dt>波長 2π/ω<sub>i</sub></dt><dd data-role="wavelength"></dd></div>
</dl>
<noscript>この図を動かすには JavaScript が必要です。</noscript>
{_data_script(p, data)}
</div>
"""


EXPLORER_HINT = (
    "✎ の付いた段階（scores, attn, ln1_out, ffn_h, ln2_out）では、"
    "セルをクリックするか Tab で選ぶと、その値の導出が下に出ます。"
)


def explorer_panel_html(panel_id: str = "explorer") -> str:
    """Sentence explorer: sentence and stage selectors, the stage's heatmap, click-to-derive."""
    p = _check_id(panel_id)
    data = explorer_data()
    sentence_options = "".join(
        f'<option value="{i}">{s.number}: {html.escape(s.text)}</option>' for i, s in enumerate(SENTENCES)
    )
    stage_options = "".join(
        f'<option value="{st}"{" selected" if st == "attn" else ""}>{st}{" ✎" if st in dv.STAGES else ""}</option>'
        for st in mp.EXPLORER_STAGES
    )
    return f"""<div class="tm-panel" data-tm-panel="explorer" id="{p}">
<div class="tm-controls">
<label for="{p}-sentence">例文</label>
<select id="{p}-sentence" data-role="sentence">{sentence_options}</select>
<label for="{p}-stage">段階</label>
<select id="{p}-stage" data-role="stage">{stage_options}</select>
</div>
<p class="tm-hint">{EXPLORER_HINT}</p>
<div class="tm-table-wrap" data-role="tables"></div>
<p class="tm-sr-only" aria-live="polite" data-role="status"></p>
<section class="tm-derivation" data-role="derivation" aria-label="選んだセルの導出"></section>
<noscript>この図を動かすには JavaScript が必要です。</noscript>
{_data_script(p, data)}
</div>
"""
