"""Additive (Bahdanau) attention against dot-product attention: the two score functions and what each computes.

Additive attention scores a query s_i against a key h_j with a one-hidden-layer network (Bahdanau et al. 2015)::

    e[i, j] = v_aᵀ · tanh(s_i · W_a + h_j · U_a)        W_a (d_q, d_a), U_a (d_kv, d_a), v_a (d_a,)

Dot-product attention scores them with one inner product, scaled in the Transformer::

    scores[i, j] = q_i · k_j / √d_k

Both are then turned into weights by a softmax over j. The tanh sits between the sum and v_a, so the additive
score cannot be written as one matrix product: every pair (i, j) needs its own d_a-vector. ``compare`` counts,
for n queries and m keys, the multiplications and the tanh evaluations each needs and the size of the largest
intermediate array it holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


# --8<-- [start:scores]
def additive_scores(s: np.ndarray, h: np.ndarray, W_a: np.ndarray, U_a: np.ndarray, v_a: np.ndarray) -> np.ndarray:
    """e[i, j] = v_a · tanh(s_i W_a + h_j U_a): s (n, d_q), h (m, d_kv) → (n, m)."""
    hidden = np.tanh((s @ W_a)[:, None, :] + (h @ U_a)[None, :, :])  # (n, m, d_a): one vector per pair
    return hidden @ v_a  # (n, m)


def dot_product_scores(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """scores[i, j] = q_i · k_j / √d_k: q (n, d_k), k (m, d_k) → (n, m), one matrix product."""
    return q @ k.T / np.sqrt(q.shape[1])
    # --8<-- [end:scores]


@dataclass(frozen=True)
class Cost:
    """What one score function computes for n queries and m keys, from the projections to the (n, m) scores."""

    projection_multiplies: int  # multiply-adds that map queries and keys to the width where they meet
    pair_multiplies: int  # multiply-adds spent per (query, key) pair
    tanh: int  # tanh evaluations
    largest_intermediate: int  # floats in the largest array held at once

    @property
    def multiplies(self) -> int:
        return self.projection_multiplies + self.pair_multiplies


def additive_cost(n: int, m: int, d: int, d_a: int) -> Cost:
    """s·W_a (n·d·d_a) and h·U_a (m·d·d_a); then for each of the n·m pairs a sum of two d_a-vectors, d_a tanh
    and a dot product with v_a (d_a multiply-adds), holding an (n, m, d_a) array."""
    return Cost(projection_multiplies=(n + m) * d * d_a, pair_multiplies=n * m * d_a, tanh=n * m * d_a,
                largest_intermediate=n * m * d_a)  # fmt: skip


def dot_product_cost(n: int, m: int, d: int, d_k: int) -> Cost:
    """x·W_Q (n·d·d_k) and y·W_K (m·d·d_k); then Q·Kᵀ, n·m·d_k multiply-adds in one matrix product, holding
    only the (n, m) result."""
    return Cost(projection_multiplies=(n + m) * d * d_k, pair_multiplies=n * m * d_k, tanh=0,
                largest_intermediate=n * m)  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    n: int
    m: int
    d: int
    width: int  # d_a = d_k: the width where queries and keys meet
    additive: Cost
    dot_product: Cost

    @property
    def memory_ratio(self) -> float:
        """The additive score's largest array over the dot product's: d_a."""
        return self.additive.largest_intermediate / self.dot_product.largest_intermediate


def compare(n: int, m: int, d: int, width: int) -> Comparison:
    """Both score functions for n queries and m keys of width d, meeting at ``width`` (d_a = d_k)."""
    for name, value in (("n", n), ("m", m), ("d", d), ("width", width)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return Comparison(n, m, d, width, additive_cost(n, m, d, width), dot_product_cost(n, m, d, width))
