"""docs/scale/03-pre-ln.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import math

import numpy as np

from transformer_math import preset_trace
from transformer_math.configs import GPT1, GPT2_SMALL

from .. import which

PAIR = (3, 4)
"""The cosine question: sentence 1's X rows 花 (T3) and です (T4)."""


def dot() -> float:
    x = preset_trace(1).X
    return float(x[PAIR[0]] @ x[PAIR[1]])


def norm(t: int) -> float:
    return float(np.linalg.norm(preset_trace(1).X[t]))


def cosine() -> float:
    return dot() / (norm(PAIR[0]) * norm(PAIR[1]))


def cosine_from_shown() -> float:
    return round(dot(), 3) / (round(norm(PAIR[0]), 3) * round(norm(PAIR[1]), 3))


WIDE_D = 512


def normalised_row_norm() -> float:
    """‖LayerNorm(x)‖ for d_model = 512 (γ = 1, β = 0): √d."""
    return math.sqrt(WIDE_D)


def gpt2_change() -> str:
    """How GPT-2 placed LayerNorm compared with GPT-1, from the recorded configurations."""
    before, after = (GPT1.pre_ln, GPT1.final_layer_norm), (GPT2_SMALL.pre_ln, GPT2_SMALL.final_layer_norm)
    return which(
        {
            "pre_final": ((False, False), (True, True)),
            "pre_only": ((False, False), (True, False)),
            "post_final": ((True, True), (False, True)),
            "same": ((False, False), (False, False)),
        },
        (before, after),
    )


LABELS = {
    "dot()": "文1 の X[花]·X[です]",
    "norm()": "文1 の ‖X[位置 {0}]‖",
    "cosine()": "文1 の X[花] と X[です] の cos",
    "cosine_from_shown()": "表示の 3 桁から計算した X[花] と X[です] の cos",
    "WIDE_D": "問題の d_model",
    "normalised_row_norm()": "d_model = 512 で LayerNorm した行の長さ √d",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
