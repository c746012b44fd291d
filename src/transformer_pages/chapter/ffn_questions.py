"""docs/chapter/05-ffn.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import counting, ops
from transformer_math.configs import BERT_BASE

from .. import which
from .ffn import SEED, position_wise_gap


def bert_ffn_params() -> int:
    """One FFN of BERT-base with its biases: H = 768, 4H = 3072."""
    return counting.ffn_params(BERT_BASE.hidden_size, BERT_BASE.intermediate_size)


GELU_AT = -2.0


def gelu_at() -> float:
    return float(ops.gelu(GELU_AT))


def position_wise() -> str:
    """What "position-wise" means, tested on random rows: all rows at once equal one row at a time (one W₁, W₂
    for every position), and no output row depends on another input row."""
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal((4, 8))
    W1, b1, W2, b2 = rng.standard_normal((8, 16)), rng.standard_normal(16), rng.standard_normal((16, 8)), np.zeros(8)
    moved = x.copy()
    moved[1] += 1.0
    mixes = not np.allclose(ops.ffn(x, W1, b1, W2, b2)[2][0], ops.ffn(moved, W1, b1, W2, b2)[2][0])
    per_position = W1.ndim == 3  # a weight of its own for each position would need a position axis
    shared = position_wise_gap() < 1e-12 and not mixes
    return which({"shared": bool(shared), "mixed": bool(mixes), "per_position": per_position}, True)


def gelu_inner() -> float:
    """The argument of tanh in GELU(−2): √(2/π)·(x + 0.044715·x³)."""
    x = GELU_AT
    return float(np.sqrt(2 / np.pi) * (x + ops.GELU_CUBIC_COEFF * x**3))


def gelu_tanh() -> float:
    return float(np.tanh(gelu_inner()))


LABELS = {
    "bert_ffn_params()": "BERT-base の FFN 1 つのパラメータ数 (バイアス込み)",
    "gelu_at()": "GELU(−2) の値",
    "gelu_inner()": "GELU(−2) の tanh の中身",
    "gelu_tanh()": "GELU(−2) の tanh の値",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
