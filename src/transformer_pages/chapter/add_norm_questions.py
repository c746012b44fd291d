"""docs/chapter/06-add-norm.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import ops

from .. import which
from .add_norm import ln

TOY = np.array([1.0, 3.0, 5.0, 7.0])
"""A four-number vector to normalise by hand (γ = 1, β = 0)."""


def toy_first() -> float:
    return float(ops.layer_norm(TOY)[0])


def final_norm_reason() -> str:
    """Why Pre-LN models add a LayerNorm after the last block: their residual stream grows un-normalised."""
    rms = ln().activation_rms
    pre_grows = bool(rms["pre"][-1] > rms["pre"][0])
    post_stays = bool(np.allclose(rms["post"], 1.0, atol=1e-3))
    return which({"grows": pre_grows and post_stays, "shrinks": not pre_grows, "post": not post_stays}, True)


def post_ln_formula() -> str:
    """Which offered formula ``ops.post_ln`` computes, on a random input and a random linear sublayer."""
    return ln_placement_formula(ops.post_ln, seed=0)


def ln_placement_formula(placement, seed: int) -> str:
    """Which of the three offered formulas ``placement`` (``ops.post_ln`` or ``ops.pre_ln``) computes."""
    rng = np.random.default_rng(seed)
    x, W = rng.standard_normal((4, 8)), rng.standard_normal((8, 8))

    def sublayer(a):
        return a @ W

    return which(
        {
            "norm_of_sum": ops.layer_norm(x + sublayer(x)),
            "sum_of_norm": x + sublayer(ops.layer_norm(x)),
            "norm_then_add": ops.layer_norm(x) + sublayer(x),
        },
        placement(x, sublayer),
    )


LABELS = {
    "toy_first()": "(1, 3, 5, 7) の LayerNorm の最初の成分",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
