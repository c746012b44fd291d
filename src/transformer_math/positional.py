"""Properties of the sinusoidal positional encoding W_P (Vaswani et al. 2017, §3.5), measured on the arrays.

``ops.positional_encoding`` builds W_P; this module checks what the notes and the chapter say about it: every
row has the same norm √(d_model/2), a shift by k positions is one fixed rotation per (sin, cos) pair, the dot
product PE(pos)·PE(pos + k) depends on k only, and the slow dimensions barely move over a short sentence.
Shapes: W_P is (T, d_model); a pair i is the columns (2i, 2i + 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import ops


def pe_norms(T: int, d_model: int) -> np.ndarray:
    """‖PE(pos)‖ for pos = 0 … T − 1: √(d_model/2) for every pos, since each pair has sin² + cos² = 1. (T,)"""
    return np.linalg.norm(ops.positional_encoding(T, d_model), axis=-1)


def pe_min_distance(T: int, d_model: int) -> float:
    """Smallest Euclidean distance between two different rows of W_P: > 0 means every position is unique."""
    pe = ops.positional_encoding(T, d_model)
    dist = np.linalg.norm(pe[:, None, :] - pe[None, :, :], axis=-1)  # (T, T)
    return float(dist[~np.eye(T, dtype=bool)].min())


def pe_range(d: int, T: int, d_model: int) -> float:
    """max − min of W_P[:, d] over the positions 0 … T − 1: how much dimension d tells positions apart."""
    column = ops.positional_encoding(T, d_model)[:, _dim(d, d_model)]
    return float(column.max() - column.min())


def pe_max_move(dims: tuple[int, ...], T: int, d_model: int) -> float:
    """Largest |W_P[t, d] − W_P[0, d]| over t and the given dims (how far those dims move from position 0)."""
    pe = ops.positional_encoding(T, d_model)[:, [_dim(d, d_model) for d in dims]]
    return float(np.abs(pe - pe[0]).max())


def pe_column_means(T: int, d_model: int) -> np.ndarray:
    """Mean of W_P[t, d] over the T positions, per dimension d: what position adds to every token alike. (d_model,)"""
    return ops.positional_encoding(T, d_model).mean(axis=0)


def pe_rotation_error(positions: int, d_model: int, offsets: tuple[int, ...]) -> float:
    """max over pos = 0 … positions − 1, offsets k and pairs i of |R(ω_i k)·PE_i(pos) − PE_i(pos + k)|.

    PE_i(pos) = (sin ω_i pos, cos ω_i pos); R is :func:`ops.pe_rotation`, the same matrix for every pos.
    """
    if not offsets or any(not isinstance(k, (int, np.integer)) or k < 1 for k in offsets):
        raise ValueError(f"offsets must be positive integers, got {offsets!r}")
    pe = ops.positional_encoding(positions + max(offsets), d_model)
    worst = 0.0
    for k in offsets:
        for i, omega in enumerate(ops.pe_angular_frequencies(d_model)):
            pair = pe[:, 2 * i : 2 * i + 2]  # (positions + max k, 2)
            predicted = pair[:positions] @ ops.pe_rotation(float(omega), k).T  # R @ v for every pos (row vectors)
            worst = max(worst, float(np.abs(predicted - pair[k : k + positions]).max()))
    return worst


def pe_offset_dot(T: int, d_model: int, k: int) -> np.ndarray:
    """PE(pos)·PE(pos + k) for pos = 0 … T − 1: the same number for every pos (= Σ_i cos ω_i k). (T,)"""
    pe = ops.positional_encoding(T + k, d_model)
    return np.einsum("td,td->t", pe[:T], pe[k : k + T])


def pe_offset_dot_formula(d_model: int, k: int) -> float:
    """Σ_i cos(ω_i k), from sin a sin b + cos a cos b = cos(a − b)."""
    return float(np.cos(ops.pe_angular_frequencies(d_model) * k).sum())


@dataclass(frozen=True)
class EmbeddingScale:
    d_model: int
    embedding_norm: float  # mean ‖row‖ of an embedding initialised with std d_model^(-1/2)
    scaled_norm: float  # the same after multiplying by √d_model
    pe_norm: float  # ‖PE(pos)‖ (the same for every pos)


def embedding_scale(d_model: int, vocab: int, seed: int) -> EmbeddingScale:
    """Norms of an embedding table (vocab, d_model) drawn as N(0, 1/d_model), before and after the √d_model factor."""
    E = np.random.default_rng(seed).standard_normal((vocab, d_model)) / np.sqrt(d_model)
    norm = float(np.linalg.norm(E, axis=-1).mean())
    return EmbeddingScale(d_model, norm, norm * float(np.sqrt(d_model)), float(pe_norms(1, d_model)[0]))


def _dim(d: int, d_model: int) -> int:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 0 <= d < d_model:
        raise ValueError(f"d must be an integer 0 … {d_model - 1}, got {d!r}")
    return int(d)
