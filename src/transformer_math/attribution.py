"""Where a value inside the block comes from: the token embedding W_E or the positional encoding W_P.

Two routes, both exact in what they claim:

1. **Linear attribution with the realised nonlinear scalars frozen.** Given the attention weights ``attn`` and
   each token's LayerNorm scale √(σ²+ε) as they came out of the real forward pass, everything between X and
   ffn_pre is linear: Y = concat_h(attn_h · (X W_V)_h) · W_O, residual1 = X + Y, ln1_out = (residual1 − mean)
   / √(σ²+ε) · γ + β. Split X = X_tok + X_pos and push each part through the same linear map
   (:func:`ln1_parts`); the parts sum to ln1_out up to rounding. What this does *not* capture: that position
   also changes attn and σ themselves.
2. **Counterfactual: the same forward with W_P scaled** (:func:`forward_with_position_scale`, 0 removes it).
   This captures every path, attn and σ included, but is not additive.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import ops
from .block import BlockTrace, BlockWeights, forward_from_embeddings


def forward_with_position_scale(weights: BlockWeights, tokens: np.ndarray, position_scale: float) -> BlockTrace:
    """The block forward with X = W_E[tokens] + position_scale · W_P; scale 1 reproduces ``block.forward`` exactly."""
    if not np.isfinite(position_scale):
        raise ValueError(f"position_scale must be finite, got {position_scale!r}")
    tokens = np.asarray(tokens)
    if (
        tokens.ndim != 1
        or not np.issubdtype(tokens.dtype, np.integer)
        or not np.all((tokens >= 0) & (tokens < weights.vocab_size))
    ):
        raise ValueError(f"tokens must be integer ids 0 … {weights.vocab_size - 1} of shape (T,), got {tokens!r}")
    X_tok = weights.W_E[tokens]  # (T, d_model)
    X_pos = ops.positional_encoding(len(tokens), weights.d_model)
    return forward_from_embeddings(weights, tokens, X_tok, position_scale * X_pos)


def value_path(weights: BlockWeights, attn: np.ndarray, component: np.ndarray) -> np.ndarray:
    """The attention output Y that one part of X produces with the attention weights held fixed.

    attn: (h, T, T), component: (T, d_model) → (T, d_model). Linear in ``component``; summed over the parts of
    X it gives the real Y.
    """
    h = weights.n_heads
    V = ops.split_heads(component @ weights.W_V, h).transpose(1, 0, 2)  # (h, T, d_k)
    return ops.concat_heads((attn @ V).transpose(1, 0, 2)) @ weights.W_O  # (T, d_model)


@dataclass(frozen=True)
class Ln1Parts:
    """ln1_out split by origin, with attn and each token's LayerNorm scale held at their real values.

    own_tok + attn_tok + own_pos + attn_pos + beta == ln1_out (to rounding). Each part is (T, d_model).
    """

    own_tok: np.ndarray  # from the token's own W_E row on the residual path
    attn_tok: np.ndarray  # from W_E rows gathered by attention (Y's token part)
    own_pos: np.ndarray  # from the token's own W_P row
    attn_pos: np.ndarray  # from W_P rows gathered by attention
    beta: np.ndarray  # (d_model,) LayerNorm 1's shift

    @property
    def tok(self) -> np.ndarray:
        return self.own_tok + self.attn_tok

    @property
    def pos(self) -> np.ndarray:
        return self.own_pos + self.attn_pos


def ln1_parts(weights: BlockWeights, trace: BlockTrace) -> Ln1Parts:
    """Split ln1_out into token / position parts, each on the own-row and the attention path."""
    scale = np.sqrt(trace.residual1.var(axis=1) + weights.eps)[:, None]  # (T, 1), held fixed

    def normalise(part: np.ndarray) -> np.ndarray:
        # LayerNorm without its nonlinearity: centring is linear, the divisor is the real one.
        return (part - part.mean(axis=1, keepdims=True)) / scale * weights.ln1_gamma

    return Ln1Parts(
        own_tok=normalise(trace.X_tok),
        attn_tok=normalise(value_path(weights, trace.attn, trace.X_tok)),
        own_pos=normalise(trace.X_pos),
        attn_pos=normalise(value_path(weights, trace.attn, trace.X_pos)),
        beta=weights.ln1_beta,
    )
