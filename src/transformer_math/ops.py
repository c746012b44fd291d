"""General Transformer operations on numpy arrays.

Conventions: row vectors (``X @ W``), float64, the last axis is the feature axis.
Each function is pure and documents the shapes it takes and returns.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

GELU_CUBIC_COEFF = 0.044715
GELU_SQRT_2_OVER_PI = float(np.sqrt(2.0 / np.pi))  # √(2/π) of the tanh form
LAYER_NORM_EPS = 1e-5
PE_BASE = 10000.0


def softmax(z: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along ``axis``; any shape in, same shape out.

    Subtracting the maximum keeps every ``exp`` argument ≤ 0 (no overflow) and leaves
    the result unchanged, since the common factor cancels. ``-inf`` entries get weight 0.
    """
    z = np.asarray(z, dtype=np.float64)
    shifted = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(
    x: np.ndarray,
    gamma: np.ndarray | None = None,
    beta: np.ndarray | None = None,
    eps: float = LAYER_NORM_EPS,
) -> np.ndarray:
    """LayerNorm over the last axis with the biased variance (like ``torch.nn.functional.layer_norm``).

    x: (..., d) → (..., d). ``eps`` sits inside the square root. gamma, beta: (d,) or None (1 and 0).
    """
    x = np.asarray(x, dtype=np.float64)
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)  # biased: divide by d, not d - 1
    y = (x - mu) / np.sqrt(var + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU in its tanh form: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). Elementwise."""
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + np.tanh(GELU_SQRT_2_OVER_PI * (x + GELU_CUBIC_COEFF * x**3)))


def relu(x: np.ndarray) -> np.ndarray:
    """max(0, x), elementwise."""
    return np.maximum(np.asarray(x, dtype=np.float64), 0.0)


def pe_angular_frequencies(d_model: int, base: float = PE_BASE) -> np.ndarray:
    """ω_i = base^(-2i/d_model) for the pairs i = 0 … d_model/2 − 1. Shape (d_model/2,)."""
    _require_even_positive(d_model, "d_model")
    i = np.arange(d_model // 2)
    return base ** (-2.0 * i / d_model)


def positional_encoding(T: int, d_model: int, base: float = PE_BASE) -> np.ndarray:
    """Sinusoidal encoding: PE[t, 2i] = sin(t·ω_i), PE[t, 2i+1] = cos(t·ω_i). Shape (T, d_model)."""
    if not isinstance(T, (int, np.integer)) or T < 1:
        raise ValueError(f"positional_encoding: T must be a positive integer, got {T!r}")
    omega = pe_angular_frequencies(d_model, base)
    angles = np.arange(T)[:, None] * omega[None, :]  # (T, d_model/2)
    pe = np.empty((T, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def pe_wavelengths(d_model: int, base: float = PE_BASE) -> np.ndarray:
    """Wavelength 2π/ω_i of each dimension pair, in positions. Shape (d_model/2,)."""
    return 2.0 * np.pi / pe_angular_frequencies(d_model, base)


def pe_rotation(omega: float, k: float) -> np.ndarray:
    """The 2×2 matrix R with (sin ω(p+k), cos ω(p+k)) = R @ (sin ωp, cos ωp), independent of p."""
    c, s = np.cos(omega * k), np.sin(omega * k)
    return np.array([[c, s], [-s, c]])


def causal_mask(T: int) -> np.ndarray:
    """Additive mask (T, T): 0 where j ≤ i, −inf where j > i (a position never sees its future)."""
    upper = np.triu(np.ones((T, T), dtype=bool), k=1)
    return np.where(upper, -np.inf, 0.0)


def padding_mask(valid: np.ndarray) -> np.ndarray:
    """Additive key mask from a boolean vector ``valid`` (T_k,): 0 for real tokens, −inf for padding.

    Returns shape (1, T_k) so it broadcasts over every query row.
    """
    valid = np.asarray(valid, dtype=bool)
    if valid.ndim != 1:
        raise ValueError(f"padding_mask: valid must be 1-D (T_k,), got shape {valid.shape}")
    if not valid.any():
        raise ValueError("padding_mask: every key is padding, so no row of the softmax is defined")
    return np.where(valid, 0.0, -np.inf)[None, :]


def attention_scores(q: np.ndarray, k: np.ndarray, scale: bool = True) -> np.ndarray:
    """q: (..., n, d_k), k: (..., m, d_k) → scores (..., n, m) = q·kᵀ, divided by √d_k if ``scale``."""
    scores = q @ np.swapaxes(k, -1, -2)
    if scale:
        scores = scores / np.sqrt(q.shape[-1])
    return scores


def scaled_dot_product_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    mask: np.ndarray | None = None,
    scale: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """softmax(q·kᵀ/√d_k + mask)·v.

    q: (..., n, d_k), k: (..., m, d_k), v: (..., m, d_v), mask: additive, broadcastable to (..., n, m).
    Returns (out (..., n, d_v), scores (..., n, m) before the mask, weights (..., n, m)).
    """
    scores = attention_scores(q, k, scale)
    masked = scores if mask is None else scores + mask
    weights = softmax(masked, axis=-1)
    return weights @ v, scores, weights


def split_heads(x: np.ndarray, h: int) -> np.ndarray:
    """(T, h·d_k) → (T, h, d_k): column g = head·d_k + k goes to [head, k]."""
    T, width = x.shape
    if width % h:
        raise ValueError(f"split_heads: width {width} is not divisible by h = {h}")
    return x.reshape(T, h, width // h)


def concat_heads(x: np.ndarray) -> np.ndarray:
    """(T, h, d_k) → (T, h·d_k), the inverse of :func:`split_heads`."""
    T, h, d_k = x.shape
    return x.reshape(T, h * d_k)


def multi_head_attention(
    x_q: np.ndarray,
    x_kv: np.ndarray,
    W_Q: np.ndarray,
    W_K: np.ndarray,
    W_V: np.ndarray,
    W_O: np.ndarray,
    h: int,
    mask: np.ndarray | None = None,
    scale: bool = True,
) -> np.ndarray:
    """Multi-head attention, self (x_q is x_kv) or cross. x_q: (n, d), x_kv: (m, d) → (n, d_model)."""
    q = split_heads(x_q @ W_Q, h).transpose(1, 0, 2)  # (h, n, d_k)
    k = split_heads(x_kv @ W_K, h).transpose(1, 0, 2)  # (h, m, d_k)
    v = split_heads(x_kv @ W_V, h).transpose(1, 0, 2)  # (h, m, d_v)
    out, _, _ = scaled_dot_product_attention(q, k, v, mask, scale)
    return concat_heads(out.transpose(1, 0, 2)) @ W_O  # (n, d_model)


def ffn(
    x: np.ndarray,
    W1: np.ndarray,
    b1: np.ndarray,
    W2: np.ndarray,
    b2: np.ndarray,
    activation: Callable[[np.ndarray], np.ndarray] = gelu,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Position-wise FFN. x: (T, d_model) → (pre (T, d_ff), hidden (T, d_ff), out (T, d_model))."""
    pre = x @ W1 + b1
    hidden = activation(pre)
    return pre, hidden, hidden @ W2 + b2


Sublayer = Callable[[np.ndarray], np.ndarray]
Norm = Callable[[np.ndarray], np.ndarray]


def post_ln(x: np.ndarray, sublayer: Sublayer, norm: Norm = layer_norm) -> np.ndarray:
    """Post-LN wiring of the original paper: LayerNorm(x + Sublayer(x))."""
    return norm(x + sublayer(x))


def pre_ln(x: np.ndarray, sublayer: Sublayer, norm: Norm = layer_norm) -> np.ndarray:
    """Pre-LN wiring: x + Sublayer(LayerNorm(x)); the residual path is never normalised."""
    return x + sublayer(norm(x))


def dropout_keep(shape: tuple[int, ...], p: float, rng: np.random.Generator | int) -> np.ndarray:
    """Which entries dropout keeps: a bool array of ``shape``, each entry True with probability 1 − p."""
    if not 0.0 <= p < 1.0:
        raise ValueError(f"p must be in [0, 1), got {p!r}")
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    return generator.random(shape) >= p


def dropout(x: np.ndarray, p: float, rng: np.random.Generator | int) -> np.ndarray:
    """Inverted dropout: zero each entry with probability p, scale the survivors by 1/(1 − p). Same shape out.

    The scaling keeps the expected value of every entry, so nothing changes at inference (no dropout there).
    """
    keep = dropout_keep(np.shape(x), p, rng)
    return np.where(keep, np.asarray(x, dtype=np.float64) / (1.0 - p), 0.0)


def _require_even_positive(n: int, name: str) -> None:
    if not isinstance(n, (int, np.integer)) or n < 2 or n % 2:
        raise ValueError(f"{name} must be a positive even integer, got {n!r}")
