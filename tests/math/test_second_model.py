"""A second, differently sized encoder runs everywhere the preset does: forward, backward, derivations, tokenizer,
training (tests/second_model.py builds it; tests/kernel runs the browser's kernel on it, and the PyTorch
cross-checks compare its forward and backward too)."""

from __future__ import annotations

from dataclasses import fields, replace

import numpy as np
import pytest
from second_model import SECOND, TEXTS

from transformer_math import ENCODER, BlockTrace, forward, ops, relations, tokenize, training
from transformer_math import backward as bw
from transformer_math import derivations as dv

NUMBERS = range(1, len(SECOND.sentences) + 1)


def test_every_size_differs_from_the_preset() -> None:
    sizes = ("T", "d_model", "h", "d_k", "d_ff", "vocab_size", "eps")
    assert [getattr(SECOND, s) for s in sizes] == [7, 12, 3, 4, 20, 11, 1e-6]
    assert all(getattr(SECOND, s) != getattr(ENCODER, s) for s in sizes)
    assert len(SECOND.sentences) != len(ENCODER.sentences)


@pytest.mark.parametrize("n", NUMBERS)
def test_the_trace_has_the_second_models_shapes_and_is_cached(n: int) -> None:
    trace = SECOND.trace(n)
    T, d, h, d_k, d_ff = SECOND.T, SECOND.d_model, SECOND.h, SECOND.d_k, SECOND.d_ff
    assert trace is SECOND.trace(n) and trace is not ENCODER.trace(n)
    assert (trace.Q.shape, trace.attn.shape, trace.ffn_h.shape, trace.ln2_out.shape) == (
        (T, h, d_k), (h, T, T), (T, d_ff), (T, d))  # fmt: skip
    np.testing.assert_array_equal(trace.tokens, SECOND.sentence(n).token_ids)
    with pytest.raises(ValueError, match="read-only"):
        trace.attn[0, 0, 0] = 0.5


@pytest.mark.parametrize("n", NUMBERS)
def test_the_trace_is_the_block_written_out_with_ops(n: int) -> None:
    """A second route through the same sizes: multi-head attention, LayerNorm and the FFN from ops."""
    w, trace = SECOND.weights, SECOND.trace(n)
    X = w.W_E[trace.tokens] + ops.positional_encoding(SECOND.T, SECOND.d_model)
    Y = ops.multi_head_attention(X, X, w.W_Q, w.W_K, w.W_V, w.W_O, SECOND.h)
    ln1_out = ops.layer_norm(X + Y, w.ln1_gamma, w.ln1_beta, SECOND.eps)
    ln2_out = ops.layer_norm(ln1_out + ops.ffn(ln1_out, w.W1, w.b1, w.W2, w.b2)[2], w.ln2_gamma, w.ln2_beta, w.eps)
    np.testing.assert_allclose(trace.ln2_out, ln2_out, atol=1e-12)


@pytest.mark.parametrize("stage", dv.CELL_STAGES)
def test_every_derivation_equals_the_trace(stage: str) -> None:
    trace = SECOND.trace(2)
    ders = dv.derive_all(trace, stage, SECOND.weights)
    assert len(ders) == getattr(trace, stage).size
    assert max(abs(d.value - dv.trace_value(trace, d)) for d in ders) <= 1e-12


def test_the_switched_derivations_equal_the_trace() -> None:
    switches = {"scale": False, "causal": True, "positions": False}  # each changes one stage's derivation
    weights = SECOND.weights_with(bond0=-1.5, eps=0.05)
    trace = forward(weights, SECOND.sentence(2).token_ids, **switches)
    for stage in ("scores", "attn", "X_pos"):
        for der in dv.derive_all(trace, stage, weights, **switches):
            assert abs(der.value - dv.trace_value(trace, der)) <= 1e-12, (stage, der.index)


def test_the_bond_intends_the_adjective_noun_pairs_and_detectors_read_the_threshold() -> None:
    s = SECOND.sentence(1)  # 赤い 犬 が 小さい 鳥 を 見る: adjectives at 0 and 3, nouns at 1 and 4
    assert relations.intended_relations(s.token_ids, SECOND) == ((0, 0, 1), (0, 0, 4), (0, 3, 1), (0, 3, 4))
    outcomes = relations.relation_outcomes(SECOND.trace(1), SECOND)
    attn = SECOND.trace(1).attn
    assert [o.head for o in outcomes] == [1] * 4 and outcomes[0].weight == attn[1, 0, 1]
    assert all(o.wins == (int(np.argmax(attn[1, o.query_pos])) == o.key_pos) for o in outcomes)
    fired = relations.firing_detectors(SECOND.trace(1), SECOND)
    assert [(t, k) for t, k, _ in fired] == [tuple(map(int, i)) for i in np.argwhere(SECOND.trace(1).ffn_h > 0.5)]
    unwired = replace(SECOND, name="unwired", bonds=(), categories=())
    assert (
        relations.intended_relations(s.token_ids, unwired)
        == ()
        == relations.relation_outcomes(unwired.trace(1), unwired)
    )


def test_a_derivation_on_the_preset_weights_is_refused_for_the_second_trace() -> None:
    with pytest.raises(ValueError, match=r"weights\.d_model = 16 does not match the trace's d_model = 12"):
        dv.derive(SECOND.trace(1), "ln1_out", (0, 0))


def test_the_gradients_are_the_backward_of_the_second_model_and_cached() -> None:
    g = bw.preset_gradients(2, 6, SECOND)
    assert g is bw.preset_gradients(2, 6, SECOND)
    np.testing.assert_array_equal(g.d_W_Q, bw.backward(SECOND.weights, SECOND.sentence(2).token_ids, 6).d_W_Q)
    assert g.d_W1.shape == (12, 20) and g.d_W_E.shape == (11, 12) and g.loss.logits.shape == (11,)
    with pytest.raises(ValueError, match=r"position must be an integer 0 … 6"):
        bw.preset_gradients(1, 7, SECOND)


@pytest.mark.parametrize("n", NUMBERS)
def test_the_tokenizer_reads_the_second_vocabulary(n: int) -> None:
    s = SECOND.sentence(n)
    np.testing.assert_array_equal(tokenize("".join(s.words), SECOND), s.token_ids)
    assert s.text == TEXTS[n - 1]


def test_the_tokenizer_says_the_second_models_length() -> None:
    with pytest.raises(ValueError, match=r"has 3 tokens, but the block takes exactly T = 7"):
        tokenize("犬 が 見る", SECOND)
    with pytest.raises(ValueError, match=r"unknown word '花' at position 0; vocabulary: 0 犬、1 鳥"):
        tokenize("花 が 見る", SECOND)


def test_knobs_set_the_second_models_entries() -> None:
    changed = SECOND.weights_with(bond0=2.5, eps=0.01)
    assert changed.W_Q[1, 5] == 2.5 and changed.eps == 0.01
    assert SECOND.weights.W_Q[1, 5] != 2.5  # the model's own weights are untouched
    trace = forward(changed, SECOND.sentence(1).token_ids)
    assert {f.name for f in fields(BlockTrace)} <= set(dir(trace))


def test_training_runs_on_the_second_model() -> None:
    one_sentence = replace(SECOND, sentences=SECOND.sentences[:1])  # 7 examples keep it quick
    run = training.train(steps=1, warmup=1, model=one_sentence)
    assert run.learned.W_E.shape == (11, 12) and run.learned.n_heads == 3
    assert run.learned_attention.shape == (1, 3, 7, 7) and len(training.examples(SECOND)) == 3 * 7
    assert np.all(np.isfinite(run.losses)) and run.verdicts == ()  # its sentences intend no relation
    assert run.lr[0] == pytest.approx(12**-0.5)  # Noam at d_model = 12, warm-up 1
