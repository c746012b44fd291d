"""docs/notes/09-accuracy.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import math

import numpy as np

from transformer_math import ops, preset_trace, preset_weights
from transformer_math.layernorm import layer_norm_unbiased
from transformer_math.preset import D_MODEL, EPS

from .. import which


def unbiased_ratio() -> float:
    """How much smaller every standardised value gets with the unbiased variance: √((d − 1)/d)."""
    return math.sqrt((D_MODEL - 1) / D_MODEL)


def unbiased_ratio_measured() -> float:
    """The same ratio read off sentence 1's ln1_out (ε makes it differ only far below the shown digits)."""
    trace = preset_trace(1)
    return float(layer_norm_unbiased(trace.residual1, EPS)[3, 0] / ops.layer_norm(trace.residual1, eps=EPS)[3, 0])


def copies_only() -> str:
    """Why Q, K, V add no rounding of their own: every column of W_Q, W_K, W_V holds at most one nonzero, a 1."""
    W = preset_weights()
    matrices = (W.W_Q, W.W_K, W.W_V)
    columns_copy = all(
        np.count_nonzero(matrix[:, g]) <= 1 and set(matrix[:, g][matrix[:, g] != 0]) <= {1.0}
        for matrix in matrices
        for g in range(matrix.shape[1])
    )
    identity = all(np.array_equal(matrix, np.eye(len(matrix))) for matrix in matrices)
    dense = all(np.all(matrix != 0) for matrix in matrices)
    return which({"copy": columns_copy, "identity": identity, "dense": dense}, True)


LABELS = {
    "unbiased_ratio()": "不偏分散にしたときの標準化した値の倍率 √((d−1)/d)",
    "unbiased_ratio_measured()": "文1 の ln1_out[花, d0] で測った不偏分散の倍率",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
