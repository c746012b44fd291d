"""docs/notes/08-block.md: the whole block — its parameters, and that without W_P it cannot tell word orders apart."""

from __future__ import annotations

import numpy as np

from transformer_math import counting, preset, preset_weights
from transformer_math.attribution import forward_with_position_scale
from transformer_math.preset import SENTENCES


def block_parameter_sizes() -> dict[str, int]:
    """Entries of every parameter array of the preset block (W_E left out: it is the lookup table)."""
    return counting.weight_sizes(preset_weights(), embedding=False)


def block_parameter_count() -> int:
    return sum(block_parameter_sizes().values())


def block_nonzero_count() -> int:
    """How many of those entries the hand-made preset sets to something other than 0."""
    return sum(counting.nonzero_entries(preset_weights(), embedding=False).values())


def nonzero_share() -> float:
    return block_nonzero_count() / block_parameter_count()


def permutation_difference(sentence_number: int, position_scale: float) -> float:
    """max |block(reversed words) − reversed(block(words))| of ln2_out, with W_P scaled by position_scale.

    0 (to rounding) without W_P: a block without position cannot tell word orders apart.
    """
    tokens = preset.sentence(sentence_number).token_ids
    perm = np.arange(len(tokens))[::-1]
    out = forward_with_position_scale(preset_weights(), tokens, position_scale).ln2_out  # (T, d_model)
    out_perm = forward_with_position_scale(preset_weights(), tokens[perm], position_scale).ln2_out
    return float(np.abs(out_perm - out[perm]).max())


def permutation_difference_max(position_scale: float) -> float:
    """:func:`permutation_difference` for the worst of the eight sentences."""
    return max(permutation_difference(s.number, position_scale) for s in SENTENCES)


def general_formula_count() -> int:
    """The general count for a block without attention biases: 4·d² (W_Q, W_K, W_V, W_O) + the FFN's weights and
    biases + two LayerNorms' γ and β, at the preset's sizes."""
    d, d_ff = preset.D_MODEL, preset.D_FF
    return counting.attention_params(d, bias=False) + counting.ffn_params(d, d_ff) + 2 * counting.layer_norm_params(d)


LABELS = {
    "block_parameter_sizes()": "ブロックの各重みの成分数",
    "block_parameter_count()": "ブロックのパラメータの合計 (W_E を除く)",
    "block_nonzero_count()": "ブロックの 0 でないパラメータの数",
    "nonzero_share()": "ブロックの 0 でないパラメータの割合",
    "general_formula_count()": "attention にバイアスのないブロックの一般式のパラメータ数",
    "permutation_difference_max()": "8 文で逆順にした ln2_out の差の最大 (W_P の倍率 {0})",
    "permutation_difference()": "文{0} を逆順にした ln2_out の差 (W_P の倍率 {1})",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
