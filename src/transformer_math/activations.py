"""GELU (tanh form, as ``ops.gelu``) against ReLU: its slope, its negative minimum, where it crosses a level.

>>> x, y = gelu_minimum()
>>> round(x, 3), round(y, 3)
(-0.752, -0.17)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import ops

_C = ops.GELU_SQRT_2_OVER_PI


def gelu_derivative(x: np.ndarray) -> np.ndarray:
    """GELU′ of the tanh form, elementwise. With u = √(2/π)(x + 0.044715x³) and t = tanh u:

    GELU′(x) = ½(1 + t) + ½x(1 − t²)·√(2/π)(1 + 3·0.044715x²).
    """
    x = np.asarray(x, dtype=np.float64)
    u = _C * (x + ops.GELU_CUBIC_COEFF * x**3)
    t = np.tanh(u)
    du_dx = _C * (1.0 + 3.0 * ops.GELU_CUBIC_COEFF * x**2)
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t**2) * du_dx


def gelu_minimum() -> tuple[float, float]:
    """(x, GELU(x)) at GELU's minimum on the negative axis, by Newton's method on GELU′(x) = 0.

    The second derivative is a central difference of the analytic first one (step 1e-5).
    """
    x, h = -0.75, 1e-5
    for _ in range(50):
        second = (gelu_derivative(x + h) - gelu_derivative(x - h)) / (2 * h)
        x = float(x - gelu_derivative(x) / second)
    return x, float(ops.gelu(np.array(x)))


def gelu_threshold(level: float) -> float:
    """The input x > 0 with GELU(x) = level (GELU increases for x > 0), by bisection to float precision."""
    if not level > 0:
        raise ValueError(f"level must be positive, got {level!r}")
    lo, hi = 0.0, max(1.0, 2.0 * level)
    while float(ops.gelu(np.array(hi))) < level:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if float(ops.gelu(np.array(mid))) < level else (lo, mid)
    return 0.5 * (lo + hi)


@dataclass(frozen=True)
class ActivationComparison:
    gelu_min: float  # smallest value of GELU
    gelu_argmin: float  # where it is reached
    relu_zero_fraction: float  # share of exact zeros of ReLU on N(0, 1) inputs
    gelu_zero_fraction: float  # the same for GELU
    gelu_negative_fraction: float  # share of negative GELU outputs on N(0, 1) inputs


def compare_activations(samples: int, seed: int) -> ActivationComparison:
    """GELU's minimum and how often each activation outputs exactly 0 (or GELU < 0) on ``samples`` N(0, 1) inputs."""
    x_min, y_min = gelu_minimum()
    z = np.random.default_rng(seed).standard_normal(samples)
    return ActivationComparison(
        gelu_min=y_min,
        gelu_argmin=x_min,
        relu_zero_fraction=float(np.mean(ops.relu(z) == 0.0)),
        gelu_zero_fraction=float(np.mean(ops.gelu(z) == 0.0)),
        gelu_negative_fraction=float(np.mean(ops.gelu(z) < 0.0)),
    )
