"""docs/notes/intuition.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import ops

from . import intuition

LOOKUP_DIM = 0
"""The weighted-average question asks for the output's noun dimension d0 (column k = 0 of head 0)."""


def lookup_weights() -> np.ndarray:
    """The five weights the question gives: head 0's row of 美しい."""
    return intuition.row_weights()


def lookup_values() -> np.ndarray:
    """The five values the question gives: column d0 of head 0's values."""
    return intuition.values()[:, LOOKUP_DIM]


def lookup_answer() -> float:
    """The output's d0: the weighted average of the values."""
    return float(intuition.lookup_output()[LOOKUP_DIM])


def lookup_from_shown() -> float:
    """The same average from the weights and values rounded to three decimals, as the question shows them."""
    return float(np.round(lookup_weights(), 3) @ np.round(lookup_values(), 3))


def flat_row_cause() -> str:
    """Why head 0's row of 花 is nearly even (the key of the right option): its query's angle to the keys, not
    its length, nor a zero key.

    Perpendicular means every score is small whatever the keys' lengths; a short query would scale the scores
    down too, so the question's claim is checked against the other queries: 花's query is longer than は's, whose
    row is less even.
    """
    flat, short = intuition.FLAT_QUERY, 1  # は: the shortest query of head 0
    if intuition.key_length(flat) == 0:
        return "no_key"
    weights = intuition.TRACE.attn[intuition.HEAD]
    spread = weights.max(axis=-1) - weights.min(axis=-1)  # (T,) how uneven each row is
    if (abs(intuition.cos_to_keys(flat)) < 0.2 and intuition.query_length(flat) > intuition.query_length(short)
            and spread[flat] < spread[short]):  # fmt: skip
        return "perpendicular"
    raise ValueError("the row of 花 in head 0 is no longer explained by its angle alone: rewrite the question")


def shift_effect() -> str:
    """What adding SHIFT to every score of the worked row does to its weights."""
    before, after = intuition.row_weights(), intuition.shifted_row_weights()
    if np.allclose(before, after, rtol=1e-12, atol=0.0):
        return "same"
    return "sharper" if after.max() > before.max() else "flatter"


def shifted_weight() -> float:
    """花's weight after the shift (equal to before it)."""
    return float(intuition.shifted_row_weights()[intuition.KEY])


def exp_shift() -> float:
    """exp(SHIFT): the factor every exp of the row is multiplied by."""
    return float(np.exp(intuition.SHIFT))


def softmax_check() -> bool:
    """ops.softmax of the worked row equals the row of attn (the question's premise)."""
    return bool(np.allclose(ops.softmax(intuition.row_scores()), intuition.row_weights(), rtol=1e-12, atol=0.0))


LABELS = {
    "LOOKUP_DIM": "問題で求める出力の次元",
    "lookup_weights()": "ヘッド 0 の行「美しい」の重み",
    "lookup_values()": "ヘッド 0 のバリューの次元 d0",
    "lookup_answer()": "行「美しい」のヘッド 0 の出力の d0",
    "lookup_from_shown()": "表示の 3 桁から計算した出力の d0",
    "shifted_weight()": "scores に 5 を足した後の「花」の重み",
    "exp_shift()": "exp(5)",
}
"""The Japanese label of each value the page cites (its tooltips lead with it)."""
