"""The math of one Transformer block, in numpy only (no matplotlib, no mkdocs), organised by concept.

model (a model as a value: weights, vocabulary, sizes, sentences, cached traces), preset (the hand-set
"japanese-mini" encoder, ``ENCODER``, the default model), ops (the operations), block (the forward pass),
backward, training, derivations (one cell from its terms), attribution (W_E against W_P inside the block),
layernorm, positional, activations, attention, stack (Post-LN against Pre-LN), similarity, counting, configs,
schedules, adam, masking (BERT's masked LM), rounding (machine epsilon), tokenizer.

>>> from transformer_math import ENCODER, preset_trace
>>> round(float(preset_trace(1).scores[0, 2, 3]), 3), ENCODER.trace(1) is preset_trace(1)
(3.526, True)
"""

from __future__ import annotations

from . import ops, preset
from .block import BlockTrace, BlockWeights, forward
from .model import Encoder, Model
from .preset import ENCODER, SENTENCES, build_preset, preset_trace, preset_weights
from .tokenizer import tokenize

__all__ = [
    "ENCODER",
    "SENTENCES",
    "BlockTrace",
    "BlockWeights",
    "Encoder",
    "Model",
    "build_preset",
    "forward",
    "ops",
    "preset",
    "preset_trace",
    "preset_weights",
    "tokenize",
]  # fmt: skip
