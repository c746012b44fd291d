"""docs/decoder/06-additive-attention.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

from transformer_math import additive_attention as aa

from .. import which
from .additive_attention import large

N, M, WIDTH = 4, 6, 8


def hidden_size() -> int:
    return aa.additive_cost(N, M, WIDTH, WIDTH).largest_intermediate


def what_differs() -> str:
    c = large()
    same_multiplies = c.additive.multiplies == c.dot_product.multiplies
    return which(
        {"same_multiplies": (True, 64.0), "fewer_multiplies": (False, 64.0), "same_memory": (True, 1.0)},
        (same_multiplies, c.memory_ratio),
    )


LABELS = {
    "N": "問題のクエリの数 n",
    "M": "問題のキーの数 m",
    "WIDTH": "問題の隠れ層の幅 d_a",
    "hidden_size()": "加法注意の途中の配列の数の個数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
