"""docs/notes/05-layernorm1.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

import numpy as np

from transformer_math import ops, preset_trace
from transformer_math.layernorm import layer_norm_unbiased
from transformer_math.preset import EPS

from .. import which
from .layernorm1 import divisor

TOY = np.array([2.0, 4.0, 4.0, 6.0])
"""A four-number row to standardise by hand."""


def toy_last() -> float:
    """LayerNorm(TOY)[-1] with γ = 1, β = 0 and the preset's ε."""
    return float(ops.layer_norm(TOY, eps=EPS)[-1])


def toy_last_unbiased() -> float:
    """The same with the unbiased variance (÷ (d − 1)): the slip the question warns about."""
    return float(layer_norm_unbiased(TOY, EPS)[-1])


SENTENCE, TOKEN, DIM = 1, 2, 1
"""The standardisation question: sentence 1, 美しい (T2), its adjective dimension d1."""


def residual() -> float:
    return float(preset_trace(SENTENCE).residual1[TOKEN, DIM])


def mean() -> float:
    return float(preset_trace(SENTENCE).mu1[TOKEN])


def row_divisor() -> float:
    return divisor(TOKEN)


def ln1_value() -> float:
    return float(preset_trace(SENTENCE).ln1_out[TOKEN, DIM])


def ln1_from_shown() -> float:
    return (round(residual(), 3) - round(mean(), 3)) / round(row_divisor(), 3)


def normalised_axis() -> str:
    """Over which axis ln1_out has mean 0: each token's row (LayerNorm), not each dimension's column."""
    out = preset_trace(SENTENCE).ln1_out
    rows, columns = np.allclose(out.mean(axis=1), 0), np.allclose(out.mean(axis=0), 0)
    claims = {"row": (True, False), "column": (False, True), "sentence": (False, False)}
    return which(claims, (bool(rows), bool(columns)))


LABELS = {
    "toy_last()": "(2, 4, 4, 6) の LayerNorm の最後の成分",
    "toy_last_unbiased()": "不偏分散で計算した (2, 4, 4, 6) の最後の成分",
    "residual()": "文1 の residual1[美しい, d1]",
    "mean()": "文1 の LayerNorm 1 の平均 μ[美しい]",
    "row_divisor()": "文1 の 美しい の行の √(σ² + ε)",
    "ln1_value()": "文1 の ln1_out[美しい, d1]",
    "ln1_from_shown()": "表示の 3 桁から計算した ln1_out[美しい, d1]",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
