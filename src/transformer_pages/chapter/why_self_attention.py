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
