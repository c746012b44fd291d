"""docs/chapter/02-attention-kinds.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math.configs import TRANSFORMER_BASE as BASE

from .. import which
from .attention_kinds import CROSS_M, CROSS_N, cross, mask

ROW = 1
"""The masked-row question: the second row (は, i = 1), which may look at positions 0 and 1 only."""


def row_scores() -> tuple[float, float]:
    scores = mask().scores[ROW]
    return float(scores[0]), float(scores[1])


def masked_self_weight() -> float:
    """attn[1, 1] with the causal mask added before the softmax."""
    return float(mask().masked_before[ROW, ROW])


def mask_placement() -> str:
    """Where the mask goes: the placement whose rows still sum to 1."""
    m = mask()
    return which(
        {
            "before": bool(np.allclose(m.masked_before.sum(axis=1), 1.0)),
            "after": bool(np.allclose(m.zeroed_after.sum(axis=1), 1.0)),
        },
        True,
    )


CROSS_SHAPES = {
    "h_n_m": (BASE.n_heads, CROSS_N, CROSS_M),
    "h_m_n": (BASE.n_heads, CROSS_M, CROSS_N),
    "h_n_n": (BASE.n_heads, CROSS_N, CROSS_N),
    "h_m_m": (BASE.n_heads, CROSS_M, CROSS_M),
}


def cross_scores_shape() -> str:
    return which(CROSS_SHAPES, cross().shapes["scores"])


LABELS = {
    "row_scores()[]": "文1・ヘッド0 の scores[は→位置 {0}]",
    "masked_self_weight()": "因果マスクありの文1・ヘッド0 の attn[は→は]",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
