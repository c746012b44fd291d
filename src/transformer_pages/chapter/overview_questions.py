"""docs/chapter/01-overview.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import math

from transformer_math import counting
from transformer_math.configs import TRANSFORMER_BASE as BASE
from transformer_math.configs import TRANSFORMER_BIG as BIG

from .. import which
from .overview import PARAMS, UNSHARED_TOTAL


def unshared_extra() -> int:
    """Parameters added if the three embedding matrices were not one: two more vocab × d_model tables."""
    return UNSHARED_TOTAL - PARAMS.total


def big_embedding_scale() -> float:
    """√d_model of the big model: what its embeddings are multiplied by."""
    return math.sqrt(BIG.d_model)


def decoder_over_encoder() -> str:
    """What a decoder block has on top of an encoder block, read off the two parameter counts."""
    d, d_ff = BASE.d_model, BASE.d_ff
    extra = counting.decoder_block_params(d, d_ff) - counting.block_params(d, d_ff)
    attention, norm = counting.attention_params(d, BASE.n_heads), counting.layer_norm_params(d)
    return which(
        {"cross_ln": attention + norm, "ffn": counting.ffn_params(d, d_ff), "two": 2 * (attention + norm), "ln": norm},
        extra,
    )


LABELS = {
    "unshared_extra()": "埋め込みを共有しないときに増えるパラメータ数",
    "big_embedding_scale()": "big モデルで埋め込みに掛ける √d_model",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
