"""The decoder track's page modules (``transformer_pages.decoder``): what their prose relies on, computed a second
way from the definitions, and bad arguments named."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import generation as gen
from transformer_math import ops
from transformer_pages.decoder import (
    cross_attention,
    decoding,
    kv_cache,
    masked_attention,
    next_word,
    tokenization,
)


def test_the_mask_hides_exactly_the_upper_triangle_of_the_example():
    attn = masked_attention.trace().blocks[masked_attention.BLOCK].attn[masked_attention.HEAD]
    T = attn.shape[0]
    assert masked_attention.n_masked(T) == T * (T - 1) // 2
    for i in range(T):
        assert (attn[i, i + 1 :] == 0).all() and attn[i, : i + 1].min() > 0
        assert math.isclose(attn[i].sum(), 1.0, abs_tol=1e-15)
    assert masked_attention.future_is_zero() and masked_attention.rows_sum_to_one()
    assert masked_attention.first_row_is_itself() and masked_attention.unmasked_future_weight() > 0


def test_the_step_losses_are_those_of_each_prefix_read_alone():
    ids = dp.sentence_ids(next_word.SENTENCE)
    model = next_word.model()
    by_prefix = [-math.log(dec.forward(model, ids[: t + 1]).probs[t, ids[t + 1]]) for t in range(len(ids) - 1)]
    np.testing.assert_allclose(next_word.step_losses(), by_prefix, rtol=0, atol=1e-13)
    assert next_word.one_pass_equals_steps()
    assert next_word.final_loss() > next_word.loss_floor() > 0


def test_the_greedy_completions_are_the_sentences():
    for prompt, continuation, complete in next_word.completions():
        assert complete
        words = (prompt + " " + continuation).split()
        assert words[0] == "<bos>" and words[-1] == "<eos>"
    assert next_word.all_complete()


def test_top_p_keeps_the_smallest_head_of_the_sorted_distribution_that_reaches_p():
    probs = ops.softmax(decoding.start_logits())
    order = np.argsort(-probs, kind="stable")
    for p in decoding.TOP_P:
        kept = int(np.searchsorted(np.cumsum(probs[order]), p) + 1)
        assert decoding.top_p_kept(p) == kept
        assert decoding.top_p_total_before(p) >= p


def test_the_tail_draw_reads_the_second_uniform_of_its_seed_and_top_p_removes_it():
    u, prob, _ = decoding.tail_draw()
    assert u in list(itertools.islice(gen.uniforms(decoding.TAIL_SEED), 6)) and prob < 0.01
    assert decoding.tail_removed()
    assert decoding.greedy_ignores_seeds() and decoding.temperature_keeps_order()


def test_the_loop_repeats_one_word_until_the_positions_are_full():
    run = decoding.loop_run()
    assert run.stopped == "positions" and len(run.tokens) == decoding.model().n_positions
    tail = run.generated[decoding.first_repeat_step() :]
    assert len(set(tail)) == 1 and decoding.loop_repeats() >= 2


def test_a_step_without_the_cache_costs_the_length_times_the_cached_step():
    assert kv_cache.ratio_is_the_length() and kv_cache.same_words()
    assert kv_cache.largest_difference() <= kv_cache.TOLERANCE
    for n in (1, 5, 12):
        assert kv_cache.ratio(n) == n
    assert kv_cache.sentence_cost(False) > kv_cache.sentence_cost(True)


def test_cross_attention_has_n_by_m_weights_per_head_and_keys_from_the_encoder():
    n, m = cross_attention.n(), cross_attention.m()
    assert cross_attention.shape("attn")[-2:] == (n, m) and n != m
    assert cross_attention.every_weight_positive() and cross_attention.rows_sum_to_one()
    assert cross_attention.keys_and_values_unchanged()


def test_the_first_bpe_merge_is_the_most_frequent_adjacent_pair_of_the_corpus():
    pairs = Counter()
    for word, count in Counter(tokenization.corpus()).items():
        symbols = [*word, "</w>"]
        for a, b in itertools.pairwise(symbols):
            pairs[a, b] += count
    a, b = tokenization.run().steps[0].pair
    assert tokenization.merge(1) == f"{a} + {b}"
    assert tokenization.merge_count(1) == pairs[a, b] == max(pairs.values())
    assert tokenization.tokens_after(0) == sum(len(w) + 1 for w in tokenization.corpus())


@pytest.mark.parametrize("prompt", ["", "<bos> 犬", " ".join(["<bos>"] + ["は"] * 12)])
def test_bad_prompts_are_named(prompt):
    with pytest.raises(ValueError, match="prompt"):
        gen.generate(dp.decoder_preset(), prompt)
