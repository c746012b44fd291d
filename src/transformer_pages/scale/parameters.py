"""docs/scale/01-parameters.md: one block against one fully connected layer over the whole sequence.

The scale notes' sizes: 512 tokens of 512 dimensions, d_ff = 2048.
"""

from __future__ import annotations

from transformer_math import counting

NOTES_N = 512
"""The notes' perceptron: 512 tokens …"""
NOTES_D = 512
"""… of 512 dimensions each."""
NOTES_D_FF = 2048

BLOCK_WEIGHTS = counting.block_params(NOTES_D, NOTES_D_FF, bias=False, layer_norm=False)
"""4·d² + 2·d·d_ff: the weight matrices of one block."""
BLOCK_PARAMS = counting.block_params(NOTES_D, NOTES_D_FF)
"""The same with biases and the two LayerNorms."""
SMALL_TERMS = BLOCK_PARAMS - BLOCK_WEIGHTS
SMALL_TERMS_SHARE = SMALL_TERMS / BLOCK_PARAMS
FFN_OVER_ATTENTION = counting.ffn_params(NOTES_D, NOTES_D_FF, bias=False) / counting.attention_params(
    NOTES_D, bias=False
)
PERCEPTRON = counting.perceptron_params(NOTES_N, NOTES_D)
"""(n·d)² weights: every output of the 512 × 512 sequence sees every input."""
PERCEPTRON_OVER_BLOCK = counting.perceptron_to_block_ratio(NOTES_N, NOTES_D, NOTES_D_FF)
"""(n·d)² / (4·d² + 2·d·d_ff), weights only: how many blocks one full layer costs."""
PERCEPTRON_WITH_BIAS_OVER_BLOCK = counting.perceptron_params(NOTES_N, NOTES_D, bias=True) / BLOCK_PARAMS
BLOCK_OVER_ROUGH = BLOCK_WEIGHTS / counting.ROUGH_BLOCK_ESTIMATE
"""The exact weights-only count over the notes' rough 2 Mi."""
PERCEPTRON_4X_TOKENS = counting.perceptron_params(4 * NOTES_N, NOTES_D)
PERCEPTRON_GROWTH = PERCEPTRON_4X_TOKENS / PERCEPTRON
PERCEPTRON_GIB_FP16 = PERCEPTRON * 2 / 2**30
"""Memory of the perceptron's weights in 16-bit floats, GiB."""
BLOCK_MIB_FP16 = BLOCK_WEIGHTS * 2 / 2**20
