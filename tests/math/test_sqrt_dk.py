"""The √d_k argument, computed: without the scaling the softmax saturates and its gradient shrinks with d_k."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from transformer_math import backward as bw


@pytest.fixture(scope="module")
def sweep() -> bw.SqrtDkSweep:
    return bw.sqrt_dk_sweep()


def test_at_d_k_1_scaling_changes_nothing(sweep):
    assert replace(sweep.at(1, scaled=True), scaled=False) == sweep.at(1, scaled=False)


def test_scores_spread_like_sqrt_d_k_unscaled_and_like_1_scaled(sweep):
    d_k = sweep.d_k.astype(float)
    np.testing.assert_allclose(sweep.column("score_std", scaled=False), np.sqrt(d_k), rtol=0.05)
    np.testing.assert_allclose(sweep.column("score_std", scaled=True), 1.0, rtol=0.05)


def test_the_jacobian_never_exceeds_its_bounds(sweep):
    for scaled in (True, False):
        assert np.all(sweep.column("jacobian_norm", scaled) <= 0.5)
        assert np.all(sweep.column("jacobian_max_entry", scaled) <= 0.25)
        assert np.all(sweep.column("jacobian_max_entry", scaled) <= sweep.column("jacobian_norm", scaled))


def test_unscaled_the_softmax_saturates_and_its_gradient_shrinks_as_d_k_grows(sweep):
    big = sweep.d_k >= 8  # below 8 the scores are still small enough for the Jacobian to grow
    for name in ("jacobian_norm", "jacobian_max_entry", "d_scores_rms"):
        unscaled = sweep.column(name, scaled=False)
        assert np.all(np.diff(unscaled[big]) < 0), name
        assert unscaled[-1] < 0.4 * sweep.column(name, scaled=True)[-1], name
    saturated = sweep.column("saturated_fraction", scaled=False)
    assert np.all(np.diff(saturated) >= 0) and saturated[-1] > 0.5
    assert np.all(np.diff(sweep.column("max_weight", scaled=False)) > 0)


def test_scaled_the_gradient_stays_the_same_size_whatever_d_k(sweep):
    assert np.all(sweep.column("saturated_fraction", scaled=True) == 0.0)
    for name in ("jacobian_norm", "d_scores_rms"):
        scaled = sweep.column(name, scaled=True)
        assert scaled.max() / scaled.min() < 1.25, name


def test_the_measurement_is_deterministic_and_each_d_k_independent_of_the_others(sweep):
    raw, _ = bw.random_scores.__wrapped__(64, bw.SQRT_DK_KEYS, bw.SQRT_DK_QUERIES, bw.SQRT_DK_SEED)
    again, _ = bw.random_scores.__wrapped__(64, bw.SQRT_DK_KEYS, bw.SQRT_DK_QUERIES, bw.SQRT_DK_SEED)
    np.testing.assert_array_equal(raw, again)
    alone = bw.sqrt_dk_sweep((64,))
    assert alone.at(64, scaled=False) == sweep.at(64, scaled=False)
    other_seed = bw.softmax_gradient_size(64, scaled=False, seed=bw.SQRT_DK_SEED + 1)
    assert other_seed != sweep.at(64, scaled=False)


def test_the_gradient_reaching_the_scores_is_the_jacobian_times_the_upstream():
    raw, d_attn = bw.random_scores(16, bw.SQRT_DK_KEYS, bw.SQRT_DK_QUERIES, bw.SQRT_DK_SEED)
    A = bw.ops.softmax(raw / 4.0)
    d_S = np.einsum("qij,qi->qj", bw.softmax_jacobian(A), d_attn)
    expected = float(np.sqrt(np.mean(d_S**2)))
    assert np.isclose(bw.softmax_gradient_size(16, scaled=True).d_scores_rms, expected, rtol=1e-12)


@pytest.mark.parametrize("d_k", [0, -4, 2.5, True, "8"])
def test_a_bad_d_k_is_an_error(d_k):
    with pytest.raises(ValueError, match="d_k must be a positive integer"):
        bw.softmax_gradient_size(d_k, scaled=True)


def test_bad_sweep_arguments_are_errors(sweep):
    with pytest.raises(ValueError, match="n_keys must be ≥ 2"):
        bw.softmax_gradient_size(8, scaled=True, n_keys=1)
    with pytest.raises(ValueError, match="d_ks must name at least one d_k"):
        bw.sqrt_dk_sweep(())
    with pytest.raises(ValueError, match="no measure named 'gradient'"):
        sweep.column("gradient", scaled=True)
    with pytest.raises(ValueError, match=r"d_k = 3 was not swept: the sweep has 1, 2, 4"):
        sweep.at(3, scaled=True)
