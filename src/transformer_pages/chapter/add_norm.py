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


LABELS = {
    "LN_LAYERS": "実験のブロック数 N",
    "LN_D_MODEL": "実験の d_model",
    "LN_HEADS": "実験のヘッドの数",
    "LN_D_FF": "実験の d_ff",
    "LN_TOKENS": "実験のトークン数",
    "ln()": "Post-LN と Pre-LN の比較実験",
    "ln().activation_rms": "各ブロックの後の残差ストリームの RMS",
    "ln().relative_update": "1 ブロックでの相対的な変化",
    "ln().update_rms": "1 ブロックが足す量の RMS",
    "ln().grad_norm": "W2 の勾配の層による配分 (層平均との比)",
    "ln().grad_spread": "勾配の配分の乱数による標準偏差",
    "ln().n_layers": "実験のブロック数",
    "ln().n_seeds": "重みの乱数の数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
