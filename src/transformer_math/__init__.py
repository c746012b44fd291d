"""The math of one Transformer block, in numpy only (no matplotlib, no mkdocs), organised by concept.

ops (the operations), preset (the hand-set weights and the cached trace of each sentence), block (the forward
pass), derivations (one cell from its terms), attribution (W_E against W_P inside the block), layernorm,
positional, activations, attention, stack (Post-LN against Pre-LN), similarity, counting, configs, schedules,
adam, masking (BERT's masked LM), rounding (machine epsilon), tokenizer.

>>> from transformer_math import preset_trace
>>> round(float(preset_trace(1).scores[0, 2, 3]), 3)
3.526
"""

from __future__ import annotations

from . import ops, preset
from .block import BlockTrace, BlockWeights, forward
from .preset import SENTENCES, build_preset, preset_trace, preset_weights
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
    "preset_weights",
    "tokenize",
]  # fmt: skip
