"""docs/scale/03-pre-ln.md: the dot product is dragged by the vectors' norms; LayerNorm equalises the rows it
normalises, but not the queries and keys that the attention compares (they are those rows times W_Q and W_K)."""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import ops, preset_trace, preset_weights, similarity
from transformer_math.preset import SENTENCES

SENTENCE = 1
"""The page's example: これ は 美しい 花 です."""
QUERY = 2
"""The query of the Pre-LN table: 美しい, whose intended key (head 0) is 花."""
HEAD = 0
"""The head the Pre-LN table reads (a = 0: adjective and demonstrative → noun)."""
WIRINGS = ("Post-LN", "Pre-LN")
"""The two wirings, as the page names them."""


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


def first_block_input(wiring: str) -> np.ndarray:
    """What the first block's attention reads in sentence 1, (T, d_model): X itself (Post-LN) or LayerNorm(X)
    with LayerNorm 1's γ, β and ε (Pre-LN normalises the sublayer's input)."""
    if wiring not in WIRINGS:
        raise ValueError(f"wiring must be one of {WIRINGS}, got {wiring!r}")
    X = preset_trace(SENTENCE).X
    if wiring == "Post-LN":
        return X
    w = preset_weights()
    return ops.layer_norm(X, w.ln1_gamma, w.ln1_beta, w.eps)


def _head_columns() -> slice:
    d_k = preset_weights().d_k
    return slice(HEAD * d_k, (HEAD + 1) * d_k)


def keys(wiring: str) -> np.ndarray:
    """k_j of head 0 in the first block, (T, d_k): the input times W_K, the head's columns."""
    return first_block_input(wiring) @ preset_weights().W_K[:, _head_columns()]


def queries(wiring: str) -> np.ndarray:
    """q_i of head 0 in the first block, (T, d_k)."""
    return first_block_input(wiring) @ preset_weights().W_Q[:, _head_columns()]


def input_lengths(wiring: str) -> np.ndarray:
    """‖row t‖ of what the attention reads, (T,): all √d_model (up to ε) after LayerNorm with γ = 1, β = 0."""
    return np.linalg.norm(first_block_input(wiring), axis=1)


def key_lengths(wiring: str) -> np.ndarray:
    """‖k_j‖ of head 0, (T,)."""
    return np.linalg.norm(keys(wiring), axis=1)


def key_rank(wiring: str) -> int:
    """The rank of head 0's keys: 1 means every key lies on one line (W_K reads d0 alone)."""
    return int(np.linalg.matrix_rank(keys(wiring)))


def query_key_cos() -> np.ndarray:
    """cos(q_美しい, k_j) in head 0 of the Pre-LN first block, for every key j, (T,).

    (Post-LN's first block has a key of length 0, これ's, whose cosine is undefined.)"""
    q, k = queries("Pre-LN")[QUERY], keys("Pre-LN")
    return k @ q / (np.linalg.norm(k, axis=1) * np.linalg.norm(q))


def scores(wiring: str) -> np.ndarray:
    """q_美しい · k_j / √d_k in head 0, (T,)."""
    d_k = preset_weights().d_k
    return keys(wiring) @ queries(wiring)[QUERY] / np.sqrt(d_k)


def weights(wiring: str) -> np.ndarray:
    """softmax of :func:`scores`: 美しい's attention row in head 0 of the first block, (T,)."""
    return ops.softmax(scores(wiring))


LABELS = {
    "cos_with_hana()": "文1 の「花」と位置 {0} の X の cos",
    "n_pairs()": "8 文の全トークン対の数",
    "n_pairs_of_pairs()": "2 組を選ぶ比較の数",
    "rank_disagreements()": "{0} で内積と cos の大小が逆になる比較の数",
    "disagreement_share()": "内積と cos の大小が逆になる比較の割合",
    "max_dot_cos_gap()": "LayerNorm の後の 内積/d_model と cos の差の最大",
    "SENTENCE": "例の文の番号",
    "HEAD": "表のヘッドの番号 a",
    "first_block_input()": "最初のブロックの attention が読む入力 ({0})",
    "keys()": "ヘッド 0 のキー k_j ({0})",
    "queries()": "ヘッド 0 のクエリ q_i ({0})",
    "input_lengths()": "attention が読む入力の各行の長さ ({0})",
    "key_lengths()": "ヘッド 0 のキー k_j の長さ ({0})",
    "key_rank()": "ヘッド 0 のキーを並べた行列の階数 ({0})",
    "query_key_cos()": "Pre-LN の「美しい」のクエリと各キーの cos",
    "scores()": "「美しい」の行のスコア q·k/√d_k ({0})",
    "weights()": "「美しい」の行の attention の重み ({0})",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
