"""The independent reference: every intermediate of the block against PyTorch in float64, ≤ 1e-12."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest
from second_model import SECOND, second_weights
from torch_reference import torch

from transformer_math import SENTENCES, BlockTrace, BlockWeights, build_preset, forward
from transformer_site import torch_crosscheck

pytestmark = pytest.mark.torch

TRACE_FIELDS = {f.name for f in fields(BlockTrace)}


@pytest.mark.parametrize("sentence", SENTENCES, ids=lambda s: f"s{s.number}")
def test_every_intermediate_of_every_sentence_equals_pytorch(sentence):
    weights = build_preset()
    diffs = torch_crosscheck.differences(
        forward(weights, sentence.token_ids), torch_crosscheck.torch_forward(weights, sentence.token_ids)
    )
    assert set(diffs) == TRACE_FIELDS  # every intermediate is compared, none skipped
    too_far = {name: d for name, d in diffs.items() if not d <= torch_crosscheck.TOLERANCE}
    assert not too_far, f"sentence {sentence.number}: {too_far}"


@pytest.mark.parametrize("sentence", SECOND.sentences, ids=lambda s: f"s{s.number}")
def test_every_intermediate_of_the_second_model_equals_pytorch(sentence):
    """The second model (tests/second_model.py): T = 7, d_model = 12, h = 3, d_ff = 20, its cached traces.

    PyTorch gets a writable copy of the same weights (it warns about read-only arrays)."""
    diffs = torch_crosscheck.differences(
        SECOND.trace(sentence.number), torch_crosscheck.torch_forward(second_weights(), sentence.token_ids)
    )
    assert set(diffs) == TRACE_FIELDS and max(diffs.values()) <= torch_crosscheck.TOLERANCE, diffs


def test_largest_difference_over_all_sentences_is_within_tolerance():
    largest = torch_crosscheck.largest_difference()
    assert 0.0 <= largest <= 1e-12
    per_sentence = torch_crosscheck.preset_differences()
    assert sorted(per_sentence) == list(range(1, 9))
    by_name = torch_crosscheck.max_by_intermediate()
    assert list(by_name) == [f.name for f in fields(BlockTrace)]
    assert max(by_name.values()) == largest == max(max(d.values()) for d in per_sentence.values())
    assert torch_crosscheck.torch_available()


def _random_weights(seed: int, d: int = 12, h: int = 3, d_ff: int = 20, vocab: int = 11) -> BlockWeights:
    """Weights unlike the preset's: dense, with biases, γ ≠ 1, β ≠ 0, W_V and W_O not identities."""
    rng = np.random.default_rng(seed)
    n = rng.normal
    return BlockWeights(
        W_E=n(size=(vocab, d)), W_Q=n(size=(d, d)), W_K=n(size=(d, d)), W_V=n(size=(d, d)), W_O=n(size=(d, d)),
        ln1_gamma=n(size=d), ln1_beta=n(size=d), W1=n(size=(d, d_ff)), b1=n(size=d_ff),
        W2=n(size=(d_ff, d)), b2=n(size=d), ln2_gamma=n(size=d), ln2_beta=n(size=d), n_heads=h,
    )  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_forward_with_arbitrary_weights_equals_pytorch(seed):
    weights = _random_weights(seed)
    tokens = np.random.default_rng(seed).integers(0, weights.vocab_size, size=7)
    diffs = torch_crosscheck.differences(forward(weights, tokens), torch_crosscheck.torch_forward(weights, tokens))
    assert max(diffs.values()) <= 1e-12, diffs


def test_the_comparison_can_fail():
    """Comparing sentence 1's trace with sentence 2's reference must report a large difference."""
    weights = build_preset()
    diffs = torch_crosscheck.differences(
        forward(weights, SENTENCES[0].token_ids), torch_crosscheck.torch_forward(weights, SENTENCES[1].token_ids)
    )
    assert diffs["X_tok"] >= 1.0 and diffs["ln2_out"] > 1e-3


def test_the_comparison_catches_a_tiny_error():
    """LayerNorm with ε = 1.1e-5 instead of 1e-5 moves ln1_out far less than 1e-3 but far more than 1e-12."""
    from dataclasses import replace

    weights = build_preset()
    tokens = SENTENCES[0].token_ids
    diffs = torch_crosscheck.differences(
        forward(replace(weights, eps=1.1e-5), tokens), torch_crosscheck.torch_forward(weights, tokens)
    )
    assert diffs["residual1"] <= 1e-12
    assert 1e-12 < diffs["ln1_out"] < 1e-3


def test_a_misshaped_reference_is_an_error():
    weights = build_preset()
    trace = forward(weights, SENTENCES[0].token_ids)
    reference = torch_crosscheck.torch_forward(weights, SENTENCES[0].token_ids)
    reference["scores"] = reference["scores"][:1]
    with pytest.raises(ValueError, match=r"scores: our shape \(2, 5, 5\) differs from the reference's \(1, 5, 5\)"):
        torch_crosscheck.differences(trace, reference)


def test_torch_parameter_count_of_an_encoder_layer_matches_block_params():
    """An independent count: PyTorch's own encoder layer (512, 8 heads, 2048) has our block's parameters."""
    from transformer_math import counting

    layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048)
    assert sum(p.numel() for p in layer.parameters()) == counting.block_params(512, 2048)
    bare = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, bias=False)
    layer_norms = 2 * 512  # bias=False drops β but keeps γ
    assert (
        sum(p.numel() for p in bare.parameters())
        == counting.block_params(512, 2048, bias=False, layer_norm=False) + layer_norms
    )
