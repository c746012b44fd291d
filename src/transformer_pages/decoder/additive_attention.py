"""docs/decoder/06-additive-attention.md: additive (Bahdanau) and dot-product scores on the cross-attention
example's vectors, and what each computes."""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import additive_attention as aa
from transformer_math import cross_attention as xa

SEED = 11
"""Seed of the additive score's W_a, U_a, v_a (untrained, like the cross-attention example's weights)."""
WIDTH = 8
"""d_a = d_k: the width where the two scores meet the queries and keys."""
LARGE = (512, 512, 512, 64)
"""n, m, d, width of the large comparison: the original Transformer's d_model and d_k, 512 positions each side."""


@cache
def example() -> dict[str, np.ndarray]:
    """Both scores of the cross-attention example's queries (n = 3) against its memory (m = 5)."""
    ex = xa.worked_example()
    s, h = ex.trace.X_dec, ex.trace.memory
    d = s.shape[1]
    rng = np.random.default_rng(SEED)
    W_a, U_a = rng.standard_normal((d, WIDTH)) / np.sqrt(d), rng.standard_normal((d, WIDTH)) / np.sqrt(d)
    v_a = rng.standard_normal(WIDTH) / np.sqrt(WIDTH)
    q, k = s @ ex.weights.W_Q[:, :WIDTH], h @ ex.weights.W_K[:, :WIDTH]  # head 0 of the example
    hidden = np.tanh((s @ W_a)[:, None, :] + (h @ U_a)[None, :, :])
    out = {
        "additive": aa.additive_scores(s, h, W_a, U_a, v_a),
        "hidden": hidden,
        "dot": aa.dot_product_scores(q, k),
    }
    for value in out.values():
        value.setflags(write=False)
    return out


def example_shape(name: str) -> tuple[int, ...]:
    return example()[name].shape


def small() -> aa.Comparison:
    ex = xa.worked_example().trace
    return aa.compare(ex.X_dec.shape[0], ex.memory.shape[0], ex.X_dec.shape[1], WIDTH)


def large() -> aa.Comparison:
    return aa.compare(*LARGE)


LABELS = {
    "SEED": "加法注意の重みの乱数の seed",
    "WIDTH": "加法注意の隠れ層の幅 d_a (= d_k)",
    "LARGE": "大きな比較の n, m, d, 幅",
    "LARGE[]": "大きな比較の n, m, d, 幅の {0} 番目",
    "example_shape()": "例の「{0}」の形",
    "example_shape()[]": "例の「{0}」の形の {1} 番目の長さ",
    "small()": "例の大きさでの 2 つの点数の計算量",
    "small().additive.multiplies": "例の大きさでの加法注意の積和",
    "small().dot_product.multiplies": "例の大きさでの内積注意の積和",
    "small().additive.tanh": "例の大きさでの加法注意の tanh の回数",
    "small().additive.largest_intermediate": "例の大きさでの加法注意の最大の配列の大きさ",
    "small().dot_product.largest_intermediate": "例の大きさでの内積注意の最大の配列の大きさ",
    "large()": "大きな比較での 2 つの点数の計算量",
    "large().additive.multiplies": "大きな比較での加法注意の積和",
    "large().dot_product.multiplies": "大きな比較での内積注意の積和",
    "large().additive.tanh": "大きな比較での加法注意の tanh の回数",
    "large().additive.largest_intermediate": "大きな比較での加法注意の最大の配列の大きさ",
    "large().dot_product.largest_intermediate": "大きな比較での内積注意の最大の配列の大きさ",
    "large().memory_ratio": "大きな比較での、加法注意と内積注意の最大の配列の大きさの比",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
