"""docs/scale/02-complexity.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

from transformer_math import counting

from .. import which

N, D, D_FF = 256, 512, 2048
"""The block question: n = 256 tokens, d = 512, d_ff = 2048."""


def block_cost() -> int:
    return sum(counting.attention_multiplies(N, N, D).values()) + counting.ffn_multiplies(N, D, D_FF)


SMALL_D, SMALL_D_FF = 256, 1024


def core_meets_projections() -> int:
    """The n where scores + weighted sum (2n²d) reach the four projections (4nd²), for d = 256: n = 2d."""
    return counting.first_n_where_core_exceeds(SMALL_D, SMALL_D_FF, "projections")


CROSS_KEYS = 512


def cross_query_cost() -> str:
    """Q's projection when the decoder makes one new word: one query vector times a d × d matrix."""
    n, d = CROSS_KEYS, D
    return which(
        {"d2": d * d, "nd2": n * d * d, "n2d": n * n * d, "d": d},
        counting.attention_multiplies(1, n, d)["q_projection"],
    )


LABELS = {
    "N": "問題の系列長 n",
    "D": "問題の次元 d",
    "D_FF": "問題の d_ff",
    "block_cost()": "n = 256 のブロック 1 つの掛け算の回数",
    "SMALL_D": "射影に並ぶ問題の次元 d",
    "core_meets_projections()": "d = 256 でスコアと重み付き和が射影に並ぶ n",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
