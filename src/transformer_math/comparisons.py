"""Helpers for the chapter's second half and the scale notes, beside :mod:`counting` (which owns the exact counts).

Here: the block's weights term by term (the scale notes count that way), what that count leaves out, the
sequence length where self-attention becomes cheaper than a recurrent layer, and the path length of a local
window found by propagating reachability layer by layer (an independent route to the O(n/r) of the textbook).

>>> sum(block_weight_terms(512, 2048).values())
3145728
>>> crossover_n(512)
512
"""

from __future__ import annotations

import math

import numpy as np

# --- the scale notes' sizes (seed 000); their rough counts live in counting.ROUGH_* ---

NOTES_N = 512
"""The notes' perceptron: 512 tokens …"""
NOTES_D = 512
"""… of 512 dimensions each."""
NOTES_CONV_K = 5
"""The kernel width the notes pick for the 1-D convolution."""
CONVS2S_K = 3
"""ConvS2S's kernel width, which the notes mention for contrast."""


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def block_weight_terms(d_model: int, d_ff: int) -> dict[str, int]:
    """The weight matrices of one encoder block, term by term (no biases, no LayerNorm): the notes' way of counting."""
    d = _positive_int(d_model, "d_model")
    f = _positive_int(d_ff, "d_ff")
    return {"W_Q": d * d, "W_K": d * d, "W_V": d * d, "W_O": d * d, "W_1": d * f, "W_2": f * d}


def block_small_terms(d_model: int, d_ff: int) -> dict[str, int]:
    """What the weights-only count leaves out: the biases and the two LayerNorms' γ and β."""
    d = _positive_int(d_model, "d_model")
    f = _positive_int(d_ff, "d_ff")
    return {"b_Q, b_K, b_V, b_O": 4 * d, "b_1": f, "b_2": d, "LayerNorm γ, β": 2 * 2 * d}


# --- where self-attention becomes cheaper than a recurrent layer ----------------------------------------


def crossover_n(d: int) -> int:
    """The sequence length where self-attention's n²·d equals a recurrent layer's n·d²: n = d."""
    d = _positive_int(d, "d")
    # n²·d < n·d²  ⇔  n < d: solved by comparison on integers, not by algebra alone
    n = 1
    while n * n * d < n * d * d:
        n += 1
    return n


# --- maximum path length: how many layers until position 0 reaches position n − 1 ---------------------------


def window_reach_layers(n: int, r: int) -> int:
    """Layers of a centred local window (each position sees the r positions i − (r−1)/2 … i + (r−1)/2, r odd)
    until information from the first position has reached the last one.

    Computed by propagating reachability one layer at a time, not from the closed form ⌈(n−1) / ((r−1)/2)⌉,
    so a test can compare the two.
    """
    n = _positive_int(n, "n")
    r = _positive_int(r, "r")
    if r < 3 or r % 2 == 0:
        raise ValueError(f"r must be an odd window of at least 3 (centred on the position), got {r}")
    half = (r - 1) // 2
    idx = np.arange(n)
    adjacency = np.abs(idx[None, :] - idx[:, None]) <= half  # [i, j]: i and j share a window
    reach = np.zeros(n, dtype=bool)
    reach[0] = True
    layers = 0
    while not reach[-1]:
        reach = adjacency[reach].any(axis=0)
        layers += 1
    return layers


def log_base(x: float, base: float) -> float:
    """log_base(x) for prose such as log₅ 512."""
    if x <= 0 or base <= 0 or base == 1:
        raise ValueError(f"log_base needs x > 0 and base > 0, base ≠ 1; got x={x!r}, base={base!r}")
    return math.log(x) / math.log(base)
