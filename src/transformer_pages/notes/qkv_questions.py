"""docs/notes/02-qkv.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import preset_trace
from transformer_math.preset import D_K, D_MODEL, N_HEADS, T

from .. import which
from .attention import SQRT_D_K

SENTENCE, QUERY, KEY, HEAD, BOND_COLUMN = 3, 4, 2, 1, 8
"""The score question: sentence 3, 好き (position 4) → 猫 (position 2), head 1, whose only bond column is g8."""


def query_value() -> float:
    return float(preset_trace(SENTENCE).Q_full[QUERY, BOND_COLUMN])


def key_value() -> float:
    return float(preset_trace(SENTENCE).K_full[KEY, BOND_COLUMN])


def score() -> float:
    """scores[1, 4, 2] of sentence 3 (the forward pass's own value)."""
    return float(preset_trace(SENTENCE).scores[HEAD, QUERY, KEY])


def score_from_shown() -> float:
    """The same score from the two factors rounded as the question shows them."""
    return round(query_value(), 3) * round(key_value(), 3) / round(SQRT_D_K, 3)


def head1_value_dims() -> str:
    """Which dimensions of X head 1's V carries: the columns of X equal to V[:, 1, k]."""
    trace = preset_trace(1)
    dims = tuple(next(d for d in range(D_MODEL) if np.array_equal(trace.V[:, 1, k], trace.X[:, d])) for k in range(D_K))
    return which({"low": tuple(range(D_K)), "high": tuple(range(D_K, 2 * D_K)), "bond": (0, 1)}, dims)


Q_FULL_SHAPES = {"T_hd": (T, N_HEADS * D_K), "T_h_d": (T, N_HEADS, D_K), "W": (D_MODEL, N_HEADS * D_K), "T_d": (T, D_K)}
"""What each option of the shape question claims (h·d_k = d_model here, so W_Q is square)."""


def q_full_shape() -> str:
    return which(Q_FULL_SHAPES, preset_trace(1).Q_full.shape)


LABELS = {
    "query_value()": "文3 の Q_full[好き, g8]",
    "key_value()": "文3 の K_full[猫, g8]",
    "score()": "文3・ヘッド1 の scores[好き→猫]",
    "score_from_shown()": "表示の 3 桁から計算した scores[好き→猫]",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
