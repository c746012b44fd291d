"""counting, schedules, ops.dropout, adam and similarity (and the pages on them), each against another route."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from transformer_math import adam, counting, ops, schedules, similarity
from transformer_pages.chapter import bert_gpt as BERT
from transformer_pages.chapter import training as TRN
from transformer_pages.scale import pre_ln as PRELN


@given(st.integers(1, 4096), st.integers(1, 16384))
def test_weight_terms_add_up_to_countings_weights_only_block(d_model, d_ff):
    weights = sum(counting.block_weight_terms(d_model, d_ff).values())
    assert weights == counting.block_params(d_model, d_ff, bias=False, layer_norm=False)


@given(st.integers(1, 4096), st.integers(1, 16384))
def test_weights_plus_small_terms_is_the_full_block(d_model, d_ff):
    weights = sum(counting.block_weight_terms(d_model, d_ff).values())
    small = sum(counting.block_small_terms(d_model, d_ff).values())
    assert weights + small == counting.block_params(d_model, d_ff)


def test_original_block_terms():
    # 4·512² + 2·512·2048, written out by hand from the paper's sizes
    assert sum(counting.block_weight_terms(512, 2048).values()) == 4 * 512 * 512 + 2 * 512 * 2048 == 3_145_728
    assert sum(counting.block_small_terms(512, 2048).values()) == 4 * 512 + 2048 + 512 + 4 * 512


@given(st.integers(1, 3000))
def test_crossover_is_where_attention_stops_being_cheaper(d):
    n = counting.crossover_n(d)
    assert n == d
    assert counting.self_attention_multiplies(n, d) == counting.recurrent_multiplies(n, d)
    if n > 1:
        assert counting.self_attention_multiplies(n - 1, d) < counting.recurrent_multiplies(n - 1, d)
    assert counting.self_attention_multiplies(n + 1, d) > counting.recurrent_multiplies(n + 1, d)


@given(st.integers(1, 600), st.integers(1, 40))
def test_window_reach_matches_the_closed_form(n, half):
    r = 2 * half + 1
    expected = math.ceil((n - 1) / half)
    assert counting.window_reach_layers(n, r) == expected


def test_window_reach_is_about_twice_n_over_r():
    # a centred window reaches (r−1)/2 positions per layer: about 2n/r layers, the O(n/r) of Table 1
    layers = counting.window_reach_layers(512, 33)
    assert layers == 32
    assert layers == 2 * counting.layer_complexity("restricted").max_path_length(512, r=32)


@pytest.mark.parametrize("r", [0, 1, 2, 8, -3])
def test_window_reach_rejects_bad_windows(r):
    with pytest.raises(ValueError, match=r"r must be|r must be a positive integer"):
        counting.window_reach_layers(10, r)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: counting.block_weight_terms(0, 2048), "d_model must be a positive integer, got 0"),
        (lambda: counting.block_small_terms(512, 1.5), "d_ff must be a positive integer, got 1.5"),
        (lambda: counting.crossover_n(True), "d must be a positive integer, got True"),
    ],
)
def test_errors_name_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_entropy_of_uniform_and_onehot():
    assert schedules.entropy(np.full(16, 1 / 16)) == pytest.approx(math.log(16))
    assert schedules.entropy(np.eye(5)[2]) == 0.0
    with pytest.raises(ValueError, match="probability vector"):
        schedules.entropy(np.array([0.5, 0.6]))


def test_smoothed_target_entropy_matches_hand_formula():
    # (1 − ε + ε/K) and ε/K, entropy written out by hand
    eps, k = 0.1, 16
    top, rest = 1 - eps + eps / k, eps / k
    by_hand = -(top * math.log(top) + (k - 1) * rest * math.log(rest))
    target = schedules.label_smoothing_target(3, k, eps)
    assert schedules.entropy(target) == pytest.approx(by_hand, rel=1e-14)


@given(st.floats(0.0, 0.9), st.integers(0, 10_000))
def test_dropout_keeps_or_scales_every_entry(p, seed):
    x = np.arange(1.0, 201.0)
    out = ops.dropout(x, p, seed)
    kept = out != 0
    np.testing.assert_allclose(out[kept], x[kept] / (1 - p))


def test_dropout_demo_is_close_to_its_expectation():
    demo = TRN.dropout_demo(0.1)
    # binomial standard deviation of the zero share: sqrt(p(1−p)/N) ≈ 5.9e-4 for N = 512²
    assert abs(demo["zero_fraction"] - 0.1) < 4 * math.sqrt(0.1 * 0.9 / demo["size"])
    assert abs(demo["mean"] - 1.0) < 0.01
    with pytest.raises(ValueError, match=r"p must be in \[0, 1\)"):
        ops.dropout(np.ones(3), 1.0, 0)


def test_mlm_simulation_counts():
    result = BERT.mlm_simulation()
    corpus = BERT.mlm_corpus()
    assert corpus.size == 8 * 5 * BERT.MLM_REPEATS
    assert result.n_selected == round(0.15 * corpus.size)
    assert result.n_masked + result.n_random + result.n_unchanged == result.n_selected
    # 80/10/10 within 4 binomial standard deviations
    for count, rate in ((result.n_masked, 0.8), (result.n_random, 0.1), (result.n_unchanged, 0.1)):
        sd = math.sqrt(result.n_selected * rate * (1 - rate))
        assert abs(count - rate * result.n_selected) < 4 * sd
    # the simulation is reproducible: same seed, same corruption
    again = BERT.mlm_simulation()
    np.testing.assert_array_equal(result.input_ids, again.input_ids)


@pytest.mark.parametrize(("d_model", "d_ff"), [(512, 2048), (768, 3072), (64, 100), (16, 32)])
def test_core_overtakes_at_the_algebraic_points(d_model, d_ff):
    # 2·n²·d ≥ 4·n·d² ⇔ n ≥ 2d ; 2·n²·d ≥ 2·n·d·d_ff ⇔ n ≥ d_ff
    assert counting.first_n_where_core_exceeds(d_model, d_ff, "projections") == 2 * d_model
    assert counting.first_n_where_core_exceeds(d_model, d_ff, "ffn") == d_ff
    with pytest.raises(ValueError, match="other must be"):
        counting.first_n_where_core_exceeds(d_model, d_ff, "softmax")


def test_cached_results_are_read_only():
    result = BERT.mlm_simulation()
    with pytest.raises(ValueError, match="read-only"):
        result.input_ids[0] = 0
    with pytest.raises(TypeError):
        TRN.dropout_demo(0.1)["mean"] = 2.0


@pytest.mark.torch
def test_adam_updates_match_torch():
    torch = pytest.importorskip("torch", reason="torch (the independent reference) is not installed")
    rng = np.random.default_rng(3)
    grads = rng.normal(size=(6, 4)) * np.array([1e-6, 1e-3, 1.0, 10.0])
    lrs = schedules.noam_lr(np.arange(1, 7))
    theta = torch.zeros(4, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.Adam([theta], lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    expected = []
    for step in range(6):
        for group in opt.param_groups:
            group["lr"] = float(lrs[step])
        before = theta.detach().clone()
        theta.grad = torch.tensor(grads[step], dtype=torch.float64)
        opt.step()
        expected.append((theta.detach() - before).numpy())
    np.testing.assert_allclose(adam.adam_updates(grads, lrs), np.array(expected), rtol=1e-12, atol=1e-20)


def test_first_adam_step_is_about_the_learning_rate():
    steps = TRN.first_adam_step(7e-4)
    np.testing.assert_allclose(steps, 7e-4, rtol=1e-3)
    with pytest.raises(ValueError, match="grads must be a finite 2-D array"):
        adam.adam_updates(np.ones(3), 1e-3)


def test_dot_and_cos_pairs_by_hand():
    rows = np.array([[3.0, 4.0], [4.0, 3.0], [0.0, 2.0]])
    dots, coss = similarity.dot_and_cos_pairs(rows)
    np.testing.assert_allclose(dots, [24.0, 8.0, 6.0])
    np.testing.assert_allclose(coss, [24 / 25, 8 / 10, 6 / 10])
    with pytest.raises(ValueError, match="non-zero"):
        similarity.dot_and_cos_pairs(np.array([[1.0, 0.0], [0.0, 0.0]]))


def test_after_layer_norm_dot_over_d_is_the_cosine():
    dots, coss = PRELN.preset_dot_cos("ln1_out")
    assert np.max(np.abs(dots - coss)) < 1e-4  # only LayerNorm's ε keeps the norm a hair below √d
    assert similarity.rank_disagreements(dots, coss) == 0
    raw_dots, raw_coss = PRELN.preset_dot_cos("X")
    assert similarity.rank_disagreements(raw_dots, raw_coss) > 0


def test_rank_disagreements_counts_discordant_pairs():
    # orders (1, 2, 3) and (1, 3, 2): exactly the pair (2nd, 3rd) is discordant
    assert similarity.rank_disagreements(np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0])) == 1
