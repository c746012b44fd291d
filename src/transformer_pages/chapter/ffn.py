"""docs/chapter/05-ffn.md: the position-wise FFN at the base model's sizes, and ReLU against GELU."""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import activations, counting, ops
from transformer_math.activations import ActivationComparison
from transformer_math.configs import TRANSFORMER_BASE as BASE

SEED = 0
WIDENING = BASE.d_ff // BASE.d_model
"""d_ff = 4 · d_model."""
ATTENTION_WEIGHTS = counting.attention_params(BASE.d_model, bias=False)
FFN_WEIGHTS = counting.ffn_params(BASE.d_model, BASE.d_ff, bias=False)
FFN_PARAMS = counting.ffn_params(BASE.d_model, BASE.d_ff)
BLOCK_WEIGHTS = counting.block_params(BASE.d_model, BASE.d_ff, bias=False, layer_norm=False)
FFN_SHARE = FFN_WEIGHTS / BLOCK_WEIGHTS
"""The FFN's share of one block's weight matrices: 2/3."""

ACTIVATION_SAMPLES = 100_000
"""N(0, 1) inputs on which the share of exact zeros of ReLU and GELU is counted."""


@cache
def activations_compared() -> ActivationComparison:
    return activations.compare_activations(ACTIVATION_SAMPLES, SEED)


def position_wise_gap(T: int = 7, d_model: int = 16, d_ff: int = 64, seed: int = SEED) -> float:
    """max |FFN(X)[t] − FFN(X[t])| over t, random weights: applying the FFN to the matrix = row by row."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((T, d_model))
    W1, W2 = rng.standard_normal((d_model, d_ff)), rng.standard_normal((d_ff, d_model))
    b1, b2 = rng.standard_normal(d_ff), rng.standard_normal(d_model)
    whole = ops.ffn(X, W1, b1, W2, b2, ops.relu)[2]  # (T, d_model) all rows at once
    rows = np.stack([ops.ffn(X[t : t + 1], W1, b1, W2, b2, ops.relu)[2][0] for t in range(T)])
    return float(np.max(np.abs(whole - rows)))


LABELS = {
    "WIDENING": "d_ff ÷ d_model",
    "ATTENTION_WEIGHTS": "原論文の 1 層の Attention の重み (4d²)",
    "FFN_WEIGHTS": "原論文の 1 層の FFN の重み (2d·d_ff)",
    "BLOCK_WEIGHTS": "原論文のエンコーダ 1 層の重み",
    "FFN_SHARE": "1 層の重みのうち FFN の割合",
    "FFN_PARAMS": "FFN のパラメータ数 (バイアス込み)",
    "ACTIVATION_SAMPLES": "活性化関数の比較に使う標準正規乱数の数",
    "activations_compared()": "ReLU と GELU の比較",
    "activations_compared().gelu_argmin": "GELU が最小になる x",
    "activations_compared().gelu_min": "GELU の最小値",
    "activations_compared().relu_zero_fraction": "ReLU の出力がちょうど 0 になった割合",
    "activations_compared().gelu_zero_fraction": "GELU の出力がちょうど 0 になった割合",
    "position_wise_gap()": "行列にまとめてかけた FFN と 1 行ずつかけた FFN の差の最大",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
