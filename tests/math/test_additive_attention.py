"""Additive and dot-product scores against loops, and their costs against what the code holds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_math import additive_attention as aa


def test_the_scores_equal_their_definitions_cell_by_cell():
    rng = np.random.default_rng(0)
    n, m, d, d_a = 3, 4, 5, 6
    s, h = rng.normal(size=(n, d)), rng.normal(size=(m, d))
    W_a, U_a, v_a = rng.normal(size=(d, d_a)), rng.normal(size=(d, d_a)), rng.normal(size=d_a)
    additive = aa.additive_scores(s, h, W_a, U_a, v_a)
    dot = aa.dot_product_scores(s, h)
    for i in range(n):
        for j in range(m):
            e = sum(v_a[k] * math.tanh(float(s[i] @ W_a[:, k] + h[j] @ U_a[:, k])) for k in range(d_a))
            assert math.isclose(additive[i, j], e, rel_tol=1e-12)
            assert math.isclose(dot[i, j], float(s[i] @ h[j]) / math.sqrt(d), rel_tol=1e-12)


def test_the_costs_count_the_same_multiplications_and_differ_in_what_they_hold():
    c = aa.compare(n=7, m=5, d=16, width=8)
    assert c.additive.multiplies == c.dot_product.multiplies  # same widths: the same multiply-adds
    assert c.additive.tanh == 7 * 5 * 8 and c.dot_product.tanh == 0
    assert c.memory_ratio == 8
    rng = np.random.default_rng(1)
    hidden = np.tanh(rng.normal(size=(7, 8))[:, None, :] + rng.normal(size=(5, 8))[None, :, :])
    assert hidden.size == c.additive.largest_intermediate


def test_bad_sizes_are_errors():
    with pytest.raises(ValueError, match="width must be a positive integer"):
        aa.compare(3, 4, 5, 0)
