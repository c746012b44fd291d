"""Noam learning rate, label smoothing targets, BERT's masked-LM corruption."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from transformer_math import masking, schedules

# --- Noam -----------------------------------------------------------------------------------------


def test_noam_peaks_at_warmup_with_the_closed_form_value():
    steps = np.arange(1, 20_001)
    lr = schedules.noam_lr(steps)
    assert steps[np.argmax(lr)] == schedules.noam_peak_step() == 4000
    assert schedules.noam_peak_lr() == pytest.approx((512 * 4000) ** -0.5, rel=1e-14)
    assert lr.max() == schedules.noam_peak_lr()


@given(st.integers(1, 4000))
def test_noam_rises_linearly_during_warmup(step):
    assert schedules.noam_lr(step) == pytest.approx(step * schedules.noam_lr(1), rel=1e-12)


@given(st.integers(4000, 10**7))
def test_noam_decays_as_inverse_square_root_after_warmup(step):
    assert schedules.noam_lr(step) == pytest.approx(512**-0.5 * step**-0.5, rel=1e-12)


def test_noam_is_vectorised_and_scalar_in_scalar_out():
    assert isinstance(schedules.noam_lr(10), float)
    assert schedules.noam_lr(np.ones((2, 3))).shape == (2, 3)
    assert schedules.noam_peak_lr(d_model=1024, warmup=16_000) == pytest.approx((1024 * 16_000) ** -0.5)


def test_noam_errors():
    with pytest.raises(ValueError, match=r"step must be ≥ 1 \(step 0 would divide by zero.*got 0.0"):
        schedules.noam_lr(np.array([3, 0, 5]))
    with pytest.raises(ValueError, match=r"d_model and warmup must be positive, got d_model=512, warmup=0"):
        schedules.noam_lr(1, warmup=0)


def test_label_smoothing_target():
    q = schedules.label_smoothing_target(2, 5, 0.1)
    np.testing.assert_allclose(q, [0.02, 0.02, 0.92, 0.02, 0.02], atol=1e-15)
    assert q.sum() == pytest.approx(1.0, abs=1e-15)
    np.testing.assert_array_equal(schedules.label_smoothing_target(0, 3, 0.0), [1.0, 0.0, 0.0])
    assert schedules.LABEL_SMOOTHING == 0.1
    with pytest.raises(ValueError, match=r"label must be an integer in 0 … 4, got 5"):
        schedules.label_smoothing_target(5, 5)
    with pytest.raises(ValueError, match=r"epsilon must be in \[0, 1\), got 1.0"):
        schedules.label_smoothing_target(0, 5, 1.0)
    with pytest.raises(ValueError, match=r"vocab_size must be an integer ≥ 2, got 1"):
        schedules.label_smoothing_target(0, 1)


# --- masked LM ------------------------------------------------------------------------------------

VOCAB, MASK, CLS, SEP = 1000, 103, 101, 102


def _sequence(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    body = rng.choice(np.setdiff1d(np.arange(VOCAB), [MASK, CLS, SEP]), size=n)
    return np.concatenate([[CLS], body, [SEP]])


def test_rates_are_the_papers():
    assert masking.MLM_SELECT_RATE == 0.15
    assert (masking.MLM_MASK_RATE, masking.MLM_RANDOM_RATE, masking.MLM_KEEP_RATE) == (0.8, 0.1, 0.1)
    assert masking.MLM_MASK_RATE + masking.MLM_RANDOM_RATE + masking.MLM_KEEP_RATE == pytest.approx(1.0)


@given(st.integers(1, 300), st.integers(0, 2**32 - 1))
def test_masking_invariants(n, seed):
    ids = _sequence(n, seed)
    r = masking.mlm_mask(ids, mask_id=MASK, vocab_size=VOCAB, rng=seed, special_ids=[CLS, SEP])
    c = r.counts
    assert c["selected"] == max(1, round(n * 0.15))  # [CLS] and [SEP] are not candidates
    assert c["masked"] + c["random"] + c["unchanged"] == c["selected"]
    assert not r.selected[0] and not r.selected[-1]
    np.testing.assert_array_equal(r.labels[r.selected], ids[r.selected])
    assert np.all(r.labels[~r.selected] == masking.IGNORE_LABEL)
    assert np.all(r.input_ids[r.action == masking.MASKED] == MASK)
    np.testing.assert_array_equal(r.input_ids[r.action == masking.UNCHANGED], ids[r.action == masking.UNCHANGED])
    np.testing.assert_array_equal(r.input_ids[~r.selected], ids[~r.selected])
    assert not np.isin(r.input_ids[r.action == masking.RANDOM], [MASK, CLS, SEP]).any()


def test_masking_is_reproducible_with_a_seed_and_generator_alike():
    ids = _sequence(200)
    a = masking.mlm_mask(ids, mask_id=MASK, vocab_size=VOCAB, rng=42, special_ids=[CLS, SEP])
    b = masking.mlm_mask(ids, mask_id=MASK, vocab_size=VOCAB, rng=np.random.default_rng(42), special_ids=[CLS, SEP])
    c = masking.mlm_mask(ids, mask_id=MASK, vocab_size=VOCAB, rng=43, special_ids=[CLS, SEP])
    for field in ("input_ids", "labels", "action"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert a.counts == b.counts and a.counts["selected"] == 30
    assert not np.array_equal(a.action, c.action)


def test_proportions_approach_80_10_10_on_a_long_sequence():
    r = masking.mlm_mask(_sequence(100_000), mask_id=MASK, vocab_size=VOCAB, rng=7, special_ids=[CLS, SEP])
    c = r.counts
    assert c["selected"] == 15_000
    # binomial standard deviation of each share is √(0.8·0.2/15000) ≈ 0.0033; allow 5σ
    assert abs(c["masked"] / c["selected"] - 0.8) < 0.017
    assert abs(c["random"] / c["selected"] - 0.1) < 0.013
    assert abs(c["unchanged"] / c["selected"] - 0.1) < 0.013


def test_masking_errors():
    ids = _sequence(10)
    kwargs = {"mask_id": MASK, "vocab_size": VOCAB, "rng": 0}
    with pytest.raises(ValueError, match=r"token_ids must be a 1-D sequence of integer ids, got shape \(2, 6\)"):
        masking.mlm_mask(ids.reshape(2, 6), **kwargs)
    with pytest.raises(ValueError, match=r"token_ids must lie in 0 … 999, got values .* … 1000"):
        masking.mlm_mask(np.append(ids, VOCAB), **kwargs)
    with pytest.raises(ValueError, match=r"mask_id must lie in 0 … 999, got 1000"):
        masking.mlm_mask(ids, mask_id=1000, vocab_size=VOCAB, rng=0)
    with pytest.raises(ValueError, match=r"select_rate must be in \(0, 1\], got 0"):
        masking.mlm_mask(ids, select_rate=0, **kwargs)
    with pytest.raises(ValueError, match=r"vocab_size must be an integer ≥ 2, got 1"):
        masking.mlm_mask([0], mask_id=0, vocab_size=1, rng=0)
    with pytest.raises(ValueError, match=r"every id is special"):
        masking.mlm_mask([0, 1], mask_id=0, vocab_size=2, rng=0, special_ids=[1])
