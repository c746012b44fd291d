"""docs/notes/07-layernorm2.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import preset, preset_trace, preset_weights

from .. import which

SENTENCE, TOKEN, DIM = 3, 2, 0
"""The residual question: sentence 3, 猫 (T2), its noun dimension d0."""


def ffn_out_noun() -> float:
    """ffn_out[2, 0] of sentence 3: what the FFN added, = residual2 − ln1_out."""
    return float(preset_trace(SENTENCE).ffn_out[TOKEN, DIM])


def ffn_out_noun_from_shown() -> float:
    trace = preset_trace(SENTENCE)
    return round(float(trace.residual2[TOKEN, DIM]), 3) - round(float(trace.ln1_out[TOKEN, DIM]), 3)


WRITE_SENTENCE, WRITE_TOKEN, BEAUTY, BEAUTY_UNIT, AND_UNIT = 1, 3, 8, 8, 12
"""The write-back question: sentence 1, 花 (T3), dimension d8 (beauty), from h8 and the AND detector h12."""


def write_back_terms() -> tuple[float, float]:
    h = preset_trace(WRITE_SENTENCE).ffn_h[WRITE_TOKEN]
    return float(h[BEAUTY_UNIT]), float(h[AND_UNIT])


def beauty_write_back() -> float:
    return float(preset_trace(WRITE_SENTENCE).ffn_out[WRITE_TOKEN, BEAUTY])


def beauty_from_shown() -> float:
    single, both = (round(v, 4) for v in write_back_terms())
    return single + preset.AND_WRITE_BACK * both


_UNUSED = slice(preset.N_SINGLE_DETECTORS + len(preset.AND_DETECTOR_FEATURES), preset.D_FF)
"""h16 … h31: the hidden units no rule wires."""


def silent_trace_dims() -> str:
    """Why ffn_out is 0 in d12–d15: W2 (and b2) hold nothing for those dimensions."""
    W = preset_weights()
    trace_dims = slice(preset.TRACE_BASE, preset.D_MODEL)
    nothing_written = bool(np.all(W.W2[:, trace_dims] == 0) and np.all(W.b2[trace_dims] == 0))
    only_unused = bool(np.any(W.W2[_UNUSED, trace_dims] != 0) and np.all(W.W2[: _UNUSED.start, trace_dims] == 0))
    all_silent = bool(np.all(preset_trace(1).ffn_h[:, : _UNUSED.start] == 0))
    return which({"w2": nothing_written, "unused": only_unused, "gelu0": all_silent}, True)


LABELS = {
    "ffn_out_noun()": "文3 の ffn_out[猫, d0]",
    "ffn_out_noun_from_shown()": "表示の 3 桁の差で計算した ffn_out[猫, d0]",
    "write_back_terms()[]": "文1 の 花 の ffn_h (h8, h12 の {i0} つ目)",
    "beauty_write_back()": "文1 の ffn_out[花, d8]",
    "beauty_from_shown()": "表示の 4 桁から計算した ffn_out[花, d8]",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
