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


CROSS_ATTENTION = counting.attention_params(BASE.d_model, BASE.n_heads)
"""One multi-head attention of the base model with its biases: the decoder's Source-Target Attention."""
LAYER_NORM = counting.layer_norm_params(BASE.d_model)
"""γ and β of one LayerNorm of the base model."""


def decoder_extra() -> int:
    """Parameters of one decoder block of the base model minus those of one encoder block."""
    return counting.decoder_block_params(BASE.d_model, BASE.d_ff) - counting.block_params(BASE.d_model, BASE.d_ff)


def decoder_over_encoder() -> str:
    """What a decoder block has on top of an encoder block, read off the two parameter counts."""
    return which(
        {
            "cross_ln": CROSS_ATTENTION + LAYER_NORM,
            "ffn": counting.ffn_params(BASE.d_model, BASE.d_ff),
            "two": 2 * (CROSS_ATTENTION + LAYER_NORM),
            "ln": LAYER_NORM,
        },
        decoder_extra(),
    )


LABELS = {
    "unshared_extra()": "埋め込みを共有しないときに増えるパラメータ数",
    "big_embedding_scale()": "big モデルで埋め込みに掛ける √d_model",
    "decoder_extra()": "デコーダ 1 ブロックとエンコーダ 1 ブロックのパラメータ数の差",
    "CROSS_ATTENTION": "Multi-Head Attention 1 つのパラメータ数 (バイアス込み)",
    "LAYER_NORM": "LayerNorm 1 つのパラメータ数 (γ と β)",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
