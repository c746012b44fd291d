"""docs/decoder/05-cross-attention.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

import numpy as np

from transformer_math import cross_attention as xa

from .. import which
from .cross_attention import example

N, M, H, D = 4, 6, 2, 16
"""The shape question: 4 decoder positions, 6 encoder positions, 2 heads, d_model 16."""


def run():
    rng = np.random.default_rng(0)
    return xa.cross_attention(rng.normal(size=(N, D)), rng.normal(size=(M, D)), xa.random_weights(D, H, 1))


SHAPES = {"h_n_m": (H, N, M), "h_m_n": (H, M, N), "h_n_n": (H, N, N), "h_m_m": (H, M, M)}


def scores_shape() -> str:
    return which(SHAPES, run().shapes()["scores"])


OUTPUTS = {"n_d": (N, D), "m_d": (M, D), "n_m": (N, M)}


def output_shape() -> str:
    return which(OUTPUTS, run().shapes()["Y"])


def weights_per_head() -> int:
    """The n × m weights of one head in the page's example."""
    attn = example().trace.attn
    return int(attn.shape[1] * attn.shape[2])


LABELS = {
    "N": "問題のデコーダ側の位置の数 n",
    "M": "問題のエンコーダ側の位置の数 m",
    "H": "問題のヘッドの数 h",
    "D": "問題の d_model",
    "weights_per_head()": "例の 1 ヘッドの重みの数 n × m",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
