"""docs/chapter/04-positional-encoding.md: the sinusoidal encoding at d_model = 512, measured over 1,000 positions."""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import counting, ops, positional
from transformer_math.configs import BERT_BASE, GPT2_SMALL
from transformer_math.configs import TRANSFORMER_BASE as BASE

D_MODEL = BASE.d_model
PE_CHECK_T = 128
"""Positions over which the rotation identity is checked."""
PE_OFFSETS = (1, 2, 5, 10, 50)
"""Offsets k of the rotation check."""
PE_SPAN = 1000
"""Positions 0 … PE_SPAN − 1 over which ‖PE(pos)‖ and PE(pos)·PE(pos + k) are measured."""
LAST_POSITION = PE_SPAN - 1
PE_DOT_POSITIONS = (0, 37, 400)
"""Starting positions of the three PE(pos)·PE(pos + k) curves."""

WAVELENGTHS = ops.pe_wavelengths(D_MODEL)
"""2π/ω_i for the 256 pairs of d_model = 512."""
WAVELENGTH_RATIO = float(WAVELENGTHS[1] / WAVELENGTHS[0])
BERT_LEARNED_POSITIONS = counting.learned_position_params(BERT_BASE.max_position_embeddings, BERT_BASE.hidden_size)
GPT2_LEARNED_POSITIONS = counting.learned_position_params(GPT2_SMALL.n_ctx, GPT2_SMALL.d_model)


@cache
def norms() -> np.ndarray:
    """‖PE(pos)‖ for pos = 0 … 999 (all 16 = √(512/2))."""
    return positional.pe_norms(PE_SPAN, D_MODEL)


@cache
def rotation_error() -> float:
    """Worst error of "shift by k = one rotation per pair" over 128 positions and the offsets (1, 2, 5, 10, 50)."""
    return positional.pe_rotation_error(PE_CHECK_T, D_MODEL, PE_OFFSETS)


@cache
def offset_dot(k: int) -> np.ndarray:
    """PE(pos)·PE(pos + k) for pos = 0 … 999: one number repeated (its spread is rounding noise)."""
    return positional.pe_offset_dot(PE_SPAN, D_MODEL, k)


DOT_K_MAX = 200
"""The offsets k = 0 … 200 over which PE(pos)·PE(pos + k) is drawn."""


@cache
def offset_dots() -> np.ndarray:
    """PE(pos)·PE(pos + k) = Σ_i cos(ω_i k) for k = 0 … DOT_K_MAX (d_model = 512), from the closed form."""
    dots = np.array([positional.pe_offset_dot_formula(D_MODEL, k) for k in range(DOT_K_MAX + 1)])
    dots.setflags(write=False)
    return dots


def dot_falls_until() -> int:
    """The largest k such that the dot product falls at every step from 0 to k."""
    rises = np.flatnonzero(np.diff(offset_dots()) >= 0)
    return int(rises[0]) if rises.size else DOT_K_MAX


def dot_keeps_falling_overall() -> bool:
    """Past :func:`dot_falls_until` the dot product ripples (it rises somewhere) yet ends lower than it was there."""
    k = dot_falls_until()
    return k < DOT_K_MAX and bool(offset_dots()[-1] < offset_dots()[k])


LABELS = {
    "WAVELENGTHS": "d_model = 512 の各組の波長",
    "WAVELENGTH_RATIO": "隣の組との波長の比",
    "LAST_POSITION": "調べる最後の位置",
    "PE_SPAN": "調べる位置の数",
    "PE_CHECK_T": "回転の恒等式を調べる位置の数",
    "PE_OFFSETS": "調べるずれ k",
    "PE_DOT_POSITIONS": "内積を測る起点の位置",
    "norms()": "位置 0〜999 の位置エンコーディングの長さ",
    "offset_dot()": "ずれ k = {0} の内積 PE(pos)·PE(pos+k)",
    "DOT_K_MAX": "内積を描くずれ k の最大",
    "offset_dots()": "ずれ k ごとの内積 PE(pos)·PE(pos+k)",
    "dot_falls_until()": "内積が k とともに下がり続ける最後のずれ k",
    "BERT_LEARNED_POSITIONS": "BERT-base の学習する位置埋め込みのパラメータ数",
    "GPT2_LEARNED_POSITIONS": "GPT-2 small の学習する位置埋め込みのパラメータ数",
    "rotation_error()": "PE(pos+k) と R(ωk)·PE(pos) の差の最大",
    "dot_keeps_falling_overall()": "内積が波打ちながらも下がっていくか",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
