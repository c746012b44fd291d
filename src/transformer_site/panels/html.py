"""HTML + compact JSON for the interactive panels (docs/assets/panels.js draws them).

* The scaled dot-product panel embeds every state, computed by :mod:`transformer_pages.tryit` and rounded to the
  precision the page shows, nested by control: ``states[d_k][scale][causal]``; and the softmax's gradient size
  for the readout, ``gradient[d_k][scale]`` (``tryit.sdpa_gradient``).
* The positional-encoding panel embeds its drawn waves; its values come from the kernel's W_P.
* The sentence explorer embeds the preset for the kernel (:mod:`transformer_site.panels.kernel_data`) and the labels,
  formulas and colour maps it draws with; the kernel computes every number it shows.

Data is HTML-escaped text inside a ``<template>``: never markup, never executed. The build then moves each
template's text to a file (:mod:`transformer_site.publishing.panel_data`) that panels.js fetches when the panel
starts.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache

import numpy as np

from transformer_figures.palette_data import palette_data
from transformer_math import SENTENCES, backward, derivations, ops, preset, preset_trace, preset_weights
from transformer_pages import tryit
from transformer_site.panels.kernel_data import kernel_data

TEXT = {
    "bond_knob": "結合 {b}: {name}（ヘッド {head}）の強さ",
    "knobs": {
        "single_weight": "単一次元の検出器 h0〜h11 の重み",
        "single_bias": "単一次元の検出器 h0〜h11 のバイアス",
        "and_weight": "AND 検出器 h12〜h15 の重み（2 つの入力とも）",
        "and_bias": "AND 検出器 h12〜h15 のバイアス",
        "eps": "LayerNorm の ε",
    },
    "switches": {"scale": "√d_k で割る", "causal": "因果マスク", "positions": "位置エンコーディング W_P を足す"},
    "stages": {
        "X_tok": "X_tok = W_E[トークン]", "X_pos": "X_pos = W_P", "X": "X = X_tok + X_pos", "Q": "Q = X W_Q",
        "K": "K = X W_K", "V": "V = X W_V", "scores": "scores", "attn": "attn = softmax(scores)",
        "head_out": "head_out = attn V", "Y": "Y = concat W_O", "residual1": "residual1 = X + Y",
        "ln1_out": "ln1_out = LayerNorm(residual1)", "ffn_pre": "ffn_pre = ln1_out W1 + b1",
        "ffn_h": "ffn_h = GELU(ffn_pre)",
        "ffn_out": "ffn_out = ffn_h W2 + b2", "residual2": "residual2 = ln1_out + ffn_out",
        "ln2_out": "ln2_out = LayerNorm(residual2)",
    },
    "sdpa_hint": (
        "ヒートマップ・標準偏差・最大の重みは、乱数で作って固定した 1 組の q, k（各 {n} 個）での値です。"
        "多数の乱数で平均した統計とは少しずれます。ヤコビアンと勾配の 2 つは、別に {keys} 個のキーの行を "
        "{queries:,} 本作って平均した値です（上流の勾配も平均 0・分散 1 の乱数、マスクなし。前もって計算した値）。"
    ),
    "sdpa_scale": "√d<sub>k</sub> で割る",
    "sdpa_causal": "因果マスクあり",
    "sdpa_std": "スコアの標準偏差",
    "sdpa_row_max": "各行の最大の重みの平均",
    "sdpa_jacobian": "softmax のヤコビアンの大きさ ‖∂A/∂S‖",
    "sdpa_gradient": "スコアに届く勾配 ∂L/∂S の RMS",
    "sdpa_caption": "attention の重み（行 = クエリ q<sub>i</sub>、列 = キー k<sub>j</sub>、各行の和は 1）",
    "noscript": "この図を動かすには JavaScript が必要です。",
    "pe_pair": "次元の組 i",
    "pe_position": "位置 pos",
    "pe_value": "値",
    "pe_plot": "位置 0〜{last} での sin（実線）と cos（破線）の波と、選んだ位置の点",
    "pe_wavelength": "波長 2π/ω<sub>i</sub>",
    "sentence": "文 ({T} 語)",
    "examples": "例文",
    "no_example": "（例文にない文）",
    "text": "文を入力（区切りなし・空白区切りのどちらでも）",
    "text_example": "例: これは大きい猫です",
    "compute": "この文で計算",
    "knobs_legend": "つまみ（プリセットの重み）",
    "reset": "プリセットに戻す",
    "share": "この状態へのリンク",
    "summary": "関係と検出器のまとめ",
    "stage": "段階",
    "explorer_hint": (
        "表のセルをクリックする (またはセルに移って矢印キーで動かす) と、その値の導出が表の下に出ます。"
        "選んだセルは枠で示され、つまみを動かしても選んだままです。"
    ),
    "derivation": "選んだセルの導出",
}  # fmt: skip
"""The reader-facing words of the panels (labels, legends, hints; some hold HTML: they are written into the page
as they are). The explorer's script shows the knob, switch and stage labels it is given."""

# Decimals shown on the page (and therefore stored): heatmap cells, statistics, derivations, PE values.
CELL_DECIMALS = 2
STAT_DECIMALS = 3
DERIVATION_DECIMALS = 3
PE_DECIMALS = 3
WAVELENGTH_DECIMALS = 1
SUMMARY_DECIMALS = 3
CURVE_WIDTH = 640  # SVG user units for pos 0 … 127
CURVE_HEIGHT = 160  # SVG user units for values −1 … +1 (plus margins)
CURVE_MARGIN = 10

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


def format_signed(value: float, decimals: int) -> str:
    """A difference as the summary shows it: always a sign (+ or U+2212), unless it rounds to zero."""
    text = format_value(value, decimals)
    return text if text.startswith("−") or float(text) == 0 else f"+{text}"


# ---------------------------------------------------------------- scaled dot-product panel


@lru_cache(maxsize=1)
def sdpa_data() -> dict:
    """Every state rounded to what the page prints, nested as the controls read it: ``states[d_k][scale][causal]``."""

    def state(s: tryit.SdpaState) -> dict:
        return {"weights": rounded(s.weights, CELL_DECIMALS), "std": rounded(s.scores_std, STAT_DECIMALS),
                "row_max": rounded(s.mean_row_max, STAT_DECIMALS)}  # fmt: skip

    def gradient(g) -> dict:
        return {"jacobian": rounded(g.jacobian_norm, STAT_DECIMALS), "d_scores": rounded(g.d_scores_rms, STAT_DECIMALS)}

    sweep = tryit.sdpa_gradient_sweep()
    return {
        "n": tryit.SDPA_N,
        "max_d_k": tryit.SDPA_MAX_D_K,
        # gradient[d_k][scale]: the build-time sweep's measurement, for the readout (the browser only selects it)
        "gradient": {
            str(int(d_k)): {"false": gradient(u), "true": gradient(s)}
            for d_k, s, u in zip(sweep.d_k, sweep.scaled, sweep.unscaled, strict=True)
        },
        "cell_decimals": CELL_DECIMALS,
        "stat_decimals": STAT_DECIMALS,
        "palette": palette_data()["sequential"],
        "states": {
            str(d_k): _by_flag(by_scale, lambda by_causal: _by_flag(by_causal, state))
            for d_k, by_scale in tryit.sdpa_grid().items()
        },
    }


def _by_flag(by_flag: dict, value) -> dict:
    """{False: a, True: b} → {"false": value(a), "true": value(b)}: keys as JavaScript spells a checkbox state."""
    return {json.dumps(flag): value(item) for flag, item in by_flag.items()}


# ---------------------------------------------------------------- positional-encoding panel


def _polyline(x: np.ndarray, y: np.ndarray) -> str:
    return "L".join(f"{a:.1f},{b:.1f}" for a, b in zip(x, y, strict=True))


def curve_x(pos) -> np.ndarray:
    """Position → x in the plot's user units (the same mapping panels.js applies to the marker)."""
    return np.asarray(pos, dtype=float) / (tryit.PE_POSITIONS - 1) * CURVE_WIDTH


def curve_y(value) -> np.ndarray:
    """Value in [−1, 1] → y in the plot's user units (+1 at the top margin, −1 at the bottom one)."""
    return (1.0 - np.asarray(value, dtype=float)) / 2.0 * (CURVE_HEIGHT - 2 * CURVE_MARGIN) + CURVE_MARGIN


@lru_cache(maxsize=1)
def pe_data() -> dict:
    curves = tryit.pe_curves()
    return {
        "d_model": tryit.PE_D_MODEL,
        "positions": tryit.PE_POSITIONS,
        "decimals": PE_DECIMALS,
        "wavelength_decimals": WAVELENGTH_DECIMALS,
        "width": CURVE_WIDTH,
        "height": CURVE_HEIGHT,
        "margin": CURVE_MARGIN,
        "wavelength": rounded([c.wavelength for c in curves], WAVELENGTH_DECIMALS),  # [i]
        "sin_path": ["M" + _polyline(curve_x(c.pos), curve_y(c.sin)) for c in curves],  # [i]
        "cos_path": ["M" + _polyline(curve_x(c.pos), curve_y(c.cos)) for c in curves],
    }


# ---------------------------------------------------------------- sentence explorer

KNOB_LABELS = {f"bond{b}": TEXT["bond_knob"].format(b=b, name=bond.name, head=bond.head)
               for b, bond in enumerate(preset.BONDS)} | TEXT["knobs"]  # fmt: skip
# Label names of the kernel's derivations → TeX (what a factor such as "ln1_out[3,0]" is written as).
SYMBOLS = {
    "X": "X", "X_tok": r"X_{\mathrm{tok}}", "X_pos": r"X_{\mathrm{pos}}", "Q": "Q", "K": "K", "V": "V", "Y": "Y",
    "W_E": "W_E", "W_Q": "W_Q", "W_K": "W_K", "W_V": "W_V", "W_O": "W_O", "W1": "W_1", "W2": "W_2",
    "scores": r"\mathrm{scores}", "attn": r"\mathrm{attn}", "concat": r"\mathrm{concat}",
    "residual1": r"\mathrm{residual1}", "residual2": r"\mathrm{residual2}", "ln1_out": r"\mathrm{ln1\_out}",
    "ffn_h": r"\mathrm{ffn\_h}", "ffn_pre": r"\mathrm{ffn\_pre}", "ffn_out": r"\mathrm{ffn\_out}",
    "ln2_out": r"\mathrm{ln2\_out}", "head_out": r"\mathrm{head\_out}",
}  # fmt: skip


def _column_labels(stage: str) -> list[str]:
    if stage in ("ffn_pre", "ffn_h"):
        return list(preset.NEURON_NAMES)
    if stage in tryit.SPLIT_STAGES:
        return [f"h{g // preset.D_K}·{g % preset.D_K}" for g in range(preset.N_HEADS * preset.D_K)]
    return [f"d{d} {name}" for d, name in enumerate(preset.DIM_NAMES)]


def _stages() -> list[dict]:
    return [
        {"name": stage, "label": TEXT["stages"][stage], "per_head": stage in tryit.PER_HEAD_STAGES,
         "split": stage in tryit.SPLIT_STAGES, "scale": "sequential" if stage == "attn" else "diverging",
         **({} if stage in tryit.PER_HEAD_STAGES else {"columns": _column_labels(stage)})}
        for stage in tryit.EXPLORER_STAGES
    ]  # fmt: skip


def _knobs() -> list[dict]:
    defaults = {k.name: k.default for k in preset.KNOBS}
    return [{"name": r.name, "label": KNOB_LABELS[r.name], "min": r.min, "max": r.max, "step": r.step, "log": r.log,
             "default": defaults[r.name]} for r in tryit.KNOB_RANGES]  # fmt: skip


def _intermediate_tex() -> dict[str, dict[str, str]]:
    """Formula key → {intermediate name: its TeX}, read off one derivation of each kind (the names do not vary)."""
    trace, weights = preset_trace(1), preset_weights()
    kinds = [(stage, {}) for stage in tryit.EXPLORER_STAGES]
    kinds += [("scores", {"scale": False}), ("attn", {"causal": True}), ("X_pos", {"positions": False})]
    out = {}
    for stage, switches in kinds:
        der = derivations.derive(trace, stage, (0,) * getattr(trace, stage).ndim, weights, **switches)
        key = next(k for k, formula in derivations.FORMULAS.items() if formula == der.formula)
        out[key] = {q.name: q.latex for q in der.intermediates}
    return out


@lru_cache(maxsize=1)
def explorer_data() -> dict:
    return {
        "cell_decimals": CELL_DECIMALS,
        "derivation_decimals": DERIVATION_DECIMALS,
        "summary_decimals": SUMMARY_DECIMALS,
        "n_heads": preset.N_HEADS,
        "d_k": preset.D_K,
        "stages": _stages(),
        "default_stage": "attn",
        "sentences": [{"number": s.number, "ids": s.token_ids.tolist(), "text": s.text} for s in SENTENCES],
        "knobs": _knobs(),
        "switches": [
            {"name": n, "label": TEXT["switches"][n], "default": tryit.SWITCH_DEFAULTS[n]} for n in tryit.SWITCHES
        ],
        "bonds": [{"name": b.name, "head": b.head} for b in preset.BONDS],
        "neurons": list(preset.NEURON_NAMES),
        "firing_threshold": kernel_data()["firing_threshold"],
        "tie_tolerance": kernel_data()["tie_tolerance"],
        "formulas": derivations.FORMULAS,
        "intermediate_tex": _intermediate_tex(),
        "symbols": SYMBOLS,
        "gelu_cubic": ops.GELU_CUBIC_COEFF,
        "pe_base": ops.PE_BASE,
        "d_model": preset.D_MODEL,
        "palette": palette_data(),
        "max_query_length": MAX_QUERY_LENGTH,
        "max_text_length": MAX_TEXT_LENGTH,
    }


MAX_QUERY_LENGTH = 1000  # a longer ?… state is refused before it is parsed
MAX_TEXT_LENGTH = 200  # characters the text box takes


def to_json(data: dict) -> str:
    """Compact JSON text (no NaN or infinity: every value is a finite number)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# ---------------------------------------------------------------- HTML


def _check_id(panel_id: str) -> str:
    if not isinstance(panel_id, str) or not _ID.match(panel_id):
        raise ValueError(f"panel_id must match {_ID.pattern} (it prefixes element ids), got {panel_id!r}")
    return panel_id


def _template(css_class: str, data: dict) -> str:
    """The data as HTML-escaped text in a <template>: never executed, and kept out of the search index.

    A <template>'s content is inert whatever the theme does with the page's scripts: it is never run and never
    drawn, and the build can move its text to a file (publishing.panel_data).
    """
    text = html.escape(to_json(data), quote=False)
    return f'<template class="{css_class}" data-search-exclude>{text}</template>'


def _data_script(panel_id: str, data: dict) -> str:
    return _template("tm-panel-data", data)


def kernel_template() -> str:
    """The preset for the kernel; the kernel reads the first one of the page on first use."""
    return _template("tm-kernel-data", kernel_data())


def _sdpa_hint() -> str:
    """What the SDPA panel's numbers are computed from (one line of HTML: a line break inside Japanese is a space)."""
    return TEXT["sdpa_hint"].format(n=tryit.SDPA_N, keys=backward.SQRT_DK_KEYS, queries=backward.SQRT_DK_QUERIES)


def sdpa_panel_html(panel_id: str = "sdpa") -> str:
    """Scaled dot-product panel: d_k slider, √d_k and causal-mask switches, heatmap and statistics."""
    p = _check_id(panel_id)
    data = sdpa_data()
    return f"""<div class="tm-panel" data-tm-panel="sdpa" id="{p}">
<div class="tm-controls">
<label for="{p}-dk">d<sub>k</sub>
<output id="{p}-dk-out" for="{p}-dk" data-role="dk-out">{tryit.SDPA_MAX_D_K}</output></label>
<input type="range" id="{p}-dk" data-role="dk" min="1" max="{data["max_d_k"]}" step="1" value="{tryit.SDPA_MAX_D_K}">
<label><input type="checkbox" data-role="scale" checked> {TEXT["sdpa_scale"]}</label>
<label><input type="checkbox" data-role="causal"> {TEXT["sdpa_causal"]}</label>
</div>
<dl class="tm-stats" aria-live="polite" data-role="stats">
<div><dt>{TEXT["sdpa_std"]}</dt><dd data-role="std"></dd></div>
<div><dt>{TEXT["sdpa_row_max"]}</dt><dd data-role="row-max"></dd></div>
<div><dt>{TEXT["sdpa_jacobian"]}</dt><dd data-role="jacobian"></dd></div>
<div><dt>{TEXT["sdpa_gradient"]}</dt><dd data-role="d-scores"></dd></div>
</dl>
<div class="tf-heat-scroll"><table class="tf-heat tm-heat" data-role="heatmap" data-scale="sequential"
 data-cmap="{data["palette"]["name"]}" data-vmin="0" data-vmax="1">
<caption>{TEXT["sdpa_caption"]}</caption>
</table></div>
<p class="tm-hint">{_sdpa_hint()}</p>
<noscript>{TEXT["noscript"]}</noscript>
{_data_script(p, data)}
</div>
"""


# Room around the curves (SVG user units) for the axes' ticks and labels; their text is 14 units on a desktop and
# 26 on a phone (panels.css), where the plot is drawn at about half its size.
PE_AXES_LEFT, PE_AXES_RIGHT, PE_AXES_TOP, PE_AXES_BOTTOM = 70, 24, 16, 66
PE_POSITION_TICKS = 32  # a tick every 32 positions (0, 32, 64, 96) and one at the last


def _pe_axes(data: dict) -> str:
    """The plot's axes: value ticks −1, 0, +1 and position ticks, each with its label, under the curves."""
    width, height, last = data["width"], data["height"], data["positions"] - 1
    bottom = height - data["margin"]  # where −1 is drawn (curve_y)
    parts = [
        f'<line class="tm-axis-line" x1="0" x2="0" y1="0" y2="{height}"/>',
        f'<line class="tm-axis-line" x1="0" x2="{width}" y1="{height}" y2="{height}"/>',
    ]
    for value in (1, 0, -1):
        y = float(curve_y(value))
        label = format_signed(value, 0) if value else "0"
        grid = "tm-axis" if value == 0 else "tm-grid"
        parts.append(f'<line class="{grid}" x1="0" x2="{width}" y1="{y:.1f}" y2="{y:.1f}"/>')
        parts.append(f'<line class="tm-tick" x1="-6" x2="0" y1="{y:.1f}" y2="{y:.1f}"/>')
        parts.append(f'<text class="tm-tick-label" x="-10" y="{y:.1f}" text-anchor="end" dominant-baseline="middle">'
                     f"{html.escape(label)}</text>")  # fmt: skip
    for pos in [*range(0, last, PE_POSITION_TICKS), last]:
        x = float(curve_x(pos))
        parts.append(f'<line class="tm-tick" x1="{x:.1f}" x2="{x:.1f}" y1="{height}" y2="{height + 6}"/>')
        anchor = "end" if pos == last else "middle"
        parts.append(f'<text class="tm-tick-label" x="{x:.1f}" y="{height + 10}" text-anchor="{anchor}" '
                     f'dominant-baseline="hanging">{pos}</text>')  # fmt: skip
    parts.append(f'<text class="tm-axis-label" x="{width / 2:.1f}" y="{height + PE_AXES_BOTTOM - 4}" '
                 f'text-anchor="middle">{TEXT["pe_position"]}</text>')  # fmt: skip
    middle = (float(curve_y(1)) + bottom) / 2
    parts.append(f'<text class="tm-axis-label" transform="translate({4 - PE_AXES_LEFT} {middle:.1f}) rotate(-90)" '
                 f'text-anchor="middle" dominant-baseline="hanging">{TEXT["pe_value"]}</text>')  # fmt: skip
    return "\n".join(parts)


def pe_panel_html(panel_id: str = "pe") -> str:
    """Positional-encoding panel: i and pos sliders, the sin (solid) and cos (dashed) waves, values, wavelength."""
    p = _check_id(panel_id)
    data = pe_data()
    return f"""<div class="tm-panel" data-tm-panel="pe" id="{p}">
<div class="tm-controls">
<div class="tm-row">
<label for="{p}-i">{TEXT["pe_pair"]} <output id="{p}-i-out" for="{p}-i" data-role="i-out">0</output></label>
<input type="range" id="{p}-i" data-role="i" min="0" max="{data["d_model"] // 2 - 1}" step="1" value="0">
</div>
<div class="tm-row">
<label for="{p}-pos">{TEXT["pe_position"]} <output id="{p}-pos-out" for="{p}-pos" data-role="pos-out">0</output></label>
<input type="range" id="{p}-pos" data-role="pos" min="0" max="{data["positions"] - 1}" step="1" value="0">
</div>
</div>
<svg class="tm-pe-plot" viewBox="{-PE_AXES_LEFT} {-PE_AXES_TOP} {data["width"] + PE_AXES_LEFT + PE_AXES_RIGHT}
 {data["height"] + PE_AXES_TOP + PE_AXES_BOTTOM}"
 role="img" aria-labelledby="{p}-plot-title">
<title id="{p}-plot-title">{TEXT["pe_plot"].format(last=data["positions"] - 1)}</title>
{_pe_axes(data)}
<path class="tm-sin" data-role="sin-path" d=""/>
<path class="tm-cos" data-role="cos-path" d=""/>
<line class="tm-cursor" data-role="cursor" x1="0" x2="0" y1="0" y2="{data["height"]}"/>
<circle class="tm-dot-sin" data-role="dot-sin" r="5" cx="0" cy="0"/>
<circle class="tm-dot-cos" data-role="dot-cos" r="5" cx="0" cy="0"/>
</svg>
<dl class="tm-stats" aria-live="polite">
<div><dt>PE[pos, 2i] = sin(pos·ω<sub>i</sub>)</dt><dd data-role="sin"></dd></div>
<div><dt>PE[pos, 2i+1] = cos(pos·ω<sub>i</sub>)</dt><dd data-role="cos"></dd></div>
<div><dt>{TEXT["pe_wavelength"]}</dt><dd data-role="wavelength"></dd></div>
</dl>
<noscript>{TEXT["noscript"]}</noscript>
{_data_script(p, data)}
{kernel_template()}
</div>
"""


def _knob_controls(p: str) -> str:
    rows = []
    for knob in explorer_data()["knobs"]:
        name = knob["name"]
        lo, hi, value = (np.log10(knob["min"]), np.log10(knob["max"]), np.log10(knob["default"])) if knob["log"] else (
            knob["min"], knob["max"], knob["default"])  # fmt: skip
        rows.append(
            f'<div class="tm-knob"><label for="{p}-{name}">{html.escape(knob["label"])} '
            f'<output for="{p}-{name}" data-role="knob-out" data-knob="{name}"></output></label>'
            f'<input type="range" id="{p}-{name}" data-role="knob" data-knob="{name}" min="{lo:g}" max="{hi:g}" '
            f'step="{knob["step"]:g}" value="{value:g}"></div>'
        )
    return "\n".join(rows)


def _switch_controls() -> str:
    return "\n".join(
        f'<label class="tm-switch"><input type="checkbox" data-role="switch" data-switch="{s["name"]}"'
        f"{' checked' if s['default'] else ''}> {html.escape(s['label'])}</label>"
        for s in explorer_data()["switches"]
    )




def explorer_panel_html(panel_id: str = "explorer") -> str:
    """Sentence explorer: words, knobs and switches, the live summary, a stage's heat table and its derivations."""
    p = _check_id(panel_id)
    data = explorer_data()
    presets = "".join(f'<option value="{i}">{s.number}: {html.escape(s.text)}</option>' for i, s in
                      enumerate(SENTENCES))  # fmt: skip
    words = "".join(f'<option value="{i}">{html.escape(w)}</option>' for i, w in enumerate(preset.VOCAB))
    pickers = "".join(
        f'<label class="tm-word">t = {t}<select data-role="word" data-t="{t}">{words}</select></label>'
        for t in range(preset.T)
    )
    stages = "".join(f'<option value="{s["name"]}">{html.escape(s["label"])}</option>' for s in data["stages"])
    return f"""<div class="tm-panel tm-explorer" data-tm-panel="explorer" id="{p}">
<p class="tm-message" role="alert" data-role="message" hidden></p>
<fieldset class="tm-group"><legend>{TEXT["sentence"].format(T=preset.T)}</legend>
<div class="tm-controls">
<label for="{p}-preset">{TEXT["examples"]}</label>
<select id="{p}-preset" data-role="preset"><option value="">{TEXT["no_example"]}</option>{presets}</select>
</div>
<div class="tm-words">{pickers}</div>
<form class="tm-text" data-role="text-form">
<label for="{p}-text">{TEXT["text"]}</label>
<span class="tm-text-row"><input type="text" id="{p}-text" data-role="text" maxlength="{MAX_TEXT_LENGTH}"
 autocomplete="off" spellcheck="false" placeholder="{TEXT["text_example"]}">
<button type="submit" class="md-button">{TEXT["compute"]}</button></span>
</form>
</fieldset>
<fieldset class="tm-group"><legend>{TEXT["knobs_legend"]}</legend>
<div class="tm-knobs">
{_knob_controls(p)}
</div>
<div class="tm-switches">
{_switch_controls()}
</div>
<p><button type="button" class="md-button" data-role="reset">{TEXT["reset"]}</button>
<a data-role="share" href="">{TEXT["share"]}</a></p>
</fieldset>
<section class="tm-summary" data-role="summary" aria-live="polite" aria-label="{TEXT["summary"]}"></section>
<div class="tm-controls">
<label for="{p}-stage">{TEXT["stage"]}</label>
<select id="{p}-stage" data-role="stage">{stages}</select>
</div>
<p class="tm-hint">{TEXT["explorer_hint"]}</p>
<div data-role="tables"></div>
<p class="tm-sr-only" aria-live="polite" data-role="status"></p>
<section class="tm-derivation" data-role="derivation" aria-label="{TEXT["derivation"]}"></section>
<noscript>{TEXT["noscript"]}</noscript>
{_data_script(p, data)}
{kernel_template()}
</div>
"""
