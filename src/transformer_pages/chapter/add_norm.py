"""docs/chapter/06-add-norm.md: Post-LN against Pre-LN in six random blocks (the chapter's instance of the stack)."""

from __future__ import annotations

from functools import cache

from transformer_math import stack
from transformer_math.stack import LNComparison

LN_LAYERS = 6
"""Blocks in the experiment: N of the original Transformer."""
LN_D_MODEL, LN_HEADS, LN_D_FF, LN_TOKENS, LN_SEEDS = 32, 4, 128, 8, 4
"""Sizes: small enough to run in milliseconds, with d_ff = 4·d_model as in the original; LN_SEEDS random stacks
give the spread of the gradient profile."""


@cache
def ln() -> LNComparison:
    """Same random weights, input and read-out per seed; only the place of the LayerNorm differs."""
    return stack.compare_ln_placement(LN_LAYERS, LN_D_MODEL, LN_HEADS, LN_D_FF, LN_TOKENS, LN_SEEDS)
