"""The math of one Transformer block, in numpy only (no matplotlib, no mkdocs).

>>> from transformer_math import preset_trace
>>> round(float(preset_trace(1).scores[0, 2, 3]), 3)
3.526
"""

from __future__ import annotations

from functools import cache

from . import ops, preset
from .block import BlockTrace, BlockWeights, forward
from .preset import SENTENCES, build_preset
from .tokenizer import tokenize

__all__ = [
    "SENTENCES",
    "BlockTrace",
    "BlockWeights",
    "build_preset",
    "forward",
    "ops",
    "preset",
    "preset_trace",
    "tokenize",
]  # fmt: skip


@cache
def preset_trace(sentence_number: int) -> BlockTrace:
    """Forward pass of the preset block on example sentence 1 … 8."""
    return forward(build_preset(), preset.sentence(sentence_number).token_ids)
