"""docs/notes/03-attention.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import preset_trace
from transformer_math.preset import D_K, N_HEADS, T

from .. import which

ROW_SENTENCE, ROW_HEAD, ROW_QUERY, ROW_KEY = 1, 0, 4, 3
"""The softmax question: sentence 1, head 0, the row of です (position 4), the weight on 花 (position 3)."""
ROW_SCORES = preset_trace(ROW_SENTENCE).scores[ROW_HEAD, ROW_QUERY]
"""The five scores the question gives (shown to three decimals)."""


def row_weight() -> float:
    """attn[0, 4, 3] of sentence 1: softmax of the row, read at 花."""
    return float(preset_trace(ROW_SENTENCE).attn[ROW_HEAD, ROW_QUERY, ROW_KEY])


def row_weight_from_shown() -> float:
    """The same weight from the scores rounded as the question shows them: a reader gets the same answer."""
    e = np.exp(np.round(ROW_SCORES, 3))
    return float(e[ROW_KEY] / e.sum())


def unscaled_score() -> float:
    """Q[2, 0, :] · K[3, 0, :] of sentence 1 (美しい → 花) before the division by √d_k."""
    trace = preset_trace(1)
    return float(trace.Q[2, 0] @ trace.K[3, 0])


def zero_column_cause() -> str:
    """Why column これ (position 0) of sentence 1's scores is 0 in both heads: its key, or its query, is zero."""
    trace = preset_trace(1)
    if np.all(trace.K[0] == 0) and np.any(trace.Q[0] != 0):
        return "key"
    if np.all(trace.Q[0] == 0):
        return "query"
    raise ValueError("neither K[0] nor Q[0] of sentence 1 is zero: the question about column これ no longer holds")


SCORES_SHAPES = {"hTT": (N_HEADS, T, T), "TT": (T, T), "Thd": (T, N_HEADS, D_K), "hTd": (N_HEADS, T, D_K)}
"""What each option of the shape question claims."""


def scores_shape() -> str:
    """The option that states the shape of scores."""
    return which(SCORES_SHAPES, preset_trace(1).scores.shape)


LABELS = {
    "ROW_SCORES[]": "文1・ヘッド0 の scores[です→位置 {0}]",
    "row_weight()": "文1・ヘッド0 の attn[です→花]",
    "row_weight_from_shown()": "表示の 3 桁の scores から計算した attn[です→花]",
    "unscaled_score()": "文1・ヘッド0 の √d_k で割る前の Q[美しい]·K[花]",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
