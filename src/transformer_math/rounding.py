"""Rounding noise of float64, and how prose quotes it without depending on the machine.

A residual such as 1.1e-16 depends on the CPU, libm and BLAS, so a page never quotes it. It quotes a bound in
machine epsilons instead: :func:`eps_multiple_within` returns the bound while the residual stays under it, and
the real multiple (so the check fails, showing it) the day it does not.
"""

from __future__ import annotations

import numpy as np

MACHINE_EPSILON = float(np.finfo(np.float64).eps)
"""float64's machine epsilon, the gap between 1 and the next float: 2**-52 on every IEEE-754 machine."""


def eps_multiple_within(value: float, bound: int) -> int:
    """``bound`` when |value| ≤ bound · ε, else the smallest integer n with |value| ≤ n · ε."""
    if not isinstance(bound, (int, np.integer)) or isinstance(bound, bool) or bound < 1:
        raise ValueError(f"bound must be a positive integer multiple of machine epsilon, got {bound!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"value must be finite, got {value!r}")
    multiple = abs(value) / MACHINE_EPSILON
    return int(bound) if multiple <= bound else int(np.ceil(multiple))
