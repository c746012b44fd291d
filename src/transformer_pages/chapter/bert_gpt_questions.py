"""docs/chapter/09-bert-gpt.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import ops
from transformer_math.configs import BERT_BASE, BERT_LARGE

from .. import which
from .bert_gpt import MASKED_SHARE_OF_ALL

MLM_TOKENS = BERT_BASE.max_position_embeddings
"""The masking question: a 512-token input."""


def expected_masked() -> float:
    """Tokens of a 512-token input expected to become [MASK]: 15 % selected × 80 % of those."""
    return MLM_TOKENS * MASKED_SHARE_OF_ALL


LAYER_FACTOR = 4 + 2 * BERT_LARGE.intermediate_size // BERT_LARGE.hidden_size
"""12 = 4 (the attention's W^Q, W^K, W^V, W^O) + 2 · 4 (the FFN's two H × 4H matrices)."""


def large_layer_estimate() -> int:
    """12·H² of BERT-large (H = 1024): the weights of one layer without biases and LayerNorm."""
    return LAYER_FACTOR * BERT_LARGE.hidden_size**2


CONTEXT_T, CONTEXT_POSITION = 6, 3
"""The GPT question: which positions the output at position 3 may read, in a 6-token masked attention."""


def gpt_visible() -> str:
    visible = tuple(int(j) for j in np.flatnonzero(ops.causal_mask(CONTEXT_T)[CONTEXT_POSITION] == 0))
    p = CONTEXT_POSITION
    return which(
        {
            "left": tuple(range(p + 1)),
            "all": tuple(range(CONTEXT_T)),
            "right": tuple(range(p, CONTEXT_T)),
            "self": (p,),
        },
        visible,
    )


LABELS = {
    "MLM_TOKENS": "MLM の問題の入力のトークン数",
    "expected_masked()": "512 トークンで [MASK] になる数の期待値",
    "CONTEXT_T": "GPT の問題のトークン数",
    "CONTEXT_POSITION": "GPT の問題で出力を読む位置",
    "LAYER_FACTOR": "1 層の重み 12H² の係数",
    "large_layer_estimate()": "BERT-large の 1 層の重みの見積もり 12H²",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
