"""docs/decoder/05-cross-attention.md: cross-attention between the two presets, worked out with its shapes."""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import cross_attention as xa
from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp

SEED = xa.SEED
CHANGE_BOUND = 1e-12
"""The rounding the page allows when the same rows come out of a longer decoder pass."""
NEXT_WORD = "美しい"
"""The word the decoder side reads next in the reuse check."""


def example() -> xa.WorkedExample:
    return xa.worked_example()


def n() -> int:
    """Decoder positions (queries)."""
    return example().trace.X_dec.shape[0]


def m() -> int:
    """Encoder positions (keys and values)."""
    return example().trace.memory.shape[0]


def shape(name: str) -> tuple[int, ...]:
    return example().trace.shapes()[name]


def weight(head: int, i: int, j: int) -> float:
    return float(example().trace.attn[head, i, j])


def every_weight_positive() -> bool:
    """No mask: every decoder position puts some weight on every encoder position."""
    return bool(np.all(example().trace.attn > 0))


def rows_sum_to_one() -> bool:
    return bool(np.allclose(example().trace.attn.sum(axis=-1), 1.0, rtol=0, atol=1e-12))


@cache
def one_more_word() -> xa.CrossAttentionTrace:
    """The same cross-attention after the decoder side reads one more word (NEXT_WORD)."""
    model = dp.decoder_preset()
    words = (*example().target, NEXT_WORD)
    X_dec = dec.forward(model, model.ids(words)).blocks[0].ln1_out
    return xa.cross_attention(X_dec, example().trace.memory, example().weights)


def keys_and_values_unchanged() -> bool:
    """K and V are computed from the memory alone: exactly the same after the decoder side grows."""
    a, b = example().trace, one_more_word()
    return bool(np.array_equal(a.K, b.K) and np.array_equal(a.V, b.V))


def earlier_rows_change() -> float:
    """The largest change of the earlier rows of attn when the decoder side reads one more word."""
    return float(np.abs(one_more_word().attn[:, : n()] - example().trace.attn).max())


LABELS = {
    "SEED": "クロスアテンションの重みの乱数の seed",
    "CHANGE_BOUND": "丸めとして許す差",
    "NEXT_WORD": "デコーダ側が次に読む語",
    "n()": "デコーダ側の位置の数 n",
    "m()": "エンコーダ側の位置の数 m",
    "shape()": "「{0}」の形",
    "shape()[]": "「{0}」の形の {1} 番目の長さ",
    "weight()": "ヘッド {0} の重み [デコーダ位置 {1} → エンコーダ位置 {2}]",
    "every_weight_positive()": "どの重みも 0 より大きい",
    "rows_sum_to_one()": "各行の重みの和が 1",
    "keys_and_values_unchanged()": "デコーダ側が 1 語増えても K と V はまったく同じ",
    "earlier_rows_change()": "デコーダ側が 1 語増えたときの、前の行の重みの変化",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
