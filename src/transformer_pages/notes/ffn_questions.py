"""docs/notes/06-ffn.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

from transformer_math import preset_trace, preset_weights
from transformer_math.preset import D_FF, D_MODEL, FIRING_THRESHOLD, T

from .. import which
from .ffn import GELU_THRESHOLD

SENTENCE, TOKEN, UNIT = 1, 3, 14
"""The detector question: sentence 1, 花 (T3), the AND detector h14 (noun ∧ book): inputs d0 and d10."""
NOUN_DIM, FEATURE_DIM = 0, 10


def noun_input() -> float:
    return float(preset_trace(SENTENCE).ln1_out[TOKEN, NOUN_DIM])


def feature_input() -> float:
    return float(preset_trace(SENTENCE).ln1_out[TOKEN, FEATURE_DIM])


def weight() -> float:
    return float(preset_weights().W1[NOUN_DIM, UNIT])


def bias() -> float:
    return float(preset_weights().b1[UNIT])


def ffn_pre() -> float:
    return float(preset_trace(SENTENCE).ffn_pre[TOKEN, UNIT])


def ffn_pre_from_shown() -> float:
    return round(noun_input(), 3) * weight() + round(feature_input(), 3) * weight() + bias()


def firing_threshold() -> str:
    """Which offered ffn_pre threshold means ffn_h > 0.5 (GELU is increasing on the positive side)."""
    return which({"half": FIRING_THRESHOLD, "t0668": 0.668, "one": 1.0}, round(GELU_THRESHOLD, 3))


FFN_H_SHAPES = {"T_dff": (T, D_FF), "T_d": (T, D_MODEL), "W1": (D_MODEL, D_FF), "W2": (D_FF, D_MODEL)}


def ffn_h_shape() -> str:
    return which(FFN_H_SHAPES, preset_trace(1).ffn_h.shape)


LABELS = {
    "noun_input()": "文1 の ln1_out[花, d0]",
    "feature_input()": "文1 の ln1_out[花, d10]",
    "weight()": "FFN の W1[d0, h14]",
    "bias()": "FFN のバイアス b1[h14]",
    "UNIT": "問題の AND 検出器 h14 の番号",
    "ffn_pre()": "文1 の ffn_pre[花, h14]",
    "ffn_pre_from_shown()": "表示の 3 桁から計算した ffn_pre[花, h14]",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
