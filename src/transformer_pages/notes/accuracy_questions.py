"""docs/notes/09-accuracy.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import math

from transformer_math import ops, preset_trace
from transformer_math.layernorm import layer_norm_unbiased
from transformer_math.preset import D_MODEL, EPS

from .. import which
from . import accuracy


def unbiased_ratio() -> float:
    """How much smaller every standardised value gets with the unbiased variance: √((d − 1)/d)."""
    return math.sqrt((D_MODEL - 1) / D_MODEL)


def unbiased_ratio_measured() -> float:
    """The same ratio read off sentence 1's ln1_out (ε makes it differ only far below the shown digits)."""
    trace = preset_trace(1)
    return float(layer_norm_unbiased(trace.residual1, EPS)[3, 0] / ops.layer_norm(trace.residual1, eps=EPS)[3, 0])


def sum_order_cause() -> str:
    """Why the two orders of 0.1 + 0.2 + 0.3 differ: every addition rounds correctly, where the rounding falls
    depends on the order, and the result is the same every time it is computed."""
    rounds = accuracy.every_addition_rounds_correctly() and accuracy.sum_left_first() != accuracy.sum_right_first()
    repeatable = len({accuracy.sum_left_first() for _ in range(3)}) == 1
    return which(
        {"round": rounds, "wrong": not accuracy.every_addition_rounds_correctly(), "random": not repeatable}, True
    )


LABELS = {
    "unbiased_ratio()": "不偏分散にしたときの標準化した値の倍率 √((d−1)/d)",
    "unbiased_ratio_measured()": "文1 の ln1_out[花, d0] で測った不偏分散の倍率",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
