"""docs/scale/03-pre-ln.md: the dot product is dragged by the vectors' norms until LayerNorm equalises them."""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import preset_trace, similarity
from transformer_math.preset import SENTENCES


@cache
def preset_dot_cos(stage: str) -> tuple[np.ndarray, np.ndarray]:
    """Dot products and cosines of every token pair of ``stage`` ("X" or "ln1_out") over the eight sentences.

    For ln1_out the dot product is divided by d_model, so that with rows of norm √d_model it equals the cosine.
    """
    if stage not in ("X", "ln1_out"):
        raise ValueError(f"stage must be 'X' or 'ln1_out', got {stage!r}")
    dots, coss = [], []
    for s in SENTENCES:
        rows = getattr(preset_trace(s.number), stage)  # (T, d_model)
        d, c = similarity.dot_and_cos_pairs(rows)
        dots.append(d / rows.shape[1] if stage == "ln1_out" else d)
        coss.append(c)
    return np.concatenate(dots), np.concatenate(coss)


def n_pairs(stage: str = "X") -> int:
    """Token pairs over the eight sentences (10 per sentence)."""
    return len(preset_dot_cos(stage)[0])


def n_pairs_of_pairs(stage: str = "X") -> int:
    return n_pairs(stage) * (n_pairs(stage) - 1) // 2


def rank_disagreements(stage: str) -> int:
    """Pairs of token pairs that the dot product and the cosine order differently."""
    return similarity.rank_disagreements(*preset_dot_cos(stage))


def disagreement_share(stage: str = "X") -> float:
    return rank_disagreements(stage) / n_pairs_of_pairs(stage)


def max_dot_cos_gap(stage: str = "ln1_out") -> float:
    """max |dot/d_model − cos| after LayerNorm: 0 up to rounding."""
    dots, coss = preset_dot_cos(stage)
    return float(np.abs(dots - coss).max())


def cos_with_hana(j: int) -> float:
    """cos(X_花, X_j) in sentence 1 (花 is t = 3)."""
    X = preset_trace(1).X
    return float(X[3] @ X[j] / np.sqrt((X[3] @ X[3]) * (X[j] @ X[j])))


LABELS = {
    "cos_with_hana()": "文1 の「花」と位置 {0} の X の cos",
    "n_pairs()": "8 文の全トークン対の数",
    "n_pairs_of_pairs()": "2 組を選ぶ比較の数",
    "rank_disagreements()": "{0} で内積と cos の大小が逆になる比較の数",
    "disagreement_share()": "内積と cos の大小が逆になる比較の割合",
    "max_dot_cos_gap()": "LayerNorm の後の 内積/d_model と cos の差の最大",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
