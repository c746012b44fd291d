"""What the exam's questions on the training setup ask src to compute: Adam's horizons and bias corrections, the
steps where the Noam rate takes a value, the loss against a smoothed target, and where dropout acts in training."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from transformer_math import adam, ops, preset, preset_weights, regularization, schedules
from transformer_math.block import forward

# --- Adam ------------------------------------------------------------------------------------------


@given(st.floats(0.0, 0.999))
def test_the_horizon_is_the_sum_of_the_average_weights_over_their_share(beta):
    """1/(1 − β) = 1 + mean age of the weights (1 − β)β^k: the current step and the β/(1 − β) before it."""
    k = np.arange(50_000)  # β ≤ 0.999: the weights beyond are below 0.999^50000 ≈ 2e-22
    weights = (1 - beta) * beta**k
    mean_age = float((k * weights).sum() / weights.sum())
    assert adam.averaging_horizon(beta) == pytest.approx(1 + mean_age, rel=1e-9)


def test_the_papers_horizons():
    assert adam.averaging_horizon(adam.BETA1) == pytest.approx(10)
    assert adam.averaging_horizon(adam.BETA2) == pytest.approx(50)


@given(st.floats(0.5, 0.999), st.integers(1, 500))
def test_bias_correction_undoes_the_zero_start_of_a_constant_gradient(beta, t):
    """With the same gradient g every step, m_t = (1 − β^t)·g: the correction gives g back exactly."""
    m = 0.0
    for _ in range(t):
        m = beta * m + (1 - beta) * 1.0
    assert m * adam.bias_correction(beta, t) == pytest.approx(1.0, rel=1e-12)


def test_bias_correction_errors():
    with pytest.raises(ValueError, match=r"t must be an integer ≥ 1 .*got 0"):
        adam.bias_correction(0.9, 0)
    with pytest.raises(ValueError, match=r"beta must be in \[0, 1\), got 1.0"):
        adam.averaging_horizon(1.0)


def test_eps_keeps_a_parameter_without_gradient_still():
    zero = np.zeros(1)
    with np.errstate(invalid="ignore"):
        assert np.isnan(adam.adam_change(zero, zero, 1, 1e-3, eps=0.0)).all()
    assert adam.adam_change(zero, zero, 1, 1e-3).tolist() == [0.0]


# --- the Noam schedule -----------------------------------------------------------------------------------


@given(st.floats(0.01, 1.0))
def test_the_steps_at_a_rate_are_where_the_schedule_takes_it(share):
    lr = share * schedules.noam_peak_lr()
    rise, decay = schedules.noam_steps_at(lr)
    assert rise <= schedules.WARMUP_STEPS * (1 + 1e-12) and decay >= schedules.WARMUP_STEPS * (1 - 1e-12)
    assert schedules.noam_lr(max(rise, 1.0)) == pytest.approx(max(lr, schedules.noam_lr(1.0)), rel=1e-9)
    assert schedules.noam_lr(decay) == pytest.approx(lr, rel=1e-9)


def test_half_the_peak_is_at_half_the_warmup_and_four_times_it():
    assert schedules.noam_steps_at(schedules.noam_peak_lr() / 2) == pytest.approx((2000, 16_000), rel=1e-12)
    with pytest.raises(ValueError, match=r"lr must be in \(0, 6\.988e-04\]"):
        schedules.noam_steps_at(1e-3)


# --- label smoothing --------------------------------------------------------------------------------


@given(st.integers(2, 50), st.floats(0.01, 0.5), st.integers(0, 10**6))
def test_the_smoothed_target_itself_has_the_smallest_loss(k, epsilon, seed):
    target = schedules.label_smoothing_target(0, k, epsilon)
    other = np.random.default_rng(seed).dirichlet(np.ones(k))
    assert schedules.cross_entropy(target, target) == pytest.approx(schedules.entropy(target), rel=1e-12)
    assert schedules.cross_entropy(target, other) >= schedules.entropy(target) - 1e-12


def test_a_one_hot_prediction_has_an_infinite_loss_against_a_smoothed_target():
    target = schedules.label_smoothing_target(0, 4)
    assert schedules.cross_entropy(target, np.eye(4)[0]) == float("inf")
    assert schedules.cross_entropy(np.eye(4)[0], np.eye(4)[0]) == 0.0
    with pytest.raises(ValueError, match=r"the same length"):
        schedules.cross_entropy(target, np.ones(3) / 3)


# --- dropout in training ----------------------------------------------------------------------------------


def test_training_mode_drops_out_at_the_sites_of_the_paper_and_nowhere_else():
    tokens = preset.sentence(1).token_ids
    eval_trace = forward(preset_weights(), tokens)
    trace, kept = regularization.forward_train(preset_weights(), tokens, p=0.5, seed=3)
    assert tuple(kept) == regularization.RESIDUAL_DROPOUT_SITES == ("X", "Y", "ffn_out")
    np.testing.assert_array_equal(trace.X, np.where(kept["X"], 2 * eval_trace.X, 0.0))  # 1/(1 − p) = 2
    np.testing.assert_array_equal(trace.residual1, trace.X + trace.Y)  # dropped before the residual add
    np.testing.assert_array_equal(trace.residual2, trace.ln1_out + trace.ffn_out)


def test_training_mode_without_dropout_is_the_block():
    tokens = preset.sentence(4).token_ids
    trace, _ = regularization.forward_train(preset_weights(), tokens, p=0.0)
    np.testing.assert_array_equal(trace.ln2_out, forward(preset_weights(), tokens).ln2_out)


def test_dropout_keep_and_dropout_draw_the_same_entries():
    x = np.arange(1.0, 101.0)
    keep = ops.dropout_keep(x.shape, 0.3, 7)
    np.testing.assert_array_equal(ops.dropout(x, 0.3, 7) != 0, keep)
