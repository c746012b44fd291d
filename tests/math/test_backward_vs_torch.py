"""The independent reference for the backward pass: every gradient against torch.autograd in float64, ≤ 1e-12.

Skipped only where torch is absent; with REQUIRE_TORCH=1 (CI) a missing torch stops the session instead
(tests/conftest.py), so these run in CI.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from second_model import SECOND, second_weights
from torch_reference import torch

from transformer_math import ENCODER, SENTENCES, BlockWeights, build_preset, ops
from transformer_math import backward as bw
from transformer_site import torch_backward

pytestmark = pytest.mark.torch

TOLERANCE = torch_backward.TOLERANCE
POSITIONS = range(ENCODER.T)


def random_weights(seed: int, d: int = 12, h: int = 3, d_ff: int = 20, vocab: int = 11) -> BlockWeights:
    """Weights unlike the preset's: dense, with biases, γ ≠ 1, β ≠ 0, W_V and W_O not identities."""
    rng = np.random.default_rng(seed)
    n = rng.normal
    return BlockWeights(
        W_E=n(size=(vocab, d)), W_Q=n(size=(d, d)), W_K=n(size=(d, d)), W_V=n(size=(d, d)), W_O=n(size=(d, d)),
        ln1_gamma=n(size=d), ln1_beta=n(size=d), W1=n(size=(d, d_ff)), b1=n(size=d_ff),
        W2=n(size=(d_ff, d)), b2=n(size=d), ln2_gamma=n(size=d), ln2_beta=n(size=d), n_heads=h,
    )  # fmt: skip


def _too_far(weights: BlockWeights, tokens: np.ndarray, position: int) -> dict[str, float]:
    diffs = torch_backward.differences(
        bw.backward(weights, tokens, position), torch_backward.torch_gradients(weights, tokens, position)
    )
    assert set(diffs) == {"loss", *torch_backward.compared_names()}  # every gradient compared, none skipped
    return {name: d for name, d in diffs.items() if not d <= TOLERANCE}


@pytest.mark.parametrize("sentence", SENTENCES, ids=lambda s: f"s{s.number}")
def test_every_gradient_of_every_sentence_equals_autograd(sentence):
    weights = build_preset()
    for position in POSITIONS:
        too_far = _too_far(weights, sentence.token_ids, position)
        assert not too_far, f"sentence {sentence.number}, hidden position {position}: {too_far}"


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_gradient_with_random_dense_weights_equals_autograd(seed):
    weights = random_weights(seed)
    tokens = np.random.default_rng(seed).integers(0, weights.vocab_size, size=ENCODER.T)
    for position in POSITIONS:
        too_far = _too_far(weights, tokens, position)
        assert not too_far, f"seed {seed}, hidden position {position}: {too_far}"


@pytest.mark.parametrize("sentence", SECOND.sentences, ids=lambda s: f"s{s.number}")
def test_every_gradient_of_the_second_model_equals_autograd(sentence):
    """The second model (tests/second_model.py): other sizes, T = 7, every position hidden in turn."""
    weights = second_weights()  # SECOND.weights, writable (torch warns about read-only arrays)
    for position in range(SECOND.T):
        too_far = _too_far(weights, sentence.token_ids, position)
        assert not too_far, f"second model, sentence {sentence.number}, hidden position {position}: {too_far}"


def test_compared_gradients_are_all_but_the_layer_norm_terms():
    """The three terms have no node in autograd's graph; they are checked separately below."""
    left_out = set(bw.gradient_names()) - set(torch_backward.compared_names())
    assert left_out == {f"d_residual{i}_{t}" for i in (1, 2) for t in ("direct", "mean", "variance")}


@pytest.mark.parametrize("case", ["preset", "random"])
def test_the_three_layer_norm_terms_each_equal_autograd_along_one_road(case):
    weights = build_preset() if case == "preset" else random_weights(5)
    tokens = SENTENCES[0].token_ids if case == "preset" else np.array([1, 4, 4, 9, 0])
    g = bw.backward(weights, tokens, 3)
    for which, x, gamma, d_y in (
        ("residual2", g.loss.trace.residual2, weights.ln2_gamma, g.d_ln2_out),
        ("residual1", g.loss.trace.residual1, weights.ln1_gamma, g.d_ln1_out),
    ):
        theirs = torch_backward.torch_layer_norm_terms(x, gamma, weights.eps, d_y)
        np.testing.assert_allclose(theirs["direct"] + theirs["mean"] + theirs["variance"], theirs["total"], atol=1e-13)
        for term in ("direct", "mean", "variance"):
            ours = getattr(g, f"d_{which}_{term}")
            assert np.abs(ours - theirs[term]).max() <= TOLERANCE, (which, term)
            assert np.abs(theirs[term]).max() > 1e-3, (which, term)  # each road carries something


def test_softmax_jacobian_equals_autograds():
    a = ops.softmax(np.random.default_rng(0).normal(size=7) * 3)
    S = torch.tensor(np.log(a), dtype=torch.float64)  # softmax(log a) = a
    theirs = torch.autograd.functional.jacobian(lambda s: torch.softmax(s, dim=-1), S).numpy()
    assert np.abs(bw.softmax_jacobian(a) - theirs).max() <= TOLERANCE


def test_largest_difference_over_the_preset_is_within_tolerance():
    per_case = torch_backward.preset_differences()
    assert sorted(per_case) == [(s, p) for s in range(1, 9) for p in POSITIONS]
    largest = torch_backward.largest_difference()
    assert 0.0 <= largest <= TOLERANCE
    assert largest == max(max(d.values()) for d in per_case.values())


def test_the_comparison_can_fail():
    """Gradients with word 3 hidden against autograd's with word 2 hidden differ by far more than 1e-12."""
    weights, tokens = build_preset(), SENTENCES[0].token_ids
    diffs = torch_backward.differences(
        bw.backward(weights, tokens, 3), torch_backward.torch_gradients(weights, tokens, 2)
    )  # fmt: skip
    assert diffs["d_ln2_out"] > 0.1 and diffs["d_W_Q"] > 1e-3 and diffs["loss"] > 0.1


def test_the_comparison_catches_a_tiny_error():
    """LayerNorm with ε = 1.1e-5 in our pass only: gradients move far less than 1e-3, far more than 1e-12."""
    weights, tokens = build_preset(), SENTENCES[0].token_ids
    diffs = torch_backward.differences(
        bw.backward(replace(weights, eps=1.1e-5), tokens, 3), torch_backward.torch_gradients(weights, tokens, 3)
    )
    assert diffs["d_logits"] <= 1e-3 and 1e-12 < diffs["d_W_Q"] < 1e-3


def test_a_misshaped_reference_is_an_error():
    weights, tokens = build_preset(), SENTENCES[0].token_ids
    reference = torch_backward.torch_gradients(weights, tokens, 0)
    reference["d_scores"] = reference["d_scores"][:1]
    with pytest.raises(ValueError, match=r"d_scores: our shape \(2, 5, 5\) differs from autograd's \(1, 5, 5\)"):
        torch_backward.differences(bw.backward(weights, tokens, 0), reference)
