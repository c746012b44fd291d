"""docs/scale/01-parameters.md: one block against one fully connected layer over the whole sequence.

The sizes the page compares: 512 tokens of 512 dimensions (the base model's d_model), d_ff = 2048.
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

# Binary prefixes and the powers of two that the page writes out.
KI, MI, GI = 2**10, 2**20, 2**30
"""Ki, Mi, Gi: 2^10, 2^20, 2^30."""
MI_EXPONENT, GI_EXPONENT = 20, 30
assert (2**MI_EXPONENT, 2**GI_EXPONENT) == (MI, GI)
BILLION = 10**9
"""One billion, the decimal 10^9 that "64G" was mistaken for."""
FP16_BITS = 16
"""Bits of one 16-bit float."""
ATTENTION_WEIGHTS = counting.attention_params(NOTES_D, bias=False)
FFN_WEIGHTS = counting.ffn_params(NOTES_D, NOTES_D_FF, bias=False)
PERCEPTRON_LOG2 = PERCEPTRON.bit_length() - 1
"""36: the perceptron's weights are exactly 2^36 (checked below)."""
assert 2**PERCEPTRON_LOG2 == PERCEPTRON
RATIO_LOG2 = PERCEPTRON_LOG2 - MI_EXPONENT
"""16 of 2^36 / (3 · 2^20) = 2^16 / 3."""
BLOCK_IN_MI = BLOCK_WEIGHTS // MI
"""3: the block's weights are 3 Mi."""

LABELS = {
    "NOTES_N": "比べる系列のトークン数 n",
    "NOTES_D": "比べる系列の次元 d (= d_model)",
    "NOTES_D_FF": "原論文の base モデルの d_ff",
    "BLOCK_WEIGHTS": "ブロックの重み行列の成分数 (4d² + 2d·d_ff)",
    "BLOCK_PARAMS": "ブロックのパラメータ数 (バイアスと LayerNorm 込み)",
    "SMALL_TERMS": "バイアスと LayerNorm のパラメータ数",
    "SMALL_TERMS_SHARE": "バイアスと LayerNorm の割合",
    "FFN_OVER_ATTENTION": "FFN の重み ÷ Attention の重み",
    "PERCEPTRON": "全結合パーセプトロンの重みの数 (n·d)²",
    "PERCEPTRON_OVER_BLOCK": "パーセプトロン ÷ ブロック (重みのみ)",
    "PERCEPTRON_WITH_BIAS_OVER_BLOCK": "パーセプトロン ÷ ブロック (バイアス込み)",
    "BLOCK_OVER_ROUGH": "厳密なブロックの重み ÷ 丼勘定の 2Mi",
    "PERCEPTRON_4X_TOKENS": "トークン数 4 倍のパーセプトロンの重み",
    "PERCEPTRON_GROWTH": "トークン数を 4 倍にしたときの増え方",
    "PERCEPTRON_GIB_FP16": "パーセプトロン 1 層のメモリ (16 ビット, GiB)",
    "BLOCK_MIB_FP16": "ブロックの重みのメモリ (16 ビット, MiB)",
    "KI": "Ki = 2^10",
    "MI": "Mi = 2^20",
    "GI": "Gi = 2^30",
    "MI_EXPONENT": "Mi の指数",
    "GI_EXPONENT": "Gi の指数",
    "BILLION": "10 億 (Billion)",
    "FP16_BITS": "16 ビット浮動小数点のビット数",
    "ATTENTION_WEIGHTS": "Attention の重み行列の成分数 (4d²)",
    "FFN_WEIGHTS": "FFN の重み行列の成分数 (2d·d_ff)",
    "PERCEPTRON_LOG2": "パーセプトロンの重みの数の 2 を底とする指数",
    "RATIO_LOG2": "比 2^36 / 2^20 の指数",
    "BLOCK_IN_MI": "ブロックの重みを Mi で数えた数",
}
