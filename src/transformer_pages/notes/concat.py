"""docs/notes/04-concat.md: concat the heads, Y = concat · W_O (= concat, since W_O = I), and where Y comes from."""

from __future__ import annotations

import numpy as np

from transformer_math import preset_trace
from transformer_math.preset import D_K, D_MODEL, SENTENCES, T


def head_of_dim(d: int) -> int:
    """Which head's output fills dimension d of concat (and of Y, since W_O = I)."""
    if d not in range(D_MODEL):
        raise ValueError(f"d must be 0 … {D_MODEL - 1}, got {d!r}")
    return d // D_K


def concat_vs_Y_max_diff(sentence_number: int) -> float:
    """max |concat − Y|: 0 when W_O = I."""
    trace = preset_trace(sentence_number)
    return float(np.abs(trace.concat - trace.Y).max())


def concat_is_Y_in_every_sentence() -> bool:
    """concat and Y are the same array in all eight sentences (W_O = I)."""
    return all(concat_vs_Y_max_diff(s.number) == 0 for s in SENTENCES)


def y_sources(sentence_number: int, t: int, d: int) -> np.ndarray:
    """Y[t, d] split by the key position it was gathered from: attn[head, t, j] · V[j, head, k]. Shape (T,).

    Valid when W_O = I (the preset): Y[t, d] = concat[t, d] = out[t, d // d_k, d % d_k].
    """
    trace = preset_trace(sentence_number)
    head, k = divmod(_dim(d), D_K)
    return trace.attn[head, _position(t), :] * trace.V[:, head, k]


def y_from_position(sentence_number: int, t: int, d: int) -> float:
    """The part of Y[t, d] that the attention weights gather from W_P (V = X = W_E[tokens] + W_P)."""
    trace = preset_trace(sentence_number)
    return float(trace.attn[_dim(d) // D_K, _position(t), :] @ trace.X_pos[:, d])


def y_from_token(sentence_number: int, t: int, d: int) -> float:
    """The part of Y[t, d] gathered from W_E[tokens]."""
    trace = preset_trace(sentence_number)
    return float(trace.attn[_dim(d) // D_K, _position(t), :] @ trace.X_tok[:, d])


def _dim(d: int) -> int:
    if d not in range(D_MODEL):
        raise ValueError(f"d must be 0 … {D_MODEL - 1}, got {d!r}")
    return int(d)


def _position(t: int) -> int:
    if t not in range(T):
        raise ValueError(f"t must be 0 … {T - 1}, got {t!r}")
    return int(t)


LABELS = {
    "concat_is_Y_in_every_sentence()": "どの文でも concat と Y が同じ",
    "concat_vs_Y_max_diff()": "文{0} の |concat − Y| の最大",
    "head_of_dim()": "次元 d{0} を受け持つヘッド",
    "y_sources()": "文{0} の Y[位置 {1}, d{2}] をキーのトークンごとに分けた項",
    "y_from_position()": "文{0} の Y[位置 {1}, d{2}] のうち位置 (W_P) から来た分",
    "y_from_token()": "文{0} の Y[位置 {1}, d{2}] のうち単語 (W_E) から来た分",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
