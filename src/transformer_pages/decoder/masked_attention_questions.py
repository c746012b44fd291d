"""docs/decoder/01-masked-attention.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

import numpy as np

from transformer_math import ops

from .. import which
from .masked_attention import BLOCK, HEAD, N_POSITIONS, trace

ROW = 1
"""The masked-row question: row 1 (これ), which sees positions 0 and 1."""
QUERY = 3
"""The visibility question: position 3 (美しい)."""


def row_scores() -> tuple[float, float]:
    scores = trace().blocks[BLOCK].scores[HEAD, ROW]
    return float(scores[0]), float(scores[1])


def score_gap() -> float:
    """scores[1, 1] − scores[1, 0]: the weight on itself is 1 / (1 + e^−gap)."""
    first, second = row_scores()
    return second - first


def second_row_self_weight() -> float:
    """attn[1, 1] of block 1, head 1, with the causal mask."""
    return float(ops.softmax(np.array(row_scores()))[1])


def masked_entries(T: int = N_POSITIONS) -> int:
    """The −∞ entries of a T × T causal mask: T(T − 1)/2."""
    return int(np.isneginf(ops.causal_mask(T)).sum())


VISIBLE = {"up_to_i": (0, 1, 2, 3), "only_i": (3,), "all": (0, 1, 2, 3, 4, 5), "after": (4, 5)}


def visible_positions() -> str:
    """The positions row 3 gives a nonzero weight (in block 1, head 1, or any head: the mask is the same)."""
    attn = trace().blocks[BLOCK].attn[:, QUERY]  # (h, T)
    nonzero = tuple(int(j) for j in np.flatnonzero((attn > 0).any(axis=0)))
    return which(VISIBLE, nonzero)


LABELS = {
    "row_scores()[]": "文1・ブロック 1・ヘッド 1 の scores[これ→位置 {0}]",
    "score_gap()": "scores[これ→これ] − scores[これ→<bos>]",
    "second_row_self_weight()": "因果マスクありの attn[これ→これ]",
    "masked_entries()": "T × T の因果マスクで −∞ の要素の数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
