"""docs/notes/08-block.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import ops, preset, preset_trace, preset_weights
from transformer_math.attribution import forward_with_position_scale

from .. import which
from .block import block_parameter_sizes

MATRICES = ("W_Q", "W_K", "W_V", "W_O", "W1", "W2")


def matrix_entries() -> int:
    """Entries of the block's six weight matrices (no biases, no LayerNorm)."""
    sizes = block_parameter_sizes()
    return sum(sizes[name] for name in MATRICES)


def mixing_stage() -> str:
    """The one offered stage where a token's output depends on the other tokens: move token 1, watch row 0."""
    W = preset_weights()
    x = preset_trace(1).ln1_out
    moved = x.copy()
    moved[1] += 1.0
    stages = {
        "attn": lambda a: ops.multi_head_attention(a, a, W.W_Q, W.W_K, W.W_V, W.W_O, preset.N_HEADS),
        "ln": ops.layer_norm,
        "ffn": lambda a: ops.ffn(a, W.W1, W.b1, W.W2, W.b2)[2],
        "residual": lambda a: a + x,  # the residual adds another array of the same shape, element by element
    }
    mixes = {key: not np.allclose(f(x)[0], f(moved)[0]) for key, f in stages.items()}
    return which(mixes, True)


def reversed_without_position() -> str:
    """Without W_P, what reversing sentence 1 does to ln2_out: only its rows come out reversed (permutation
    equivariance), tested against the other offered outcomes."""
    tokens = preset.sentence(1).token_ids
    out = forward_with_position_scale(preset_weights(), tokens, 0.0).ln2_out
    out_reversed = forward_with_position_scale(preset_weights(), tokens[::-1], 0.0).ln2_out
    rows_reversed = bool(np.allclose(out_reversed, out[::-1], rtol=0, atol=1e-12))
    unchanged = bool(np.allclose(out_reversed, out, rtol=0, atol=1e-12))
    return which({"reversed": rows_reversed, "same": unchanged, "changed": not (rows_reversed or unchanged)}, True)


LABELS = {
    "matrix_entries()": "ブロックの 6 つの重み行列の成分の合計",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
