"""What LayerNorm does to each token, measured: the mean μ_t, the spread σ_t and the divisor √(σ_t² + ε).

Shapes: a LayerNorm's input x and output y are (T, d); every statistic is per token, (T,).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

import numpy as np

from . import ops
from .block import BlockTrace


@dataclass(frozen=True)
class LayerNormStats:
    """Per-token statistics of one LayerNorm: its input x (T, d) and output y (T, d)."""

    mean_in: np.ndarray  # (T,) μ_t
    std_in: np.ndarray  # (T,) σ_t (biased, without ε)
    scale: np.ndarray  # (T,) √(σ_t² + ε), what LayerNorm divides by
    mean_out: np.ndarray  # (T,) ≈ 0 when γ = 1, β = 0
    std_out: np.ndarray  # (T,) ≈ 1 (slightly below: ε sits in the denominator)


def layer_norm_stats(x: np.ndarray, y: np.ndarray, eps: float = ops.LAYER_NORM_EPS) -> LayerNormStats:
    """μ, σ and √(σ²+ε) of LayerNorm's input x, and the mean/std of its output y. x, y: (T, d)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.ndim != 2 or x.shape != y.shape:
        raise ValueError(f"layer_norm_stats: x and y must be 2-D of one shape (T, d), got {x.shape} and {y.shape}")
    std_in = x.std(axis=1)
    return LayerNormStats(
        mean_in=x.mean(axis=1), std_in=std_in, scale=np.sqrt(std_in**2 + eps),
        mean_out=y.mean(axis=1), std_out=y.std(axis=1),
    )  # fmt: skip


def ln1_stats(trace: BlockTrace, eps: float = ops.LAYER_NORM_EPS) -> LayerNormStats:
    """LayerNorm 1: residual1 → ln1_out."""
    return layer_norm_stats(trace.residual1, trace.ln1_out, eps)


def ln2_stats(trace: BlockTrace, eps: float = ops.LAYER_NORM_EPS) -> LayerNormStats:
    """LayerNorm 2: residual2 → ln2_out."""
    return layer_norm_stats(trace.residual2, trace.ln2_out, eps)


def stat_range(stats: Iterable[LayerNormStats], field: str) -> tuple[float, float]:
    """(min, max) of one LayerNormStats field over every token of ``stats`` (e.g. one per sentence)."""
    names = [f.name for f in fields(LayerNormStats)]
    if field not in names:
        raise ValueError(f"field must be one of {names}, got {field!r}")
    values = np.concatenate([getattr(s, field) for s in stats])
    return float(values.min()), float(values.max())


def layer_norm_unbiased(x: np.ndarray, eps: float = ops.LAYER_NORM_EPS) -> np.ndarray:
    """LayerNorm with the unbiased variance (÷ (d − 1)): the wrong formula, to measure what it would change."""
    x = np.asarray(x, dtype=np.float64)
    return (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, ddof=1, keepdims=True) + eps)
