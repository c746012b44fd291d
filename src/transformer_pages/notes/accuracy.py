"""docs/notes/09-accuracy.md: how exact the numbers are — rounding against PyTorch, against the derivations, and
what a wrong formula would change instead."""

from __future__ import annotations

import numpy as np

from transformer_math import derivations, layernorm, preset, preset_trace, rounding
from transformer_math.preset import SENTENCES

CROSSCHECK_EPS_BOUND = 64
"""§9 promises numpy vs PyTorch differences ≤ this many machine epsilons; the §9 snippet asserts it at build time.

Measured 8 ε on the build machine (the exact multiple depends on CPU and BLAS): the bound leaves room for other
machines while staying far below the 1e-12 test tolerance and any formula error.
"""


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


LABELS = {
    "CROSSCHECK_EPS_BOUND": "PyTorch との差の上限 (機械イプシロンの倍数)",
    "unbiased_variance_difference()": "不偏分散にしたときの ln1_out のずれの最大",
    "derivation_difference_within()": "導出と順伝播の差を機械イプシロンの倍数で表した上限 (上限 {0} 倍)",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
