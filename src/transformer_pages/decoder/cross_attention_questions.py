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




# ----------------------------------------------------------------------------------- asked on the exam page

EXAM_N, EXAM_M, EXAM_H = 2, 7, 4


def exam_run():
    rng = np.random.default_rng(1)
    X_dec, memory = rng.normal(size=(EXAM_N, D)), rng.normal(size=(EXAM_M, D))
    return xa.cross_attention(X_dec, memory, xa.random_weights(D, EXAM_H, 2))


EXAM_SHAPES = {
    "h_n_m": (EXAM_H, EXAM_N, EXAM_M), "h_m_n": (EXAM_H, EXAM_M, EXAM_N), "n_m": (EXAM_N, EXAM_M),
    "h_n_n": (EXAM_H, EXAM_N, EXAM_N),
}  # fmt: skip


def exam_attn_shape() -> str:
    return which(EXAM_SHAPES, exam_run().shapes()["attn"])


def memory_side() -> str:
    """Which matrices change when only the memory changes: K and V (the queries stay)."""
    rng = np.random.default_rng(3)
    x, memory = rng.normal(size=(EXAM_N, D)), rng.normal(size=(EXAM_M, D))
    w = xa.random_weights(D, EXAM_H, 4)
    a, b = xa.cross_attention(x, memory, w), xa.cross_attention(x, memory + 1.0, w)
    changed = tuple(name for name in ("Q", "K", "V") if not np.array_equal(getattr(a, name), getattr(b, name)))
    return which({"kv": ("K", "V"), "q": ("Q",), "qkv": ("Q", "K", "V")}, changed)


LABELS = {
    "N": "問題のデコーダ側の位置の数 n",
    "M": "問題のエンコーダ側の位置の数 m",
    "H": "問題のヘッドの数 h",
    "D": "問題の d_model",
    "weights_per_head()": "例の 1 ヘッドの重みの数 n × m",
    "EXAM_N": "試験の問題のデコーダ側の位置の数 n",
    "EXAM_M": "試験の問題のエンコーダ側の位置の数 m",
    "EXAM_H": "試験の問題のヘッドの数 h",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
