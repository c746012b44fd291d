"""docs/notes/00-notation.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

from transformer_math import preset_trace
from transformer_math.preset import D_K, N_HEADS, T

from .. import which

G = 13
"""The global column of the index question: g = head · d_k + k."""


def head_of_g() -> int:
    return G // D_K


def k_of_g() -> int:
    return G % D_K


def ffn_h_entries() -> int:
    """Numbers in one sentence's ffn_h: T × d_ff."""
    return preset_trace(1).ffn_h.size


STAGE_SHAPES = {"Q": "Q", "concat": "concat", "ffn_h": "ffn_h", "ln1_out": "ln1_out"}
"""The stages the shape question offers (their arrays in a trace)."""


def stage_with_head_axis() -> str:
    """The one offered stage whose array has the shape (T, h, d_k)."""
    trace = preset_trace(1)
    return which({key: getattr(trace, name).shape for key, name in STAGE_SHAPES.items()}, (T, N_HEADS, D_K))


LABELS = {
    "G": "通し番号の問題の列 g",
    "head_of_g()": "列 g = 13 が入るヘッド",
    "k_of_g()": "列 g = 13 のヘッドの中の列 k",
    "ffn_h_entries()": "1 文の ffn_h の数の個数 (T × d_ff)",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
