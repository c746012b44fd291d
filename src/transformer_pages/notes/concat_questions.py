"""docs/notes/04-concat.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import preset_trace
from transformer_math.preset import D_K

from .. import which
from .concat import head_of_dim

SENTENCE, QUERY, DIM = 1, 1, 0
"""The mixing question: sentence 1, the query は (position 1), dimension d0 (head 0)."""
ATTN_ROW = preset_trace(SENTENCE).attn[0, QUERY]
"""attn[0, 1, :]: where は looks in head 0."""
V_COLUMN = preset_trace(SENTENCE).V[:, 0, DIM]
"""V[:, 0, 0]: the d0 value each key hands over."""


def y_value() -> float:
    return float(preset_trace(SENTENCE).Y[QUERY, DIM])


def y_from_shown() -> float:
    """The same sum from the weights and values rounded to three decimals, as the question shows them."""
    return float(np.round(ATTN_ROW, 3) @ np.round(V_COLUMN, 3))


G = 11
"""The concat question: which head and which column k fill concat's column g = 11."""


def k_of_g() -> int:
    return G % D_K


FEATURE_DIM = 8
"""d8 (beauty): which head carries it into Y."""


def feature_head() -> str:
    return which({"h0": 0, "h1": 1}, head_of_dim(FEATURE_DIM))


LABELS = {
    "ATTN_ROW[]": "文1・ヘッド0 の attn[は→位置 {0}]",
    "V_COLUMN[]": "文1・ヘッド0 の V[位置 {0}, k=0]",
    "y_value()": "文1 の Y[は, d0]",
    "y_from_shown()": "表示の 3 桁から計算した Y[は, d0]",
    "G": "concat の問題の列 g",
    "k_of_g()": "concat の列 g = 11 に入る out の列 k",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
