"""The backward pages' and the lab's modules (``transformer_pages.backprop``): what their prose relies on, computed
a second way, and bad arguments named."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_math import backward, preset, tokenize, training
from transformer_pages import tryit
from transformer_pages.backprop import attention, lab, loss, output_ffn, sizes


def test_the_loss_floor_is_the_two_examples_that_cannot_be_told_apart():
    # 文4 and 文5 differ only in the noun at position 2: hidden, their inputs are the same, their answers not
    s4, s5 = preset.sentence(4).token_ids.copy(), preset.sentence(5).token_ids.copy()
    s4[2] = s5[2] = 0
    assert (s4 == s5).all() and lab.ambiguous_pairs() == 1 and lab.n_distinct_inputs() == lab.n_examples() - 1
    assert lab.loss_floor() == pytest.approx(2 * math.log(2) / lab.n_examples(), abs=1e-15)
    assert lab.run().final_loss > lab.loss_floor()


def test_a_hidden_words_query_is_its_position_alone():
    weights = training.init_weights(3)
    for p in range(preset.T):
        Q = [backward.masked_word_loss(weights, s.token_ids, p).trace.Q[p] for s in preset.SENTENCES]
        assert all(np.array_equal(q, Q[0]) for q in Q)
    assert lab.hidden_query_spread() == 0.0


def test_held_out_sentences_are_not_among_the_eight_and_each_matches_one_outside_the_hidden_word():
    texts = {s.text for s in preset.SENTENCES}
    for text, position in lab.HELD_OUT:
        assert text not in texts
        like = preset.sentence(lab.training_sentence_like(text, position))
        tokens = tokenize(text)
        assert like.token_ids[position] != tokens[position]
        word, p_true = lab.held_out(text, position)
        assert word == like.words[position] and 0 <= p_true < lab.held_out_prob(text, position, word)


def test_the_ln_terms_and_the_jacobian_bounds_agree_with_the_definitions():
    terms = output_ffn.ln2_terms()
    assert np.allclose(terms["direct"] + terms["mean"] + terms["variance"], terms["total"])
    for which in (1, 2):
        J = sizes.layer_norm_jacobian(which)
        # a finite difference of LayerNorm at the hidden row, column by column
        tr = backward.preset_gradients(loss.SENTENCE, loss.POSITION).loss.trace
        x = (tr.residual1 if which == 1 else tr.residual2)[loss.POSITION]
        from transformer_math import ops

        h = 1e-6
        numeric = np.stack(
            [(ops.layer_norm(x + h * e, eps=preset.EPS) - ops.layer_norm(x - h * e, eps=preset.EPS)) / (2 * h)
             for e in np.eye(len(x))], axis=1,
        )  # fmt: skip
        assert np.allclose(J, numeric, atol=1e-7)
        assert np.linalg.norm(J, 2) == pytest.approx(sizes.ln_scale(which), rel=1e-4)
    for s in sizes.steps():
        assert s.size_after <= s.bound * s.size_before * (1 + 1e-12)


def test_the_softmax_kills_the_constant_part_of_the_upstream_gradient():
    for head in range(preset.N_HEADS):
        g = attention.grads()
        row, J = g.d_attn[head, loss.POSITION], attention.jacobian(head)
        deviation = row - row.mean()
        assert np.allclose(row @ J, deviation @ J)
        assert np.allclose(row @ J, g.d_scores[head, loss.POSITION])


@pytest.mark.slow  # measures the softmax's gradient at 64 + 10 sizes of d_k, twice each
def test_the_panel_readout_is_the_chapters_sweep_at_its_d_k():
    chapter, panel = backward.sqrt_dk_sweep(), tryit.sdpa_gradient_sweep()
    for d_k in (1, 2, 4, 8, 16, 32, 64):
        for scale in (True, False):
            assert tryit.sdpa_gradient(d_k, scale) == chapter.at(d_k, scale) == panel.at(d_k, scale)
    assert tryit.sdpa_gradient(37, False) == panel.at(37, False)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tryit.sdpa_gradient(65, True), r"d_k must be an integer 1 … 64, got 65"),
        (lambda: tryit.sdpa_gradient(8, "yes"), r"scale must be True or False, got 'yes'"),
        (lambda: sizes.ln_scale(3), r"which must be 1 or 2, got 3"),
        (lambda: sizes.step("X", "Y"), r"no step 'X' → 'Y'"),
        (lambda: attention.embedding_rows("both"), r"side must be 'input' or 'output', got 'both'"),
        (lambda: attention.ln1_term_sum("all"), r"term must be one of"),
        (lambda: output_ffn.nonzero_rows("W1"), r"∂L/∂W1 has shape \(16, 32\): its first axis is not the T = 5"),
        (lambda: lab.named("final"), r"which must be 'learned' or 'initial', got 'final'"),
        (lambda: lab.training_sentence_like("これ は 大きい 猫 です", 0), r"no example sentence matches"),
    ],
)
def test_bad_arguments_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
