"""docs/notes/09-accuracy.md: why two correct computations of the same formula differ in the last bits, how small
that is (machine epsilon), and how much larger a wrong formula's difference is.

>>> sum_left_first() == sum_right_first()
False
>>> sum_order_difference() == float_gap_at(sum_right_first())
True
"""

from __future__ import annotations

import math

import numpy as np

from transformer_math import derivations, layernorm, preset, preset_trace, rounding
from transformer_math.preset import SENTENCES

SUM_TERMS = (0.1, 0.2, 0.3)
"""The three numbers of §9's first example: (0.1 + 0.2) + 0.3 and 0.1 + (0.2 + 0.3) are two different float64s."""

MANTISSA_BITS = int(np.finfo(np.float64).nmant)
"""Bits after the binary point of a float64's significand (52): machine epsilon is 2 ** -MANTISSA_BITS."""

DECIMAL_DIGITS = int(np.finfo(np.float64).precision)
"""Decimal digits a float64 holds for certain (15)."""

ROUNDING_BOUND = 1e-14
"""What the notes call "the size of rounding" for the block's values (of order 1 to 10): a few machine epsilons
times the values stay far below it on any IEEE-754 machine, while any formula error is many orders above it."""

COMPARISON_TOLERANCE = 1e-12
"""A tolerance for comparing two implementations of the block: far above rounding, far below a formula error."""

CROSSCHECK_EPS_BOUND = 64
"""numpy vs PyTorch differences stay ≤ this many machine epsilons (the appendix says so; its snippet asserts it
at build time). Measured 8 ε on the build machine (the multiple depends on CPU and BLAS): the bound leaves room
for other machines while staying far below the 1e-12 test tolerance and any formula error."""


def sum_left_first() -> float:
    """(0.1 + 0.2) + 0.3 in float64."""
    a, b, c = SUM_TERMS
    return (a + b) + c


def sum_right_first() -> float:
    """0.1 + (0.2 + 0.3) in float64."""
    a, b, c = SUM_TERMS
    return a + (b + c)


def sum_order_difference() -> float:
    """How far apart the two orders' results are."""
    return sum_left_first() - sum_right_first()


def float_gap_at(x: float) -> float:
    """The gap between ``x`` and the next float64 above it."""
    return float(np.spacing(x))


def sums_are_neighbours() -> bool:
    """The two orders' results are adjacent float64s: nothing lies between them."""
    return sum_left_first() == float(np.nextafter(sum_right_first(), math.inf))


def nearest_to_exact_sum() -> float:
    """The float64 nearest to the exact sum of the three float64s (``math.fsum`` rounds only once, at the end)."""
    return math.fsum(SUM_TERMS)


def right_first_is_nearest() -> bool:
    """0.1 + (0.2 + 0.3) is the float64 nearest to the exact sum of the three numbers; (0.1 + 0.2) + 0.3 is not."""
    nearest = nearest_to_exact_sum()
    return sum_right_first() == nearest != sum_left_first()


def every_addition_rounds_correctly() -> bool:
    """Each float64 addition of the example returns the float64 nearest to the exact sum of its two operands."""
    a, b, c = SUM_TERMS
    pairs = ((a, b), (a + b, c), (b, c), (a, b + c))
    return all(x + y == math.fsum((x, y)) for x, y in pairs)


def largest_value() -> float:
    """The largest |value| of any array of the block's forward (X … ln2_out) over the eight sentences."""
    fields = ("X", "Q", "K", "V", "scores", "attn", "head_out", "Y", "residual1", "ln1_out", "ffn_pre", "ffn_h",
              "ffn_out", "residual2", "ln2_out")  # fmt: skip
    return max(float(np.abs(getattr(preset_trace(s.number), f)).max()) for s in SENTENCES for f in fields)


def unbiased_variance_difference() -> float:
    """max |ln1_out − LN with the unbiased variance (÷ (d − 1))| over the eight sentences: one wrong formula."""
    return max(
        float(np.abs(layernorm.layer_norm_unbiased(trace.residual1, preset.EPS) - trace.ln1_out).max())
        for trace in (preset_trace(s.number) for s in SENTENCES)
    )


def derivation_max_difference() -> float:
    """Largest |derivation − forward value| over every cell of every stage of derivations, all eight sentences."""
    worst = 0.0
    for s in SENTENCES:
        trace = preset_trace(s.number)
        for stage in derivations.STAGES:
            for der in derivations.derive_all(trace, stage):
                worst = max(worst, abs(der.value - derivations.trace_value(trace, der)))
    return worst


def derivation_difference_within(bound: int) -> int:
    """:func:`derivation_max_difference` in machine epsilons, quoted as the bound it stays under."""
    return rounding.eps_multiple_within(derivation_max_difference(), bound)


def n_derived_cells() -> int:
    """How many cells the two paths both compute (every stage of the derivations, all eight sentences)."""
    return sum(
        len(derivations.derive_all(preset_trace(s.number), stage)) for s in SENTENCES for stage in derivations.STAGES
    )


def error_orders_above_rounding() -> int:
    """How many powers of ten the wrong variance's shift of ln1_out stands above ``ROUNDING_BOUND``."""
    return math.floor(math.log10(unbiased_variance_difference() / ROUNDING_BOUND))


LABELS = {
    "SUM_TERMS": "足し算の例の 3 つの数",
    "SUM_TERMS[]": "足し算の例の数",
    "MANTISSA_BITS": "float64 の仮数の 2 進の桁数",
    "DECIMAL_DIGITS": "float64 が確実に保つ 10 進の桁数",
    "ROUNDING_BOUND": "丸め誤差の大きさの目安",
    "COMPARISON_TOLERANCE": "2 つの実装を比べるときの許容誤差の例",
    "CROSSCHECK_EPS_BOUND": "PyTorch で書いた実装との差の上限 (機械イプシロンの倍数)",
    "sum_left_first()": "(0.1 + 0.2) + 0.3 の計算結果",
    "sum_right_first()": "0.1 + (0.2 + 0.3) の計算結果",
    "sum_order_difference()": "足す順序による結果の差",
    "float_gap_at()": "{0} の次の float64 との間隔",
    "sums_are_neighbours()": "2 つの結果が隣り合う float64 であること",
    "nearest_to_exact_sum()": "0.1 + 0.2 + 0.3 の正確な和に最も近い float64",
    "right_first_is_nearest()": "0.1 + (0.2 + 0.3) だけが正確な和に最も近い float64 であること",
    "every_addition_rounds_correctly()": "どの足し算も最も近い float64 を返すこと",
    "largest_value()": "順伝播のすべての値の絶対値の最大 (8 文)",
    "unbiased_variance_difference()": "分散を d − 1 で割ったときの ln1_out のずれの最大",
    "derivation_max_difference()": "2 つの計算経路の差の最大",
    "derivation_difference_within()": "2 つの計算経路の差の上限 (機械イプシロンの {0} 倍)",
    "n_derived_cells()": "2 つの経路で計算したマスの数",
    "error_orders_above_rounding()": "式の誤りによるずれが丸め誤差の目安を上回る桁数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
