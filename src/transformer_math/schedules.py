"""Training schedules and targets of the original Transformer (Vaswani et al. 2017, §5.3–5.4).

Noam learning rate: lrate = d_model^−0.5 · min(step^−0.5, step · warmup^−1.5) — a linear rise for
``warmup`` steps, then decay ∝ 1/√step. Label smoothing (Szegedy et al. 2016, §7): the one-hot target
is mixed with the uniform distribution, q' = (1 − ε)·onehot + ε/K.
"""

from __future__ import annotations

import numpy as np

from .configs import TRANSFORMER_BASE

D_MODEL = TRANSFORMER_BASE.d_model
WARMUP_STEPS = TRANSFORMER_BASE.warmup_steps
LABEL_SMOOTHING = TRANSFORMER_BASE.label_smoothing


def noam_lr(step: int | float | np.ndarray, d_model: int = D_MODEL, warmup: int = WARMUP_STEPS) -> np.ndarray | float:
    """The Noam learning rate at ``step`` (≥ 1; scalar or array → same shape).

    The two branches meet at step = warmup, where step·warmup^−1.5 = warmup^−0.5 = step^−0.5.
    """
    if not d_model > 0 or not warmup > 0:
        raise ValueError(f"d_model and warmup must be positive, got d_model={d_model!r}, warmup={warmup!r}")
    s = np.asarray(step, dtype=np.float64)
    if not np.all(np.isfinite(s)) or np.any(s < 1):
        bad = float(s[~(np.isfinite(s) & (s >= 1))].flat[0])
        raise ValueError(f"step must be ≥ 1 (step 0 would divide by zero in step^−0.5), got {bad}")
    lr = d_model**-0.5 * np.minimum(s**-0.5, s * float(warmup) ** -1.5)
    return float(lr) if lr.ndim == 0 else lr


def noam_peak_step(warmup: int = WARMUP_STEPS) -> int:
    """The rise ends and the decay begins at step = warmup."""
    return warmup


def noam_peak_lr(d_model: int = D_MODEL, warmup: int = WARMUP_STEPS) -> float:
    """lrate at the peak: d_model^−0.5 · warmup^−0.5 (≈ 6.99e-4 for 512 and 4000)."""
    return float(noam_lr(noam_peak_step(warmup), d_model, warmup))


def noam_steps_at(lr: float, d_model: int = D_MODEL, warmup: int = WARMUP_STEPS) -> tuple[float, float]:
    """The two steps at which the Noam rate equals ``lr`` (0 < lr ≤ the peak): on the rise, where
    d_model^−0.5 · step · warmup^−1.5 = lr, and on the decay, where d_model^−0.5 · step^−0.5 = lr.

    At the peak both are ``warmup``; at half the peak, warmup/2 and 4·warmup (the rise is linear, the decay
    goes as 1/√step).
    """
    peak = noam_peak_lr(d_model, warmup)
    if not 0.0 < lr <= peak * (1 + 1e-12):
        raise ValueError(f"lr must be in (0, {peak:.3e}] (the peak for d_model={d_model}, warmup={warmup}), got {lr!r}")
    rise = lr * d_model**0.5 * float(warmup) ** 1.5
    decay = (lr * d_model**0.5) ** -2
    return float(rise), float(decay)


def label_smoothing_target(label: int, vocab_size: int, epsilon: float = LABEL_SMOOTHING) -> np.ndarray:
    """Target distribution (vocab_size,): 1 − ε + ε/K on ``label``, ε/K on every other class.

    Its entries sum to 1; ε = 0 gives the one-hot vector back.
    """
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, (int, np.integer)) or vocab_size < 2:
        raise ValueError(f"vocab_size must be an integer ≥ 2, got {vocab_size!r}")
    if isinstance(label, bool) or not isinstance(label, (int, np.integer)) or not 0 <= label < vocab_size:
        raise ValueError(f"label must be an integer in 0 … {vocab_size - 1}, got {label!r}")
    if not 0.0 <= epsilon < 1.0:
        raise ValueError(f"epsilon must be in [0, 1), got {epsilon!r}")
    target = np.full(vocab_size, epsilon / vocab_size)
    target[label] += 1.0 - epsilon
    return target


def cross_entropy(target: np.ndarray, predicted: np.ndarray) -> float:
    """−Σ target · log predicted in nats: the loss of a prediction against a (smoothed) target.

    Infinite when the prediction gives 0 to a class the target does not; smallest, at ``entropy(target)``, when
    the prediction is the target itself (Gibbs' inequality).
    """
    q, p = np.asarray(target, dtype=np.float64), np.asarray(predicted, dtype=np.float64)
    for name, v in (("target", q), ("predicted", p)):
        if v.ndim != 1 or np.any(v < 0) or not np.isclose(v.sum(), 1.0):
            raise ValueError(f"{name} must be a 1-D probability vector (non-negative, sum 1), got shape {v.shape}")
    if q.shape != p.shape:
        raise ValueError(f"target and predicted must have the same length, got {q.shape} and {p.shape}")
    used = q > 0
    if np.any(p[used] == 0):
        return float("inf")
    return float(-(q[used] * np.log(p[used])).sum())


def entropy(p: np.ndarray) -> float:
    """−Σ p log p in nats (0 log 0 = 0): the smallest cross-entropy any prediction can reach for target p."""
    p = np.asarray(p, dtype=np.float64)
    if p.ndim != 1 or np.any(p < 0) or not np.isclose(p.sum(), 1.0):
        raise ValueError(f"p must be a 1-D probability vector (non-negative, sum 1), got shape {p.shape}")
    nonzero = p[p > 0]
    return float(-(nonzero * np.log(nonzero)).sum())
