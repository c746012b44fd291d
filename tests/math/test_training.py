"""The training run: deterministic, the loss falls, the verdicts are computed consistently, bad input."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from transformer_math import adam, build_preset, preset, schedules, training
from transformer_math import backward as bw

SHORT = 6  # steps of the short runs that test determinism without the full run's cost


@pytest.fixture(scope="module")
def run() -> training.TrainingRun:
    return training.default_run()


@pytest.mark.repeat
def test_two_runs_give_the_same_numbers_bit_for_bit():
    a, b = training.train(steps=SHORT), training.train(steps=SHORT)
    np.testing.assert_array_equal(a.losses, b.losses)
    for name in bw.WEIGHT_NAMES:
        np.testing.assert_array_equal(getattr(a.learned, name), getattr(b.learned, name))
    np.testing.assert_array_equal(a.learned_attention, b.learned_attention)
    assert a.verdicts == b.verdicts


def test_a_short_run_is_the_start_of_the_full_run(run):
    """Noam's rate depends on the step and the warm-up only, so the first steps of any length of run agree."""
    short = training.train(steps=SHORT)
    np.testing.assert_array_equal(short.losses, run.losses[: SHORT + 1])


def test_another_seed_starts_elsewhere():
    assert training.init_weights(1).W_Q[0, 0] != training.init_weights(0).W_Q[0, 0]
    np.testing.assert_array_equal(training.init_weights(0).W_E, training.init_weights(0).W_E)


def test_the_loss_falls(run):
    assert run.final_loss < run.initial_loss / 10
    assert run.losses[-10:].mean() < run.losses[:10].mean() / 5
    assert np.all(np.isfinite(run.losses)) and run.losses.shape == (training.STEPS + 1,)


def test_the_losses_are_the_mean_masked_word_loss_of_the_40_examples(run):
    batch = training.examples()
    assert len(batch) == 40 and {p for _, p in batch} == set(range(5))
    direct = np.mean([bw.masked_word_loss(run.learned, t, p).loss for t, p in batch])
    assert np.isclose(run.final_loss, direct, rtol=1e-14)
    assert np.isclose(run.initial_loss, training.mean_loss_and_gradients(run.initial, batch)[0], rtol=1e-14)


def test_the_learning_rate_is_noam_at_the_blocks_d_model(run):
    steps = np.arange(1, training.STEPS + 1)
    np.testing.assert_array_equal(run.lr, schedules.noam_lr(steps, d_model=preset.D_MODEL, warmup=training.WARMUP))
    assert int(np.argmax(run.lr)) + 1 == training.WARMUP


def test_adam_step_agrees_with_the_projects_adam_updates():
    """Three steps of ``adam_step`` move each weight as ``adam.adam_updates`` says for its gradients."""
    weights = training.init_weights(0)
    rng = np.random.default_rng(1)
    history = [{n: rng.normal(size=np.shape(getattr(weights, n))) for n in bw.WEIGHT_NAMES} for _ in range(3)]
    lrs = [0.01, 0.02, 0.005]
    state, moved = training.adam_init(weights), weights
    for grads, lr in zip(history, lrs, strict=True):
        moved, state = training.adam_step(moved, grads, state, lr)
    for name in bw.WEIGHT_NAMES:
        stacked = np.stack([g[name].ravel() for g in history])  # (steps, parameters)
        expected = adam.adam_updates(stacked, np.array(lrs)).sum(axis=0).reshape(np.shape(getattr(weights, name)))
        np.testing.assert_allclose(getattr(moved, name) - getattr(weights, name), expected, atol=1e-15)


def test_one_verdict_per_intended_relation_in_order(run):
    intended = [(s.number, r.query, r.key, r.head) for s in preset.SENTENCES for r in s.relations]
    assert [(v.sentence, v.query, v.key, v.head) for v in run.verdicts] == intended


def test_each_verdict_is_read_from_the_attention_it_names(run):
    hand_crafted = build_preset()
    for v in run.verdicts:
        n = v.sentence - 1
        learned_row = run.learned_attention[n, v.learned_head, v.query_position]
        preset_row = run.preset_attention[n, v.head, v.query_position]
        assert v.learned_argmax == int(np.argmax(learned_row)) and v.preset_argmax == int(np.argmax(preset_row))
        assert v.emerged == (v.learned_margin > 0) and v.preset_holds == (v.preset_margin > 0)
        other_head = run.learned_attention[n, 1 - v.learned_head, v.query_position]
        assert training.row_margin(other_head, v.key_position) <= v.learned_margin  # the better head was taken
        s = preset.SENTENCES[n]
        np.testing.assert_array_equal(
            run.preset_attention[n], training.full_sentence_attention(hand_crafted, s.token_ids)
        )
    assert run.emerged == tuple(v for v in run.verdicts if v.learned_margin > 0)


def test_the_learned_rows_are_the_hidden_words_own_rows(run):
    s = preset.SENTENCES[2]
    for i in range(5):
        row = bw.masked_word_loss(run.learned, s.token_ids, i).trace.attn[:, i, :]
        np.testing.assert_array_equal(run.learned_attention[2][:, i, :], row)
    np.testing.assert_allclose(run.learned_attention.sum(axis=-1), 1.0, atol=1e-12)
    assert run.learned_attention.shape == (8, preset.N_HEADS, preset.T, preset.T)


def test_the_chance_baseline_is_the_same_verdict_on_the_untrained_start(run):
    assert run.initial_verdicts == training.relation_verdicts(run.initial)
    assert [(v.sentence, v.query) for v in run.initial_verdicts] == [(v.sentence, v.query) for v in run.verdicts]


def test_the_hand_crafted_preset_attends_as_built_for_every_relation(run):
    assert all(v.preset_holds for v in run.verdicts)


def test_row_margin():
    assert training.row_margin(np.array([0.1, 0.6, 0.3]), 1) == pytest.approx(0.3)
    assert training.row_margin(np.array([0.1, 0.6, 0.3]), 2) == pytest.approx(-0.3)


def test_the_run_is_read_only(run):
    with pytest.raises(ValueError, match="read-only"):
        run.losses[0] = 0.0
    with pytest.raises(ValueError, match="read-only"):
        run.learned.W_Q[0, 0] = 0.0


def test_the_summary_names_the_loss_and_every_verdict(run):
    text = training.summary(run)
    assert f"loss {run.initial_loss:.4f} → {run.final_loss:.4f}" in text
    assert f"relations emerged: {len(run.emerged)} of 16" in text
    assert text.count("\n  s") == 16


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"steps": 0}, "steps must be an integer ≥ 1, got 0"),
        ({"steps": 2.5}, "steps must be an integer ≥ 1, got 2.5"),
        ({"warmup": True}, "warmup must be an integer ≥ 1, got True"),
        ({"seed": -1}, "seed must be an integer ≥ 0, got -1"),
    ],
)
def test_bad_arguments_are_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        training.train(**kwargs)


def test_an_empty_batch_and_nan_weights_are_errors():
    weights = training.init_weights(0)
    with pytest.raises(ValueError, match="batch must hold at least one"):
        training.mean_loss_and_gradients(weights, ())
    broken = replace(weights, W_K=weights.W_K.copy())
    broken.W_K[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"weights\.W_K\[3, 1\] = nan is not finite \(shape \(16, 16\)\)"):
        training.mean_loss_and_gradients(broken, training.examples())
