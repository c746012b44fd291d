"""Property tests of the general ops: what must hold for every input, not only the preset's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from transformer_math import ops

finite = st.floats(-50.0, 50.0, allow_nan=False, allow_infinity=False)
matrices = arrays(np.float64, array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=12), elements=finite)
seeds = st.integers(0, 2**32 - 1)


def _random_attention(seed: int, T: int, d: int, h: int):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    W_Q, W_K, W_V, W_O = (rng.normal(size=(d, d)) / np.sqrt(d) for _ in range(4))
    return X, W_Q, W_K, W_V, W_O


# --- softmax ---------------------------------------------------------------------------------------


@given(matrices)
def test_softmax_rows_sum_to_one_and_are_probabilities(z):
    p = ops.softmax(z, axis=-1)
    assert np.all(p >= 0) and np.all(p <= 1)
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, atol=1e-12)


@given(matrices, st.floats(-100.0, 100.0))
def test_softmax_is_unchanged_by_adding_a_constant_to_a_row(z, c):
    np.testing.assert_allclose(ops.softmax(z + c), ops.softmax(z), atol=1e-12)


@given(matrices)
def test_softmax_along_axis_0_is_softmax_of_the_transpose(z):
    np.testing.assert_allclose(ops.softmax(z, axis=0), ops.softmax(z.T).T, atol=1e-15)


def test_softmax_does_not_overflow_and_gives_minus_infinity_zero_weight():
    p = ops.softmax(np.array([1000.0, 1000.0, -np.inf]))
    np.testing.assert_array_equal(p, [0.5, 0.5, 0.0])


# --- layer_norm ------------------------------------------------------------------------------------


@given(matrices.filter(lambda x: x.shape[1] >= 2))
def test_layer_norm_output_variance_is_var_over_var_plus_eps(x):
    """Exact for every row: mean 0, variance σ²/(σ² + ε) — so ≈ 1 exactly when σ² ≫ ε."""
    y = ops.layer_norm(x)
    var = x.var(axis=-1)
    # a constant row leaves rounding noise ~1e-15 in x − μ, which 1/√ε magnifies to ~1e-12
    np.testing.assert_allclose(y.mean(axis=-1), 0.0, atol=1e-9)
    np.testing.assert_allclose(y.var(axis=-1), var / (var + ops.LAYER_NORM_EPS), atol=1e-9)


@given(matrices.filter(lambda x: x.shape[1] >= 2 and np.all(x.var(axis=-1) > 1.0)))
def test_layer_norm_rows_have_mean_0_and_variance_1_when_variance_is_far_above_eps(x):
    y = ops.layer_norm(x)
    np.testing.assert_allclose(y.mean(axis=-1), 0.0, atol=1e-4)
    np.testing.assert_allclose(y.var(axis=-1), 1.0, atol=1e-4)


@given(seeds, st.integers(2, 16))
def test_layer_norm_applies_gamma_then_beta(seed, d):
    rng = np.random.default_rng(seed)
    x, gamma, beta = rng.normal(size=(4, d)), rng.normal(size=d), rng.normal(size=d)
    np.testing.assert_allclose(ops.layer_norm(x, gamma, beta), ops.layer_norm(x) * gamma + beta, atol=1e-12)


def test_layer_norm_uses_the_biased_variance_with_eps_inside_the_root():
    x = np.array([[1.0, 2.0, 3.0, 6.0]])  # mean 3, biased variance (4 + 1 + 0 + 9) / 4 = 3.5
    expected = (x - 3.0) / np.sqrt(3.5 + 1e-5)
    np.testing.assert_allclose(ops.layer_norm(x), expected, atol=1e-15)


# --- activations -----------------------------------------------------------------------------------


def test_gelu_tanh_form_at_known_points():
    # 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³))) evaluated by hand-written formula at x = 1: tanh(0.7978846·1.044715)
    x = 1.0
    expected = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    assert ops.gelu(np.array(x)) == expected
    assert ops.gelu(np.array(0.0)) == 0.0
    np.testing.assert_allclose(ops.gelu(np.array([-20.0, 20.0])), [0.0, 20.0], atol=1e-12)


@given(arrays(np.float64, 8, elements=finite))
def test_relu_is_max_of_zero_and_x(x):
    np.testing.assert_array_equal(ops.relu(x), np.where(x > 0, x, 0.0))


# --- positional encoding ---------------------------------------------------------------------------


@given(st.integers(1, 32).map(lambda n: 2 * n), st.integers(1, 60), st.integers(0, 200))
def test_pe_rotation_identity_for_every_pair_and_every_position(d_model, T, k):
    """PE(pos + k) restricted to pair i is R(ω_i·k) applied to PE(pos): one matrix for every pos."""
    pe = ops.positional_encoding(T + k, d_model)
    omega = ops.pe_angular_frequencies(d_model)
    for i, w in enumerate(omega):
        pair = pe[:, 2 * i : 2 * i + 2]  # (T + k, 2): (sin, cos) at every position
        R = ops.pe_rotation(w, k)
        np.testing.assert_allclose(pair[k:], pair[: pair.shape[0] - k] @ R.T, atol=1e-10)


def test_positional_encoding_matches_its_definition():
    T, d = 7, 10
    pe = ops.positional_encoding(T, d)
    for t in range(T):
        for i in range(d // 2):
            angle = t / 10000 ** (2 * i / d)
            np.testing.assert_allclose(pe[t, 2 * i : 2 * i + 2], [np.sin(angle), np.cos(angle)], atol=1e-15)
    np.testing.assert_allclose(ops.pe_wavelengths(d), 2 * np.pi * 10000 ** (np.arange(0, d, 2) / d))


# --- attention -------------------------------------------------------------------------------------


@settings(max_examples=50)
@given(seeds, st.integers(2, 8), st.sampled_from([(8, 1), (8, 2), (12, 3), (16, 4)]))
def test_self_attention_without_pe_is_permutation_equivariant(seed, T, dims):
    d, h = dims
    X, W_Q, W_K, W_V, W_O = _random_attention(seed, T, d, h)
    perm = np.random.default_rng(seed + 1).permutation(T)
    out = ops.multi_head_attention(X, X, W_Q, W_K, W_V, W_O, h)
    out_perm = ops.multi_head_attention(X[perm], X[perm], W_Q, W_K, W_V, W_O, h)
    np.testing.assert_allclose(out_perm, out[perm], atol=1e-12)


@settings(max_examples=30)
@given(seeds, st.integers(2, 8))
def test_a_whole_post_ln_block_without_pe_is_permutation_equivariant(seed, T):
    d, d_ff, h = 8, 12, 2
    X, W_Q, W_K, W_V, W_O = _random_attention(seed, T, d, h)
    rng = np.random.default_rng(seed + 2)
    W1, b1, W2, b2 = rng.normal(size=(d, d_ff)), rng.normal(size=d_ff), rng.normal(size=(d_ff, d)), rng.normal(size=d)

    def block(x):
        x = ops.post_ln(x, lambda z: ops.multi_head_attention(z, z, W_Q, W_K, W_V, W_O, h))
        return ops.post_ln(x, lambda z: ops.ffn(z, W1, b1, W2, b2)[2])

    perm = rng.permutation(T)
    np.testing.assert_allclose(block(X[perm]), block(X)[perm], atol=1e-12)


def test_positional_encoding_breaks_the_equivariance():
    X, W_Q, W_K, W_V, W_O = _random_attention(0, 5, 8, 2)
    pe, perm = ops.positional_encoding(5, 8), np.array([1, 0, 2, 3, 4])
    out = ops.multi_head_attention(X + pe, X + pe, W_Q, W_K, W_V, W_O, 2)
    out_perm = ops.multi_head_attention(X[perm] + pe, X[perm] + pe, W_Q, W_K, W_V, W_O, 2)
    assert np.max(np.abs(out_perm - out[perm])) > 1e-3


@given(seeds, st.integers(1, 10), st.integers(1, 8))
def test_causal_mask_gives_zero_weight_to_the_future_and_rows_still_sum_to_one(seed, T, d_k):
    rng = np.random.default_rng(seed)
    q, k, v = rng.normal(size=(3, 2, T, d_k))  # 2 heads
    _, scores, weights = ops.scaled_dot_product_attention(q, k, v, mask=ops.causal_mask(T))
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    assert np.all(weights[:, future] == 0.0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, atol=1e-12)
    # the allowed part is the softmax over the prefix j ≤ i alone (masking before softmax renormalises)
    for i in range(T):
        np.testing.assert_allclose(weights[:, i, : i + 1], ops.softmax(scores[:, i, : i + 1]), atol=1e-12)


def test_scaled_dot_product_attention_divides_by_sqrt_dk_only_when_asked():
    rng = np.random.default_rng(3)
    q, k, v = rng.normal(size=(3, 4, 6))
    _, scaled, _ = ops.scaled_dot_product_attention(q, k, v)
    _, unscaled, _ = ops.scaled_dot_product_attention(q, k, v, scale=False)
    np.testing.assert_allclose(unscaled, q @ k.T, atol=1e-12)
    np.testing.assert_allclose(scaled, unscaled / np.sqrt(6), atol=1e-12)


def test_padding_mask_removes_padded_keys_and_rejects_all_padding():
    rng = np.random.default_rng(4)
    q, k, v = rng.normal(size=(3, 4, 5))
    _, _, weights = ops.scaled_dot_product_attention(q, k, v, mask=ops.padding_mask([True, True, False, True]))
    assert np.all(weights[:, 2] == 0.0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, atol=1e-12)
    with pytest.raises(ValueError, match="every key is padding"):
        ops.padding_mask([False, False])
    with pytest.raises(ValueError, match=r"valid must be 1-D \(T_k,\), got shape \(2, 2\)"):
        ops.padding_mask([[True, False], [True, True]])


@given(seeds, st.sampled_from([(6, 1), (6, 2), (6, 3), (12, 4)]))
def test_split_and_concat_heads_are_inverse_and_use_column_head_times_dk_plus_k(seed, dims):
    width, h = dims
    x = np.random.default_rng(seed).normal(size=(5, width))
    split = ops.split_heads(x, h)
    d_k = width // h
    assert split.shape == (5, h, d_k)
    assert split[3, h - 1, d_k - 1] == x[3, (h - 1) * d_k + d_k - 1]
    np.testing.assert_array_equal(ops.concat_heads(split), x)


def test_pre_ln_and_post_ln_wiring():
    x = np.array([[1.0, 2.0, 4.0]])
    double = lambda z: 2 * z  # noqa: E731
    np.testing.assert_allclose(ops.post_ln(x, double), ops.layer_norm(3 * x))
    np.testing.assert_allclose(ops.pre_ln(x, double), x + 2 * ops.layer_norm(x))
