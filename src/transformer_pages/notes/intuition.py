"""docs/notes/intuition.md: attention as a soft lookup, the dot product as alignment in a plane, softmax on one
row, what the residual adds and the block as one picture — all on sentence 1, before the notes compute them.

The page's worked row is head 0's row of 美しい (position 2) in sentence 1. In head 0 the preset's queries and
keys use only the first two of the head's d_k columns (W_Q and W_K have their head-0 nonzeros in the global
columns g0 and g1), so the plane of those two columns holds every query and key of the head whole: the 2-D
picture is not a projection that drops anything, and :func:`plane_is_exact` checks it.
"""

from __future__ import annotations

import math

import numpy as np

from transformer_math import ops, preset, preset_trace

SENTENCE = 1
"""The page's sentence: これ は 美しい 花 です."""
HEAD = 0
"""The head whose row the page follows (the adjective → noun bond lives in it)."""
QUERY = 2
"""The query the page follows: 美しい (position 2)."""
KEY = 3
"""The key it finds: 花 (position 3)."""
FLAT_QUERY = 3
"""The contrasting query: 花 itself, whose query lies almost at right angles to the keys."""
PLANE = (0, 1)
"""The two columns k of head 0 in which its queries and keys live (the drawing's x and y)."""
RESIDUAL_DIMS = (0, 1, 2, 3)
"""The dimensions the residual figure shows: the four parts of speech d0 noun, d1 adjective, d2 demonstrative
or pronoun, d3 predicate."""
SHIFT = 5.0
"""What the question about softmax adds to every score of the row."""

TRACE = preset_trace(SENTENCE)
WORDS = preset.sentence(SENTENCE).words


def plane_is_exact() -> bool:
    """Every query and key of head 0 in sentence 1 is zero outside the plane's two columns."""
    outside = [k for k in range(TRACE.Q.shape[-1]) if k not in PLANE]
    return bool(np.all(TRACE.Q[:, HEAD, outside] == 0) and np.all(TRACE.K[:, HEAD, outside] == 0))


def plane_query(position: int) -> np.ndarray:
    """The query of ``position`` in head 0, in the plane's two columns (x, y)."""
    return TRACE.Q[position, HEAD, list(PLANE)]


def plane_keys() -> np.ndarray:
    """Every key of head 0 in the plane, (T, 2)."""
    return TRACE.K[:, HEAD][:, list(PLANE)]


def keys_on_one_line() -> bool:
    """The keys of head 0 all lie on the diagonal x = y (both columns read the noun dimension d0)."""
    keys = plane_keys()
    return bool(np.all(keys[:, 0] == keys[:, 1]))


def key_direction() -> np.ndarray:
    """The unit vector along which the keys lie (the diagonal, pointing to 花's key)."""
    return np.array([1.0, 1.0]) / math.sqrt(2.0)


def cos_to_keys(position: int) -> float:
    """cos of the angle between the query of ``position`` and the keys' direction."""
    q = plane_query(position)
    return float(q @ key_direction() / np.linalg.norm(q))


def angle_to_keys(position: int) -> float:
    """The angle in degrees between the query of ``position`` and the keys' direction."""
    return math.degrees(math.acos(cos_to_keys(position)))


def plane_dot(position: int, key: int) -> float:
    """q · k in the plane (equal to the whole head's dot product, the plane being exact)."""
    return float(plane_query(position) @ plane_keys()[key])


def query_length(position: int) -> float:
    return float(np.linalg.norm(plane_query(position)))


def key_length(position: int) -> float:
    return float(np.linalg.norm(plane_keys()[position]))


def shadow(position: int, key: int) -> float:
    """How far the key reaches along the query's direction: q · k / |q|."""
    return plane_dot(position, key) / query_length(position)


def row_scores(position: int = QUERY) -> np.ndarray:
    return TRACE.scores[HEAD, position]


def row_exp(position: int = QUERY) -> np.ndarray:
    """exp of each score of the row: softmax's numerators."""
    return np.exp(row_scores(position))


def row_weights(position: int = QUERY) -> np.ndarray:
    return TRACE.attn[HEAD, position]


def weight_ratio(a: int = KEY, b: int = QUERY) -> float:
    """How many times key b's weight key a gets in the worked row (= exp of their score difference)."""
    w = row_weights()
    return float(w[a] / w[b])


def values() -> np.ndarray:
    """The values of head 0, (T, d_k): what each key hands over."""
    return TRACE.V[:, HEAD]


def lookup_output() -> np.ndarray:
    """The worked row's output: the values averaged with the row's weights, (d_k,)."""
    return row_weights() @ values()


def shifted_row_weights() -> np.ndarray:
    """softmax of the worked row with SHIFT added to every score."""
    return ops.softmax(row_scores() + SHIFT)


def residual_parts() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """X, Y and X + Y of the worked query (all 16 dimensions)."""
    x, y = TRACE.X[QUERY], TRACE.Y[QUERY]
    return x, y, x + y


def block_stages() -> tuple[tuple[str, np.ndarray], ...]:
    """What the block holds for sentence 1 after each step, (T, d_model) each, in order."""
    return (
        ("X", TRACE.X),
        ("Y", TRACE.Y),
        ("ln1_out", TRACE.ln1_out),
        ("ffn_out", TRACE.ffn_out),
        ("ln2_out", TRACE.ln2_out),
    )


LABELS = {
    "SENTENCE": "このページの例文の番号",
    "HEAD": "このページで追うヘッドの番号",
    "QUERY": "このページで追うクエリの位置 (美しい)",
    "KEY": "見つけるキーの位置 (花)",
    "SHIFT": "確認問題で scores の行に足す数",
    "plane_is_exact()": "文1・ヘッド0 のクエリとキーが列 k = 0, 1 の外ですべて 0 か",
    "keys_on_one_line()": "文1・ヘッド0 のキーがすべて斜めの線 (列 0 = 列 1) の上にあるか",
    "plane_query()": "文1・ヘッド0 の位置 {0} のクエリ (列 k = 0, 1)",
    "plane_keys()": "文1・ヘッド0 のキー (列 k = 0, 1)",
    "cos_to_keys()": "文1・ヘッド0 の位置 {0} のクエリとキーの線のなす角の cos",
    "angle_to_keys()": "文1・ヘッド0 の位置 {0} のクエリとキーの線のなす角 (度)",
    "plane_dot()": "文1・ヘッド0 の位置 {0} のクエリと位置 {1} のキーの内積",
    "query_length()": "文1・ヘッド0 の位置 {0} のクエリの長さ",
    "key_length()": "文1・ヘッド0 の位置 {0} のキーの長さ",
    "shadow()": "位置 {1} のキーが位置 {0} のクエリの向きに落とす影の長さ",
    "row_scores()": "ヘッド 0 の行「美しい」の scores",
    "row_exp()": "行「美しい」の scores の exp",
    "row_weights()": "ヘッド 0 の行「美しい」の注意の重み",
    "weight_ratio()": "行「美しい」の 2 つの重みの比",
    "values()": "ヘッド 0 のバリュー",
    "lookup_output()": "行「美しい」のヘッド 0 の出力 (重み付き平均)",
    "shifted_row_weights()": "scores に同じ数を足した行の重み",
    "residual_parts()": "「美しい」の X、Y、X + Y",
}
"""The Japanese label of each value the page cites (its tooltips lead with it)."""
