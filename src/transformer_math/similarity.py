"""Dot product against cosine for every pair of rows: how much vector norms drag the dot product."""

from __future__ import annotations

import numpy as np


def dot_and_cos_pairs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every pair i < j of the rows (T, d): the dot product and the cosine, each shaped (T·(T−1)/2,)."""
    a = np.asarray(rows, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] < 2:
        raise ValueError(f"rows must be 2-D with at least two rows, got shape {a.shape}")
    norms = np.linalg.norm(a, axis=1)
    if np.any(norms == 0):
        raise ValueError("rows must be non-zero: the cosine of a zero vector is undefined")
    i, j = np.triu_indices(a.shape[0], k=1)
    dots = np.einsum("pd,pd->p", a[i], a[j])
    return dots, dots / (norms[i] * norms[j])


def rank_disagreements(dots: np.ndarray, coss: np.ndarray) -> int:
    """Pairs of pairs that the dot product and the cosine order differently (discordant pairs)."""
    dd = np.sign(dots[:, None] - dots[None, :])
    dc = np.sign(coss[:, None] - coss[None, :])
    return int(np.sum(np.triu(dd * dc < 0, k=1)))
