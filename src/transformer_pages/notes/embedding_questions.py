"""docs/notes/01-embedding.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import ops, preset_trace
from transformer_math.preset import D_MODEL, T

from .. import which
from .embedding import pe_period_of_dim


def desu_adjective_dim() -> float:
    """X[4, d1] of sentence 1 (です at position 4): no adjective in W_E, cos(4) from W_P."""
    return float(preset_trace(1).X[4, 1])


PERIOD_PAIR = 2
"""The period question: pair i = 2 (dimensions d4 and d5)."""


def period_of_pair() -> float:
    return pe_period_of_dim(2 * PERIOD_PAIR)


def first_row_ones() -> str:
    """Where position 0's W_P is 1: every odd dimension (cos 0), never an even one (sin 0)."""
    row = ops.positional_encoding(T, D_MODEL)[0]
    ones = tuple(int(d) for d in np.flatnonzero(np.isclose(row, 1.0)))
    return which(
        {"odd": tuple(range(1, D_MODEL, 2)), "even": tuple(range(0, D_MODEL, 2)), "d0": (0,), "none": ()}, ones
    )


LABELS = {
    "desu_adjective_dim()": "文1 の X[です, d1]",
    "PERIOD_PAIR": "周期の問題の組の番号 i",
    "period_of_pair()": "W_P の組 i = 2 (d4, d5) の周期",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
