"""The notes §5–§9 page modules: LayerNorm statistics and the W_E / W_P attribution of the detectors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transformer_math import activations, attribution, layernorm, ops, preset, preset_trace, rounding
from transformer_math.preset import build_preset
from transformer_pages.notes import accuracy as ACC
from transformer_pages.notes import block as BLK
from transformer_pages.notes import ffn as FFN
from transformer_pages.notes import layernorm1 as LN1
from transformer_pages.notes import layernorm2 as LN2

W = build_preset()
SENTENCE_NUMBERS = range(1, len(preset.SENTENCES) + 1)


def _post_ln_block(X: np.ndarray) -> np.ndarray:
    """An independent composition of the block from ops.post_ln / multi_head_attention / ffn."""

    def attention(x):
        return ops.multi_head_attention(x, x, W.W_Q, W.W_K, W.W_V, W.W_O, W.n_heads)

    def feed_forward(x):
        return ops.ffn(x, W.W1, W.b1, W.W2, W.b2)[2]

    return ops.post_ln(ops.post_ln(X, attention), feed_forward)


# ------------------------------------------------------------------------------------------------ LayerNorm
@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_ln_stats_match_the_definition(n):
    tr = preset_trace(n)
    for stats, x, y in (
        (layernorm.ln1_stats(tr), tr.residual1, tr.ln1_out),
        (layernorm.ln2_stats(tr), tr.residual2, tr.ln2_out),
    ):
        np.testing.assert_allclose(stats.mean_in, x.sum(axis=1) / x.shape[1], atol=1e-14)
        np.testing.assert_allclose(stats.std_in**2, ((x - stats.mean_in[:, None]) ** 2).mean(axis=1), atol=1e-13)
        np.testing.assert_allclose(stats.mean_out, 0.0, atol=1e-14)
        # with ε inside the root, the output's std is σ/√(σ²+ε), a hair below 1
        np.testing.assert_allclose(stats.std_out, stats.std_in / np.sqrt(stats.std_in**2 + W.eps), atol=1e-14)
        assert np.all(stats.std_out < 1.0)
        np.testing.assert_allclose(y[:, 0], (x[:, 0] - stats.mean_in) / stats.scale, atol=1e-14)


def test_ln_stats_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match=r"x and y must be 2-D of one shape"):
        layernorm.layer_norm_stats(np.zeros((5, 16)), np.zeros((5, 15)))


# ------------------------------------------------------------------------------------- counterfactual forward
@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_position_scale_one_reproduces_the_real_forward(n):
    real = preset_trace(n)
    again = attribution.forward_with_position_scale(W, real.tokens, 1.0)
    for name in ("scores", "attn", "Y", "ln1_out", "ffn_pre", "ffn_h", "ln2_out"):
        np.testing.assert_array_equal(getattr(again, name), getattr(real, name), err_msg=name)


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_without_position_agrees_with_an_independent_composition(n):
    cf = FFN.trace_without_position(n)
    np.testing.assert_array_equal(cf.X, W.W_E[preset.SENTENCES[n - 1].token_ids])
    np.testing.assert_allclose(cf.ln2_out, _post_ln_block(cf.X), atol=1e-12)
    np.testing.assert_allclose(
        preset_trace(n).ln2_out, _post_ln_block(preset_trace(n).X), atol=1e-12
    )  # the same composition with W_P reproduces the real block, so the route is a fair reference


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(0, preset.VOCAB_SIZE - 1), min_size=2, max_size=7),
    st.randoms(use_true_random=False),
)
def test_without_position_the_block_is_permutation_equivariant(ids, rnd):
    tokens = np.array(ids)
    perm = np.array(rnd.sample(range(len(ids)), len(ids)))
    out = attribution.forward_with_position_scale(W, tokens, 0.0).ln2_out
    out_perm = attribution.forward_with_position_scale(W, tokens[perm], 0.0).ln2_out
    np.testing.assert_allclose(out_perm, out[perm], atol=1e-12)


def test_position_scale_must_be_finite():
    with pytest.raises(ValueError, match="position_scale"):
        attribution.forward_with_position_scale(W, np.array([0, 1]), float("nan"))


@pytest.mark.parametrize("bad", [0, 9, -1])
def test_sentence_number_is_checked(bad):
    with pytest.raises(ValueError, match="sentence_number"):
        FFN.detector_attributions(bad)


# ------------------------------------------------------------------------------------ linear attribution
@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_value_path_is_linear_and_gives_Y(n):
    tr = preset_trace(n)
    np.testing.assert_allclose(attribution.value_path(W, tr.attn, tr.X), tr.Y, atol=1e-13)
    both = attribution.value_path(W, tr.attn, tr.X_tok) + attribution.value_path(W, tr.attn, tr.X_pos)
    np.testing.assert_allclose(both, tr.Y, atol=1e-13)


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_ln1_parts_sum_to_ln1_out(n):
    tr = preset_trace(n)
    parts = attribution.ln1_parts(W, tr)
    np.testing.assert_allclose(parts.tok + parts.pos + parts.beta, tr.ln1_out, atol=1e-13)
    # each part is centred (LayerNorm's centring is linear), so each has mean 0 per token
    for part in (parts.own_tok, parts.attn_tok, parts.own_pos, parts.attn_pos):
        np.testing.assert_allclose(part.mean(axis=1), 0.0, atol=1e-14)


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_attributions_cover_exactly_the_firing_detectors(n):
    tr = preset_trace(n)
    expected = {(int(t), int(k)) for t, k in np.argwhere(tr.ffn_h > 0.5)}
    rows = FFN.detector_attributions(n)
    assert {(a.t, a.k) for a in rows} == expected
    cf = FFN.trace_without_position(n)
    for a in rows:
        assert a.bias + a.tok + a.pos + a.beta_part == pytest.approx(a.ffn_pre, abs=1e-12)
        assert a.bias + sum(term.contribution for term in a.terms) == pytest.approx(a.ffn_pre, abs=1e-12)
        assert a.ffn_h == pytest.approx(float(ops.gelu(np.array(a.ffn_pre))), abs=1e-15)
        assert a.h_without_position == cf.ffn_h[a.t, a.k]
        assert a.word == preset.SENTENCES[n - 1].words[a.t]
        assert -1.0 <= a.pos_share <= 1.0


def test_verdicts_are_consistent():
    rows = FFN.all_detector_attributions()
    assert len(rows) == FFN.n_firing() == sum(int((preset_trace(n).ffn_h > 0.5).sum()) for n in SENTENCE_NUMBERS)
    assert FFN.n_needs_position() + FFN.n_firing_without_position() == FFN.n_firing()
    for a in rows:
        assert a.verdict in {"意味", "位置", "意味＋位置"}
        assert (a.verdict == "位置") == (a.needs_position and a.pos > a.tok)
        assert (a.verdict == "意味") == (a.h_without_position > preset.FIRING_THRESHOLD)
    assert sum(FFN.position_driven_count(k) for k in range(preset.D_FF)) == FFN.n_position_driven()
    assert sum(FFN.firing_count(k) for k in range(preset.D_FF)) == FFN.n_firing()


def test_the_notes_value_for_watashi_h13():
    # the preset's facts quote ffn_h[T0 私, h13] = +1.00 for sentence 3
    assert f"{FFN.find(3, '私', 13).ffn_h:+.2f}" == "+1.00"
    with pytest.raises(ValueError, match="does not fire"):
        FFN.find(3, "私", 20)


def test_and_detector_features_come_from_the_cosine_dimensions_of_W_P():
    # W_P's odd dimensions are cosines ≈ 1 at every position for the slow pairs: d9 (size) and d11 (popularity)
    # get position input of the same sign as a real feature; d8 and d10 are sines ≈ 0, so LayerNorm's
    # centring makes their position part negative.
    means = FFN.pe_column_means()
    assert means[9] > 0.99 and means[11] > 0.99 and abs(means[8]) < 0.05 and abs(means[10]) < 0.05
    for k in (13, 15):
        lo, _ = FFN.feature_input_from_position(k)
        assert lo > 0
    for k in (12, 14):
        _, hi = FFN.feature_input_from_position(k)
        assert hi < 0


def test_word_has_feature_and_and_units():
    assert FFN.and_units() == (12, 13, 14, 15)
    assert FFN.word_has_feature("猫", 13) and not FFN.word_has_feature("花", 13)
    with pytest.raises(ValueError, match="not an AND detector"):
        FFN.word_has_feature("猫", 3)
    assert 0 <= FFN.firings_without_feature(13) <= FFN.firing_count(13)
    assert FFN.n_noun_half_alone_fires(13) <= FFN.firing_count(13)


def test_gelu_threshold_and_minimum():
    x = FFN.GELU_THRESHOLD
    assert float(ops.gelu(np.array(x))) == pytest.approx(0.5, abs=1e-12)
    assert activations.gelu_threshold(1.0) > x  # GELU increases for x > 0
    with pytest.raises(ValueError, match="level"):
        activations.gelu_threshold(0.0)
    x_min, y_min = activations.gelu_minimum()
    # at the minimum the derivative vanishes: compare with neighbours at ±1e-3
    assert y_min < float(ops.gelu(np.array(x_min - 1e-3))) and y_min < float(ops.gelu(np.array(x_min + 1e-3)))
    assert y_min < 0 < float(ops.relu(np.array(1.0)))


def test_stat_ranges_and_unused_units():
    lo, hi = LN1.stat_range("std_out")
    assert lo <= hi < 1.0
    assert LN2.max_abs_mean_out() < 1e-14
    with pytest.raises(ValueError, match="field"):
        LN1.stat_range("sigma")
    assert FFN.unused_hidden_max() == 0.0


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_residual_keeps_the_own_category(n):
    tr = preset_trace(n)
    np.testing.assert_allclose(LN1.layer_norm_of_Y_alone(tr), ops.layer_norm(tr.concat @ W.W_O), atol=1e-15)
    for t in range(len(tr.tokens)):
        assert LN1.own_category_value(tr, t) > LN1.own_category_value(tr, t, with_residual=False)
    with pytest.raises(ValueError, match="t must be"):
        LN1.own_category_value(tr, 5)


def test_permutation_difference():
    assert BLK.permutation_difference(1, 0.0) < 1e-12
    assert BLK.permutation_difference(1, 1.0) > 0.1


def test_ffn_out_min_is_bounded_by_gelus_dip():
    # each output dimension takes at most one single detector (weight 1) and one AND detector (weight 0.5)
    _, gelu_min = activations.gelu_minimum()
    assert (1 + preset.AND_WRITE_BACK) * gelu_min <= LN2.ffn_out_min() < 0


def test_block_parameter_count_agrees_with_counting():
    from transformer_math import counting

    # the preset has no attention biases; the FFN has b1 and b2; two LayerNorms with γ and β
    expected = (
        counting.attention_params(preset.D_MODEL, preset.N_HEADS, bias=False)
        + counting.ffn_params(preset.D_MODEL, preset.D_FF)
        + 2 * counting.layer_norm_params(preset.D_MODEL)
    )
    assert BLK.block_parameter_count() == expected
    assert 0 < BLK.block_nonzero_count() < BLK.block_parameter_count()


def test_unbiased_variance_difference_is_the_sqrt_ratio_effect():
    # dividing by d − 1 instead of d shrinks every output by about √((d − 1)/d); the change is far above rounding
    d = preset.D_MODEL
    largest_ln1 = max(float(np.abs(preset_trace(n).ln1_out).max()) for n in SENTENCE_NUMBERS)
    assert ACC.unbiased_variance_difference() == pytest.approx(largest_ln1 * (1 - np.sqrt((d - 1) / d)), rel=1e-3)


def test_route_counts_are_bounded():
    # position-driven needs both routes, so it can exceed neither route's own count
    assert FFN.n_position_driven() <= min(FFN.n_position_exceeds_token(), FFN.n_needs_position())


def test_the_two_routes_agree_on_the_preset():
    # §6 says: the firings where route 1 favours W_P are exactly the position-driven ones
    rows = FFN.all_detector_attributions()
    assert {(a.sentence, a.t, a.k) for a in rows if a.pos > a.tok} == {
        (a.sentence, a.t, a.k) for a in rows if a.position_driven
    }


def test_residual_count_agrees_with_the_per_token_check():
    by_hand = 0
    for n in range(1, len(preset.SENTENCES) + 1):
        tr = preset_trace(n)
        without = ops.layer_norm(tr.Y, eps=preset.EPS)
        for t in range(preset.T):
            c = preset.LEXICON[preset.VOCAB[int(tr.tokens[t])]][0]
            by_hand += tr.ln1_out[t, c] > without[t, c]
    assert LN1.n_residual_keeps_own_category() == by_hand


def test_worst_case_helpers_take_the_max_over_the_sentences():
    assert BLK.permutation_difference_max(1.0) == max(BLK.permutation_difference(n, 1.0) for n in range(1, 9))
    assert BLK.permutation_difference_max(1.0) > 0.1  # with W_P the order matters: not a vacuous max
    assert 0.0 <= ACC.derivation_max_difference() < 1e-12


def test_crosscheck_bound_sits_between_rounding_and_the_test_tolerance():
    # §9 quotes this bound; it must be above a few ulps yet below the 1e-12 tolerance of the torch test
    assert 8 <= ACC.CROSSCHECK_EPS_BOUND and ACC.CROSSCHECK_EPS_BOUND * rounding.MACHINE_EPSILON < 1e-12
