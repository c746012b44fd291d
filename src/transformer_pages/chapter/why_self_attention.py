"""docs/chapter/08-why-self-attention.md: Table 1 of Vaswani et al. 2017 counted at d = 512."""

from __future__ import annotations

from transformer_math import counting

D = 512
RNN_OVER_ATTENTION_128 = counting.recurrent_multiplies(128, D) / counting.self_attention_multiplies(128, D)
ATTENTION_2048 = counting.self_attention_multiplies(2048, D)
ATTENTION_OVER_RNN_2048 = ATTENTION_2048 / counting.recurrent_multiplies(2048, D)
CONV_OVER_RNN_128 = counting.convolutional_multiplies(128, D, 3) / counting.recurrent_multiplies(128, D)
RNN_STEPS = counting.layer_complexity("recurrent").sequential_operations(D)
ATTENTION_STEPS = counting.layer_complexity("self_attention").sequential_operations(D)
CONV_PATH = counting.layer_complexity("convolutional").max_path_length(D, k=3)
ATTENTION_OVER_RESTRICTED_2048 = ATTENTION_2048 / counting.restricted_attention_multiplies(2048, D, 32)
RESTRICTED_PATH = counting.layer_complexity("restricted").max_path_length(D, r=32)
"""⌈n/r⌉ with r = 32: Table 1's O(n/r)."""
WINDOW = 33
"""A centred window of 33 positions reaches (33 − 1)/2 = 16 to each side."""
WINDOW_PATH = counting.window_reach_layers(D, WINDOW)
"""Layers until the first position reaches the last, found by propagating the window."""
WINDOW_OVER_TABLE = WINDOW_PATH / RESTRICTED_PATH
