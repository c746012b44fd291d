"""The block as the original Transformer trains it: residual dropout where Vaswani et al. 2017 put it (§5.4).

"We apply dropout to the output of each sub-layer, before it is added to the sub-layer input and normalized.
In addition, we apply dropout to the sums of the embeddings and the positional encodings" (§5.4, Residual
Dropout). In this block's names: ``Y`` (the attention sub-layer's output), ``ffn_out`` (the FFN's) and ``X``
(W_E[tokens] + W_P). :func:`forward_train` runs the block with dropout at exactly :data:`RESIDUAL_DROPOUT_SITES`
and returns which entries it kept at each, so a question can ask where dropout acts and ``src`` answers it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import ops
from .block import BlockTrace, BlockWeights, forward
from .configs import TRANSFORMER_BASE

RESIDUAL_DROPOUT_SITES = ("X", "Y", "ffn_out")
"""Where §5.4 applies dropout, in the block's order: the embeddings + positions sum, then each sub-layer's output."""


@dataclass
class ResidualDropout:
    """Inverted dropout with rate ``p`` at the sites the block names; ``kept[site]``: the entries it kept."""

    p: float
    rng: np.random.Generator
    sites: tuple[str, ...] = RESIDUAL_DROPOUT_SITES
    kept: dict[str, np.ndarray] = field(default_factory=dict)

    def __call__(self, site: str, x: np.ndarray) -> np.ndarray:
        if site not in self.sites:
            return x
        keep = ops.dropout_keep(np.shape(x), self.p, self.rng)
        self.kept[site] = keep
        return np.where(keep, np.asarray(x, dtype=np.float64) / (1.0 - self.p), 0.0)


def forward_train(
    weights: BlockWeights, tokens: np.ndarray, p: float = TRANSFORMER_BASE.dropout, seed: int = 0
) -> tuple[BlockTrace, dict[str, np.ndarray]]:
    """One training-mode pass of the block (dropout rate ``p``, seeded): its trace, and for each site where
    dropout acted, the entries it kept (bool, the intermediate's shape). With p = 0 the trace is ``forward``'s."""
    dropout = ResidualDropout(p, np.random.default_rng(seed))
    trace = forward(weights, tokens, dropout=dropout)
    return trace, dict(dropout.kept)


def dropped_sites(weights: BlockWeights, tokens: np.ndarray, p: float = TRANSFORMER_BASE.dropout) -> tuple[str, ...]:
    """The intermediates a training pass drops entries of, in the block's order."""
    return tuple(forward_train(weights, tokens, p)[1])
