"""comparisons: each helper against an independent route (closed form, or counting's own code)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from transformer_math import comparisons, counting


@given(st.integers(1, 4096), st.integers(1, 16384))
def test_weight_terms_add_up_to_countings_weights_only_block(d_model, d_ff):
    weights = sum(comparisons.block_weight_terms(d_model, d_ff).values())
    assert weights == counting.block_params(d_model, d_ff, bias=False, layer_norm=False)


@given(st.integers(1, 4096), st.integers(1, 16384))
def test_weights_plus_small_terms_is_the_full_block(d_model, d_ff):
    weights = sum(comparisons.block_weight_terms(d_model, d_ff).values())
    small = sum(comparisons.block_small_terms(d_model, d_ff).values())
    assert weights + small == counting.block_params(d_model, d_ff)


def test_original_block_terms():
    # 4·512² + 2·512·2048, written out by hand from the paper's sizes
    assert sum(comparisons.block_weight_terms(512, 2048).values()) == 4 * 512 * 512 + 2 * 512 * 2048 == 3_145_728
    assert sum(comparisons.block_small_terms(512, 2048).values()) == 4 * 512 + 2048 + 512 + 4 * 512


@given(st.integers(1, 3000))
def test_crossover_is_where_attention_stops_being_cheaper(d):
    n = comparisons.crossover_n(d)
    assert n == d
    assert counting.self_attention_multiplies(n, d) == counting.recurrent_multiplies(n, d)
    if n > 1:
        assert counting.self_attention_multiplies(n - 1, d) < counting.recurrent_multiplies(n - 1, d)
    assert counting.self_attention_multiplies(n + 1, d) > counting.recurrent_multiplies(n + 1, d)


@given(st.integers(1, 600), st.integers(1, 40))
def test_window_reach_matches_the_closed_form(n, half):
    r = 2 * half + 1
    expected = math.ceil((n - 1) / half)
    assert comparisons.window_reach_layers(n, r) == expected


def test_window_reach_is_about_twice_n_over_r():
    # a centred window reaches (r−1)/2 positions per layer: about 2n/r layers, the O(n/r) of Table 1
    layers = comparisons.window_reach_layers(512, 33)
    assert layers == 32
    assert layers == 2 * counting.layer_complexity("restricted").max_path_length(512, r=32)


@pytest.mark.parametrize("r", [0, 1, 2, 8, -3])
def test_window_reach_rejects_bad_windows(r):
    with pytest.raises(ValueError, match=r"r must be|r must be a positive integer"):
        comparisons.window_reach_layers(10, r)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: comparisons.block_weight_terms(0, 2048), "d_model must be a positive integer, got 0"),
        (lambda: comparisons.block_small_terms(512, 1.5), "d_ff must be a positive integer, got 1.5"),
        (lambda: comparisons.crossover_n(True), "d must be a positive integer, got True"),
        (lambda: comparisons.log_base(8, 1), "base ≠ 1"),
    ],
)
def test_errors_name_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_log_base():
    assert comparisons.log_base(512, 8) == pytest.approx(3.0)
