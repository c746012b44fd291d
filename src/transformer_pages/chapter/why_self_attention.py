"""docs/chapter/08-why-self-attention.md: Table 1 of Vaswani et al. 2017 counted at d = 512."""

from __future__ import annotations

from transformer_math import counting
from transformer_math.configs import TRANSFORMER_BASE as BASE

D = BASE.d_model
"""The representation dimension d of the table: the base model's d_model."""
CONV_K = 3
"""The kernel width k of the convolutional row."""
RESTRICTED_R = 32
"""The neighbourhood r of restricted self-attention."""
SHORT_N = 128
"""A sequence shorter than d."""
LONG_N = 2048
"""A sequence longer than d."""
RNN_OVER_ATTENTION_128 = counting.recurrent_multiplies(SHORT_N, D) / counting.self_attention_multiplies(SHORT_N, D)
ATTENTION_2048 = counting.self_attention_multiplies(LONG_N, D)
ATTENTION_OVER_RNN_2048 = ATTENTION_2048 / counting.recurrent_multiplies(LONG_N, D)
CONV_OVER_RNN_128 = counting.convolutional_multiplies(SHORT_N, D, CONV_K) / counting.recurrent_multiplies(SHORT_N, D)
RNN_STEPS = counting.layer_complexity("recurrent").sequential_operations(D)
ATTENTION_STEPS = counting.layer_complexity("self_attention").sequential_operations(D)
CONV_PATH = counting.layer_complexity("convolutional").max_path_length(D, k=CONV_K)
ATTENTION_OVER_RESTRICTED_2048 = ATTENTION_2048 / counting.restricted_attention_multiplies(LONG_N, D, RESTRICTED_R)
RESTRICTED_PATH = counting.layer_complexity("restricted").max_path_length(D, r=RESTRICTED_R)
"""⌈n/r⌉ with r = 32: Table 1's O(n/r)."""
WINDOW = RESTRICTED_R + 1
"""A centred window of 33 positions reaches (33 − 1)/2 = 16 to each side."""
WINDOW_REACH = (WINDOW - 1) // 2
"""How far a centred window reaches to each side in one layer."""
WINDOW_PATH = counting.window_reach_layers(D, WINDOW)
"""Layers until the first position reaches the last, found by propagating the window."""
WINDOW_OVER_TABLE = WINDOW_PATH / RESTRICTED_PATH
SCORES_2048 = LONG_N**2 * BASE.n_heads
"""Scores one layer of the base model's h heads holds for a sequence of 2048."""


LABELS = {
    "D": "表の次元 d (base モデルの d_model)",
    "CONV_K": "畳み込みの幅 k",
    "RESTRICTED_R": "制限付き Self-Attention の窓 r",
    "SHORT_N": "d より短い系列の長さ",
    "LONG_N": "d より長い系列の長さ",
    "RNN_OVER_ATTENTION_128": "n = 128 での再帰層 ÷ Self-Attention",
    "ATTENTION_2048": "n = 2048 の Self-Attention の掛け算の回数",
    "ATTENTION_OVER_RNN_2048": "n = 2048 での Self-Attention ÷ 再帰層",
    "CONV_OVER_RNN_128": "n = 128 での畳み込み ÷ 再帰層",
    "RNN_STEPS": "再帰層の逐次処理の回数",
    "ATTENTION_STEPS": "Self-Attention の逐次処理の回数",
    "CONV_PATH": "膨張畳み込みの最長経路 (層)",
    "ATTENTION_OVER_RESTRICTED_2048": "n = 2048 での制限なし ÷ 制限付き",
    "RESTRICTED_PATH": "原論文の表の n/r",
    "WINDOW": "中心に置く窓の幅",
    "WINDOW_REACH": "窓が 1 層で片側に届く位置の数",
    "WINDOW_PATH": "窓を広げて数えた最長経路 (層)",
    "WINDOW_OVER_TABLE": "数えた層数 ÷ 表の n/r",
    "SCORES_2048": "n = 2048 で 1 層が保持するスコアの数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
