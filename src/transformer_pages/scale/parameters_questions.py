"""docs/scale/01-parameters.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

from transformer_math import counting

from .. import which
from .parameters import BLOCK_WEIGHTS, NOTES_D, NOTES_D_FF, SMALL_TERMS

SMALL_D, SMALL_D_FF = 256, 1024
"""The block question: the weights of a block with d_model = 256, d_ff = 1024."""


def small_block_weights() -> int:
    return counting.block_params(SMALL_D, SMALL_D_FF, bias=False, layer_norm=False)


PERCEPTRON_N, PERCEPTRON_D = 128, 512


def perceptron() -> int:
    return counting.perceptron_params(PERCEPTRON_N, PERCEPTRON_D)


def rough_estimate_misses() -> str:
    """What the notes' 2Mi leaves out: the exact weights minus the estimate is one part of the block."""
    missing = BLOCK_WEIGHTS - counting.ROUGH_BLOCK_ESTIMATE
    return which(
        {
            "attention": counting.attention_params(NOTES_D, bias=False),
            "ffn": counting.ffn_params(NOTES_D, NOTES_D_FF, bias=False),
            "small": SMALL_TERMS,
        },
        missing,
    )


LABELS = {
    "SMALL_D": "問題の d_model",
    "SMALL_D_FF": "問題の d_ff",
    "small_block_weights()": "d_model = 256, d_ff = 1024 のブロックの重み行列の成分数",
    "PERCEPTRON_N": "問題のトークン数 n",
    "PERCEPTRON_D": "問題の次元 d",
    "perceptron()": "n = 128, d = 512 の全結合層の重み (n·d)²",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
