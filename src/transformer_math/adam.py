"""Adam (Kingma & Ba 2015, Algorithm 1) with the original Transformer's β1, β2, ε (Vaswani et al. 2017, §5.3)."""

from __future__ import annotations

import numpy as np

from .configs import TRANSFORMER_BASE

BETA1, BETA2, EPS = TRANSFORMER_BASE.adam_beta1, TRANSFORMER_BASE.adam_beta2, TRANSFORMER_BASE.adam_eps


def averaging_horizon(beta: float) -> float:
    """1/(1 − β): about how many recent steps a moving average with coefficient β spans (step k back weighs β^k;
    the weights (1 − β)·β^k sum to 1 and their mean age is β/(1 − β), so 1/(1 − β) counts the current step too)."""
    if not 0.0 <= beta < 1.0:
        raise ValueError(f"beta must be in [0, 1), got {beta!r}")
    return 1.0 / (1.0 - beta)


def bias_correction(beta: float, t: int) -> float:
    """1/(1 − β^t): what step t multiplies a moving average by (m̂ = m/(1 − β1^t)), since it started at 0.

    Large at first (1/(1 − β) at t = 1), it falls to 1 as t grows: the average has then forgotten its zero start.
    """
    if not 0.0 <= beta < 1.0:
        raise ValueError(f"beta must be in [0, 1), got {beta!r}")
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 1:
        raise ValueError(f"t must be an integer ≥ 1 (Adam counts its steps from 1), got {t!r}")
    return 1.0 / (1.0 - beta**t)


def adam_moments(
    m: np.ndarray, v: np.ndarray, g: np.ndarray, beta1: float = BETA1, beta2: float = BETA2
) -> tuple[np.ndarray, np.ndarray]:
    """m ← β1·m + (1 − β1)·g and v ← β2·v + (1 − β2)·g²: the moving averages of the gradient and of its square."""
    return beta1 * m + (1 - beta1) * g, beta2 * v + (1 - beta2) * g**2


def adam_change(
    m: np.ndarray, v: np.ndarray, t: int, lr: float, beta1: float = BETA1, beta2: float = BETA2, eps: float = EPS
) -> np.ndarray:
    """Δθ = −lr · m̂/(√v̂ + ε) with m̂ = m/(1 − β1^t), v̂ = v/(1 − β2^t): step t's change (t = 1, 2, …)."""
    m_hat = m / (1 - beta1**t)
    v_hat = v / (1 - beta2**t)
    return -lr * m_hat / (np.sqrt(v_hat) + eps)


def adam_updates(grads: np.ndarray, lr, beta1: float = BETA1, beta2: float = BETA2, eps: float = EPS) -> np.ndarray:
    """Parameter changes Δθ_t = θ_t − θ_{t−1} (bias-corrected, ε outside the root) for gradients ``grads`` (T, P):
    T steps of P parameters. ``lr``: a number or one learning rate per step (T,). Returns (T, P)."""
    g = np.asarray(grads, dtype=np.float64)
    if g.ndim != 2 or not np.all(np.isfinite(g)):
        raise ValueError(f"grads must be a finite 2-D array (steps, parameters), got shape {g.shape}")
    rates = np.broadcast_to(np.asarray(lr, dtype=np.float64), (g.shape[0],))
    m = np.zeros(g.shape[1])
    v = np.zeros(g.shape[1])
    out = np.empty_like(g)
    for t in range(1, g.shape[0] + 1):
        m, v = adam_moments(m, v, g[t - 1], beta1, beta2)
        out[t - 1] = adam_change(m, v, t, rates[t - 1], beta1, beta2, eps)
    return out
