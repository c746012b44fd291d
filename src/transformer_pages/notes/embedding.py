"""docs/notes/01-embedding.md: the preset's W_E rows and its W_P (T = 5, d_model = 16), measured.

>>> round(embedding_row_norm("花"), 3), round(pe_period_of_dim(0), 3)
(3.176, 6.283)
"""

from __future__ import annotations

import numpy as np

from transformer_math import ops, positional, preset, preset_weights
from transformer_math.preset import D_MODEL, T


def embedding_row_norm(word: str) -> float:
    """‖W_E[word]‖: the length of one word's embedding row."""
    if word not in preset.WORD_ID:
        raise ValueError(f"word must be in the vocabulary {preset.VOCAB}, got {word!r}")
    return float(np.linalg.norm(preset_weights().W_E[preset.WORD_ID[word]]))


def category_share(word: str) -> float:
    """Share of ‖W_E[word]‖² that the category entry (3.0) carries."""
    return preset.CATEGORY_VALUE**2 / embedding_row_norm(word) ** 2


def periods() -> np.ndarray:
    """Period (in positions) of each dimension pair (2i, 2i+1) of W_P: 2π·10000^(2i/16). Shape (8,)."""
    return ops.pe_wavelengths(D_MODEL)


def period_ratio() -> float:
    """Each pair's period over the previous one's: 10000^(2/16), the same for every step."""
    return float(periods()[1] / periods()[0])


def pe_period_of_dim(d: int) -> float:
    """Period of the sine or cosine that fills dimension d of W_P."""
    if d not in range(D_MODEL):
        raise ValueError(f"d must be 0 … {D_MODEL - 1}, got {d!r}")
    return float(periods()[d // 2])


def pe_range(d: int) -> float:
    """max − min of W_P[:, d] over the five positions."""
    return positional.pe_range(d, T, D_MODEL)


def pe_max_move_from(first: int) -> float:
    """Largest |W_P[t, d] − W_P[0, d]| over the positions and the dimensions d = first … 15."""
    return positional.pe_max_move(tuple(range(first, D_MODEL)), T, D_MODEL)


def pe_row_norm(t: int) -> float:
    """‖W_P[t]‖ = √(d_model/2) for every t."""
    return float(positional.pe_norms(T, D_MODEL)[t])


def pe_min_distance() -> float:
    """Smallest distance between two rows of W_P: every position has its own row."""
    return positional.pe_min_distance(T, D_MODEL)


def rotation_error() -> float:
    """Worst |R(ω_i k)·PE_i(t) − PE_i(t + k)| over every shift k = 1 … 4 that stays inside the five positions."""
    return max(positional.pe_rotation_error(T - k, D_MODEL, (k,)) for k in range(1, T))


LABELS = {
    "embedding_row_norm()": "W_E の「{0}」の行の長さ",
    "category_share()": "「{0}」の行の長さの 2 乗のうち品詞カテゴリの割合",
    "pe_row_norm()": "W_P の位置 {0} の行の長さ",
    "pe_min_distance()": "W_P の 2 つの行の距離の最小",
    "period_ratio()": "隣の組との周期の比",
    "pe_period_of_dim()": "W_P の次元 d{0} の周期",
    "pe_range()": "W_P の次元 d{0} が 5 位置のあいだに動く幅",
    "pe_max_move_from()": "W_P の d{0}〜d15 が位置 0 から動く幅の最大",
    "rotation_error()": "回転の恒等式の両辺の差の最大",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
