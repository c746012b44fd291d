"""The backward pass on its own: finite differences on every weight, properties of each stage, bad input."""

from __future__ import annotations

from dataclasses import fields, replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from second_model import SECOND

from transformer_math import ENCODER, SENTENCES, BlockTrace, BlockWeights, build_preset, ops
from transformer_math import backward as bw

seeds = st.integers(0, 2**32 - 1)
T = ENCODER.T


def random_weights(seed: int, d: int = 12, h: int = 3, d_ff: int = 20, vocab: int = 11) -> BlockWeights:
    """Weights unlike the preset's: dense, with biases, γ ≠ 1, β ≠ 0, W_V and W_O not identities."""
    rng = np.random.default_rng(seed)
    n = rng.normal
    return BlockWeights(
        W_E=n(size=(vocab, d)), W_Q=n(size=(d, d)), W_K=n(size=(d, d)), W_V=n(size=(d, d)), W_O=n(size=(d, d)),
        ln1_gamma=n(size=d), ln1_beta=n(size=d), W1=n(size=(d, d_ff)), b1=n(size=d_ff),
        W2=n(size=(d_ff, d)), b2=n(size=d), ln2_gamma=n(size=d), ln2_beta=n(size=d), n_heads=h,
    )  # fmt: skip


def random_sentence(seed: int, vocab: int = 11) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, vocab, size=T)


# --- finite differences: the gradient of every weight, a few entries each ---------------------------------

CASES = [
    pytest.param(build_preset(), SENTENCES[0].token_ids, 3, id="preset-s1-hide花"),
    pytest.param(build_preset(), SENTENCES[2].token_ids, 4, id="preset-s3-hide好き"),
    pytest.param(random_weights(7), random_sentence(7), 1, id="random-7"),
    pytest.param(random_weights(8), np.array([3, 3, 5, 3, 0]), 0, id="random-8-repeated-word"),
    pytest.param(SECOND.weights, SECOND.sentence(1).token_ids, 4, id="second-model-s1-T7"),
]


def _numeric_gradient(weights: BlockWeights, tokens, position, name: str, index: tuple, h: float = 1e-6) -> float:
    """(L(w + h·e) − L(w − h·e)) / 2h for one entry of one weight (central difference, error O(h²))."""

    def loss_at(delta: float) -> float:
        W = getattr(weights, name).copy()
        W[index] += delta
        return bw.masked_word_loss(replace(weights, **{name: W}), tokens, position).loss

    return (loss_at(h) - loss_at(-h)) / (2 * h)


@pytest.mark.parametrize(("weights", "tokens", "position"), CASES)
def test_every_weight_gradient_matches_finite_differences(weights, tokens, position):
    grads = bw.backward(weights, tokens, position)
    rng = np.random.default_rng(0)
    for name in bw.WEIGHT_NAMES:
        analytic = grads.weight_gradient(name)
        # three random entries and the largest one (a zero gradient everywhere would pass random picks)
        picks = [tuple(int(rng.integers(0, s)) for s in analytic.shape) for _ in range(3)]
        picks.append(tuple(int(i) for i in np.unravel_index(np.argmax(np.abs(analytic)), analytic.shape)))
        for index in picks:
            numeric = _numeric_gradient(weights, tokens, position, name, index)
            assert abs(analytic[index] - numeric) <= 1e-7 + 1e-6 * abs(numeric), (name, index, analytic[index], numeric)
        assert np.abs(analytic).max() > 1e-3, f"{name}: the gradient is (nearly) zero, the check would be vacuous"


def test_a_step_against_the_gradient_lowers_the_loss():
    weights, tokens = build_preset(), SENTENCES[0].token_ids
    grads = bw.backward(weights, tokens, 3)
    stepped = replace(weights, **{n: getattr(weights, n) - 1e-3 * g for n, g in grads.weight_gradients().items()})
    assert bw.masked_word_loss(stepped, tokens, 3).loss < grads.loss.loss


# --- names and shapes mirror BlockTrace ---------------------------------------------------------------------


def test_every_intermediate_gradient_has_the_shape_of_its_trace_field():
    grads = bw.backward(random_weights(1), random_sentence(1), 2)
    trace_fields = {f.name for f in fields(BlockTrace)}
    mirrored = [n[2:] for n in bw.gradient_names() if n[2:] in trace_fields]
    assert {"ln2_out", "residual2", "ffn_pre", "ln1_out", "attn", "scores", "Q", "K", "V", "X", "X_tok"} <= set(
        mirrored
    )
    for name in mirrored:
        assert getattr(grads, f"d_{name}").shape == getattr(grads.loss.trace, name).shape, name
    for name in bw.WEIGHT_NAMES:
        assert grads.weight_gradient(name).shape == np.shape(getattr(random_weights(1), name)), name


def test_the_weight_names_are_exactly_the_arrays_of_block_weights():
    arrays = [f.name for f in fields(BlockWeights) if isinstance(getattr(build_preset(), f.name), np.ndarray)]
    assert list(bw.WEIGHT_NAMES) == arrays
    assert list(bw.backward(build_preset(), SENTENCES[0].token_ids, 0).weight_gradients()) == arrays


def test_shares_add_up_to_their_sums():
    g = bw.backward(random_weights(2), random_sentence(2), 4)
    np.testing.assert_array_equal(g.d_ln1_out, g.d_ln1_out_skip + g.d_ln1_out_ffn)
    np.testing.assert_array_equal(g.d_X, g.d_X_skip + g.d_X_attn)
    np.testing.assert_array_equal(g.d_W_E, g.d_W_E_output + g.d_W_E_input)
    for which in ("residual1", "residual2"):
        terms = sum(getattr(g, f"d_{which}_{t}") for t in ("direct", "mean", "variance"))
        np.testing.assert_array_equal(getattr(g, f"d_{which}"), terms)


@pytest.mark.parametrize("term", ["direct", "mean", "variance"])
def test_each_layer_norm_term_matters_on_the_preset(term):
    """Dropping any one of the three terms would change ∂L/∂residual: none of them is zero here."""
    g = bw.backward(build_preset(), SENTENCES[0].token_ids, 3)
    for which in ("residual1", "residual2"):
        assert np.abs(getattr(g, f"d_{which}_{term}")).max() > 1e-3, (which, term)


def test_the_loss_reaches_only_the_hidden_row_of_ln2_out_and_the_visible_words_of_W_E():
    tokens, p = SENTENCES[0].token_ids, 2
    g = bw.backward(build_preset(), tokens, p)
    assert np.all(np.delete(g.d_ln2_out, p, axis=0) == 0.0) and np.abs(g.d_ln2_out[p]).max() > 0
    unused = np.setdiff1d(np.arange(ENCODER.vocab_size), np.delete(tokens, p))
    assert np.all(g.d_W_E_input[unused] == 0.0)  # the hidden word 美しい included: its row of X_tok is 0
    assert np.all(g.d_W_E_input[np.delete(tokens, p)] != 0.0)


def test_only_the_hidden_positions_query_row_gets_a_gradient():
    """The loss reads ln2_out[p] alone; other positions reach it only as keys and values of p's row."""
    p = 1
    g = bw.backward(random_weights(4), random_sentence(4), p)
    for name in ("d_ln2_out", "d_residual2", "d_ffn_pre", "d_ln1_out", "d_residual1", "d_Y", "d_head_out", "d_Q"):
        rows = getattr(g, name)
        assert np.all(np.delete(rows, p, axis=0) == 0.0) and np.abs(rows[p]).max() > 0, name
    for name in ("d_attn", "d_scores"):
        rows = getattr(g, name)  # (h, T, T): query rows on axis 1
        assert np.all(np.delete(rows, p, axis=1) == 0.0) and np.abs(rows[:, p]).max() > 0, name
    assert np.all(np.abs(g.d_K).max(axis=(1, 2)) > 0) and np.all(np.abs(g.d_V).max(axis=(1, 2)) > 0)


def test_preset_gradients_are_the_backward_of_the_preset_and_cached():
    g = bw.preset_gradients(1, 3)
    assert g is bw.preset_gradients(1, 3)
    np.testing.assert_array_equal(g.d_W_Q, bw.backward(build_preset(), SENTENCES[0].token_ids, 3).d_W_Q)
    with pytest.raises(ValueError, match="sentence_number must be 1 … 8, got 9"):
        bw.preset_gradients(9, 0)


def test_gradients_are_read_only():
    g = bw.backward(build_preset(), SENTENCES[0].token_ids, 0)
    with pytest.raises(ValueError, match="read-only"):
        g.d_scores[0, 0, 0] = 1.0


def test_gradient_norms_cover_the_stages_in_order():
    norms = bw.gradient_norms(bw.backward(build_preset(), SENTENCES[0].token_ids, 3))
    assert list(norms)[:1] == ["d_ln2_out"] and list(norms)[-1] == "d_X"
    assert all(v > 0 for v in norms.values())


# --- properties of the stages -------------------------------------------------------------------------------

rows = arrays(np.float64, st.integers(2, 9), elements=st.floats(-30, 30, allow_nan=False))


@given(rows)
def test_softmax_jacobian_is_symmetric_psd_with_zero_row_sums_and_norm_at_most_half(scores):
    a = ops.softmax(scores)
    J = bw.softmax_jacobian(a)
    np.testing.assert_allclose(J, J.T, atol=1e-15)
    np.testing.assert_allclose(J.sum(axis=-1), 0.0, atol=1e-15)
    eig = np.linalg.eigvalsh(J)
    assert eig.min() >= -1e-15 and eig.max() <= 0.5 + 1e-15


@settings(max_examples=30)
@given(rows)
def test_softmax_jacobian_is_the_derivative_of_softmax(scores):
    a = ops.softmax(scores)
    h = 1e-6
    numeric = np.stack(
        [(ops.softmax(scores + h * e) - ops.softmax(scores - h * e)) / (2 * h) for e in np.eye(len(scores))], axis=1
    )  # numeric[i, j] = ∂A_i/∂S_j
    np.testing.assert_allclose(bw.softmax_jacobian(a), numeric, atol=1e-8)


def test_softmax_jacobian_of_a_uniform_row_is_i_over_n_minus_one_over_n_squared():
    n = 5
    J = bw.softmax_jacobian(np.full(n, 1 / n))
    np.testing.assert_allclose(J, np.eye(n) / n - 1 / n**2, atol=1e-16)
    assert np.isclose(np.linalg.eigvalsh(J).max(), 1 / n)


@given(rows, seeds)
def test_softmax_backward_ignores_a_shift_of_the_scores(scores, seed):
    """Adding c to every score of a row changes no weight, so ∂L/∂S sums to 0 along the row."""
    a = ops.softmax(scores)
    d_a = np.random.default_rng(seed).normal(size=a.shape)
    d_s = bw.softmax_backward(a, d_a)
    assert abs(d_s.sum()) <= 1e-12 * (1 + np.abs(d_a).max())
    np.testing.assert_allclose(d_s, a * d_a - a * (a @ d_a), atol=1e-14)  # the diagonal and off-diagonal parts


@given(seeds, st.integers(2, 12))
def test_layer_norm_backward_properties(seed, d):
    rng = np.random.default_rng(seed)
    x, gamma, d_y = rng.normal(size=(4, d)) * 3, rng.normal(size=d), rng.normal(size=(4, d))
    g = bw.layer_norm_backward(x, gamma, ops.LAYER_NORM_EPS, d_y)
    # the three terms cancel in the sum: its round-off follows their size (large when σ is small), not d_x's
    scale = 1.0 + max(np.abs(t).max() for t in (g.direct, g.mean, g.variance))
    np.testing.assert_allclose(g.d_x.sum(axis=-1), 0.0, atol=1e-13 * scale)  # a shift of x changes no x̂
    np.testing.assert_allclose(g.mean, g.mean[:, :1] * np.ones(d), atol=0)  # constant along each row
    x_hat = ops.layer_norm(x)
    ratio = g.variance / x_hat
    np.testing.assert_allclose(ratio, ratio[:, :1] * np.ones(d), rtol=1e-9)  # proportional to x̂
    np.testing.assert_allclose(g.d_beta, d_y.sum(axis=0))
    np.testing.assert_allclose(g.d_gamma, (d_y * x_hat).sum(axis=0), atol=1e-12)


@settings(max_examples=30)
@given(seeds, st.integers(2, 12))
def test_layer_norm_backward_is_the_derivative_of_layer_norm(seed, d):
    rng = np.random.default_rng(seed)
    x, gamma, beta, r = rng.normal(size=(3, d)), rng.normal(size=d), rng.normal(size=d), rng.normal(size=(3, d))
    h = 1e-6
    numeric = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[index] = h
        numeric[index] = np.sum(
            (ops.layer_norm(x + e, gamma, beta) - ops.layer_norm(x - e, gamma, beta)) * r
        ) / (2 * h)  # fmt: skip
    np.testing.assert_allclose(bw.layer_norm_backward(x, gamma, ops.LAYER_NORM_EPS, r).d_x, numeric, atol=1e-7)


@given(st.floats(-8, 8, allow_nan=False))
def test_gelu_derivative_matches_a_central_difference(x):
    h = 1e-5
    numeric = (ops.gelu(x + h) - ops.gelu(x - h)) / (2 * h)
    assert abs(bw.gelu_derivative(x) - numeric) <= 1e-9


def test_gelu_derivative_is_not_relu_derivative():
    """GELU′(0) = ½ and GELU′ is negative just below −0.75 — where ReLU′ would say 0."""
    assert bw.gelu_derivative(0.0) == 0.5
    assert bw.gelu_derivative(-1.0) < 0 and bw.gelu_derivative(2.0) > 1


@settings(max_examples=25, deadline=None)
@given(seeds, st.integers(0, T - 1))
def test_whole_backward_invariants_for_random_weights(seed, position):
    weights, tokens = random_weights(seed % 1000), random_sentence(seed)
    g = bw.backward(weights, tokens, position)
    assert g.loss.loss >= 0 and np.isclose(g.loss.probs.sum(), 1.0)
    assert abs(g.d_logits.sum()) <= 1e-12  # Σ_v (p_v − y_v) = 1 − 1
    np.testing.assert_allclose(g.d_scores.sum(axis=-1), 0.0, atol=1e-12)
    np.testing.assert_allclose(g.d_residual1.sum(axis=-1), 0.0, atol=1e-11)
    np.testing.assert_allclose(g.d_residual2.sum(axis=-1), 0.0, atol=1e-11)
    np.testing.assert_allclose(g.d_ln1_beta, g.d_ln1_out.sum(axis=0), atol=1e-12)
    np.testing.assert_allclose(g.d_b2, g.d_ffn_out.sum(axis=0), atol=1e-12)


def test_cross_entropy_is_stable_for_large_logits():
    assert bw.cross_entropy(np.array([1000.0, 0.0]), 0) == 0.0
    assert np.isclose(bw.cross_entropy(np.array([1000.0, 0.0]), 1), 1000.0)


# --- bad input -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(0,), (1, 5)])
def test_a_sentence_that_is_not_a_sequence_of_words_is_an_error(shape):
    tokens = np.zeros(shape, dtype=int)
    with pytest.raises(ValueError, match=rf"tokens must be one sentence: .* got shape \({shape[0]},"):
        bw.masked_word_loss(build_preset(), tokens, 0)
    with pytest.raises(ValueError, match="tokens must be one sentence"):
        bw.backward(build_preset(), tokens, 0)


def test_bad_tokens_and_positions_are_errors():
    w, tokens = build_preset(), SENTENCES[0].token_ids
    with pytest.raises(ValueError, match=r"tokens\[2\] = 16 is outside the vocabulary 0 … 15"):
        bw.backward(w, np.array([0, 12, 16, 4, 15]), 0)
    with pytest.raises(ValueError, match="integer word ids"):
        bw.backward(w, tokens.astype(float), 0)
    for position in (5, -1, True, 1.0):
        with pytest.raises(ValueError, match=r"position must be an integer 0 … 4"):
            bw.backward(w, tokens, position)


def test_a_gradient_of_a_weight_that_does_not_exist_is_an_error():
    g = bw.backward(build_preset(), SENTENCES[0].token_ids, 0)
    with pytest.raises(ValueError, match=r"no weight named 'W_P': the block's weights are W_E, W_Q, .*ln2_beta"):
        g.weight_gradient("W_P")  # the positional encoding is computed, not learned
    with pytest.raises(ValueError, match="no weight named 'd_W_Q'"):
        g.weight_gradient("d_W_Q")


def test_weights_with_nan_are_an_error_naming_the_weight_and_its_shape():
    weights = random_weights(3)
    weights.W1[2, 5] = np.nan  # written after construction, which BlockWeights cannot see
    with pytest.raises(ValueError, match=r"weights\.W1\[2, 5\] = nan is not finite \(shape \(12, 20\)\)"):
        bw.backward(weights, random_sentence(3), 0)
    with pytest.raises(ValueError, match=r"ln2_gamma\[0\] = inf is not finite \(shape \(16,\)\)"):
        replace(build_preset(), ln2_gamma=np.r_[np.inf, np.ones(15)])
    with pytest.raises(ValueError, match="weights must be a BlockWeights"):
        bw.backward({"W_E": np.eye(16)}, SENTENCES[0].token_ids, 0)
