"""The preset block: the values the notes quote, its construction rules, the tokenizer, every ValueError."""

from __future__ import annotations

from dataclasses import fields, replace

import numpy as np
import pytest

from transformer_math import SENTENCES, BlockTrace, build_preset, forward, preset, preset_trace, tokenize
from transformer_math.tokenizer import detokenize, segment

# --- the two values the notes quote (computed by the notes' own JS/numpy implementation) ------------


def test_sentence_1_scores_head0_beautiful_to_flower_rounds_to_3_526():
    s1 = preset_trace(1)
    assert SENTENCES[0].words[2] == "美しい" and SENTENCES[0].words[3] == "花"
    assert round(float(s1.scores[0, 2, 3]), 3) == 3.526


def test_sentence_3_ffn_h_token0_h13_rounds_to_1_00():
    s3 = preset_trace(3)
    assert SENTENCES[2].words[0] == "私"
    assert round(float(s3.ffn_h[0, 13]), 2) == 1.00


# --- the preset follows its rules (spot checks written from the preset's facts, not from preset.py) ----


def test_embedding_rows_follow_category_feature_trace():
    W_E = build_preset().W_E
    expected = {
        3: {0: 3.0, 9: 1.0, 15: 0.3},  # 猫: noun, size, trace 12 + 3
        6: {0: 3.0, 10: 1.0, 11: 1.0, 14: 0.3},  # 小説: noun, book, popularity, trace 12 + 2
        11: {3: 3.0, 15: 0.3},  # 好き: predicate, trace 12 + 3
        12: {4: 3.0, 12: 0.3},  # は
    }
    for row, nonzeros in expected.items():
        assert dict(zip(np.flatnonzero(W_E[row]).tolist(), W_E[row][W_E[row] != 0].tolist(), strict=True)) == nonzeros


def test_query_key_have_exactly_the_three_bonds():
    W = build_preset()
    assert sorted(zip(*np.nonzero(W.W_Q), strict=True)) == [(1, 0), (2, 1), (3, 8)]
    assert sorted(zip(*np.nonzero(W.W_K), strict=True)) == [(0, 0), (0, 1), (0, 8)]
    assert [b.head for b in preset.BONDS] == [0, 0, 1]
    np.testing.assert_array_equal(W.W_V, np.eye(16))
    np.testing.assert_array_equal(W.W_O, np.eye(16))


def test_ffn_detectors():
    W = build_preset()
    assert W.W1[0, 13] == W.W1[9, 13] == 0.6 and W.b1[13] == -0.5 and W.W2[13, 9] == 0.5
    assert W.W1[5, 5] == 1.0 and W.b1[5] == -1.0 and W.W2[5, 5] == 1.0
    assert not W.W1[:, 16:].any() and not W.b1[16:].any() and not W.W2[16:].any()
    assert np.count_nonzero(W.W1) == 12 + 8 and np.count_nonzero(W.W2) == 12 + 4
    assert preset.NEURON_NAMES[13] == "h13 名詞∧大きさ" and preset.NEURON_NAMES[20] == "h20 未使用"


def test_sizes_and_trace_shapes():
    s = preset_trace(5)
    T, d, h, d_k, d_ff = 5, 16, 2, 8, 32
    shapes = {
        "tokens": (T,), "X_tok": (T, d), "X_pos": (T, d), "X": (T, d), "Q": (T, h, d_k), "K": (T, h, d_k),
        "V": (T, h, d_k), "scores": (h, T, T), "attn": (h, T, T), "head_out": (T, h, d_k), "concat": (T, d),
        "Y": (T, d), "residual1": (T, d), "ln1_out": (T, d), "ffn_pre": (T, d_ff), "ffn_h": (T, d_ff),
        "ffn_out": (T, d), "residual2": (T, d), "ln2_out": (T, d),
    }  # fmt: skip
    assert {f.name: getattr(s, f.name).shape for f in fields(BlockTrace)} == shapes
    np.testing.assert_allclose(s.attn.sum(axis=-1), 1.0, atol=1e-12)
    np.testing.assert_allclose(s.X, s.X_tok + s.W_P)
    np.testing.assert_allclose(s.Q_full, s.X @ build_preset().W_Q)
    np.testing.assert_allclose(s.sigma1, s.residual1.std(axis=1))


def test_cached_traces_are_read_only():
    s1 = preset_trace(1)
    with pytest.raises(ValueError, match="read-only"):
        s1.scores[0, 2, 3] = 0.0
    assert preset_trace(1) is s1


def test_sentences_and_relations():
    assert [s.number for s in SENTENCES] == list(range(1, 9))
    assert SENTENCES[3].token_ids.tolist() == [2, 12, 5, 14, 10]
    rel = SENTENCES[2].relations[1]
    assert (rel.query, rel.key, rel.head) == ("好き", "猫", 1)
    assert SENTENCES[2].position("猫") == 2


# --- tokenizer ------------------------------------------------------------------------------------


@pytest.mark.parametrize("sentence", SENTENCES, ids=lambda s: f"s{s.number}")
def test_tokenize_spaced_unsegmented_words_and_ids_agree(sentence):
    ids = sentence.token_ids
    np.testing.assert_array_equal(tokenize(sentence.text), ids)
    np.testing.assert_array_equal(tokenize("".join(sentence.words)), ids)
    np.testing.assert_array_equal(tokenize(f"  {''.join(sentence.words)} \n"), ids)
    np.testing.assert_array_equal(tokenize(list(sentence.words)), ids)
    np.testing.assert_array_equal(tokenize(ids.tolist()), ids)
    np.testing.assert_array_equal(tokenize(ids), ids)
    assert detokenize(ids) == list(sentence.words)


def test_segment_takes_the_longest_match():
    assert segment("大きい本") == ["大きい", "本"]
    assert segment("小説を読む") == ["小説", "を", "読む"]


def test_unknown_word_names_the_word_its_position_and_the_vocabulary():
    with pytest.raises(ValueError) as info:
        tokenize("これ は 美しい 犬 です")
    message = str(info.value)
    assert "'犬'" in message and "position 3" in message
    assert "vocabulary" in message and all(word in message for word in preset.VOCAB)


def test_unsegmentable_text_names_the_position_and_the_vocabulary():
    with pytest.raises(ValueError, match=r"no vocabulary word starts at character 2 .*'犬です'.*vocabulary: 0 これ"):
        tokenize("これ犬です")


def test_wrong_length_says_so():
    with pytest.raises(ValueError, match=r"the sentence has 4 tokens, but the block takes exactly T = 5"):
        tokenize("これ は 花 です")
    with pytest.raises(ValueError, match=r"has 6 tokens, but the block takes exactly T = 5"):
        tokenize("これは美しい花ですです")


def test_bad_ids_are_named():
    with pytest.raises(ValueError, match=r"token id 16 at position 1 is outside 0 … 15; vocabulary"):
        tokenize([0, 16, 8, 4, 15])
    with pytest.raises(ValueError, match=r"token at position 2 is 1.5, neither a word nor an integer id"):
        tokenize([0, 12, 1.5, 4, 15])
    with pytest.raises(ValueError, match=r"must be a 1-D array \(T,\), got shape \(1, 5\)"):
        tokenize(np.array([[0, 12, 8, 4, 15]]))


# --- ValueErrors of the block ---------------------------------------------------------------------


def test_preset_trace_rejects_sentence_numbers_outside_1_to_8():
    with pytest.raises(ValueError, match=r"sentence_number must be 1 … 8, got 0"):
        preset_trace(0)


@pytest.mark.parametrize(
    ("name", "shape", "expected"),
    [
        ("W_K", (16, 15), r"W_K must have shape \(16, 16\) \(d_model=16, h·d_k=16, d_ff=32\), got \(16, 15\)"),
        ("W_O", (8, 16), r"W_O must have shape \(16, 16\) .*, got \(8, 16\)"),
        ("b1", (31,), r"b1 must have shape \(32,\) .*, got \(31,\)"),
        ("ln2_gamma", (16, 1), r"ln2_gamma must have shape \(16,\) .*, got \(16, 1\)"),
        ("W_E", (16,), r"W_E must be 2-D \(vocab, d_model\), got shape \(16,\)"),
    ],
)
def test_wrong_weight_shapes_name_the_argument_and_the_shapes(name, shape, expected):
    with pytest.raises(ValueError, match=expected):
        replace(build_preset(), **{name: np.zeros(shape)})


def test_n_heads_must_divide_the_width():
    with pytest.raises(ValueError, match=r"n_heads = 3 must be a positive integer dividing W_Q's width 16"):
        replace(build_preset(), n_heads=3)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_weights_name_the_argument_index_and_value(bad):
    W1 = build_preset().W1.copy()
    W1[2, 7] = bad
    with pytest.raises(ValueError, match=rf"W1\[2, 7\] = {bad} is not finite \(shape \(16, 32\)\)"):
        replace(build_preset(), W1=W1)


def test_eps_must_be_positive():
    with pytest.raises(ValueError, match=r"eps must be a positive finite number, got 0.0"):
        replace(build_preset(), eps=0.0)


def test_forward_rejects_bad_tokens():
    W = build_preset()
    with pytest.raises(ValueError, match=r"tokens\[2\] = 16 is outside the vocabulary 0 … 15"):
        forward(W, np.array([0, 12, 16, 4, 15]))
    with pytest.raises(ValueError, match=r"tokens must be integer ids, got dtype float64"):
        forward(W, np.array([0.0, 12.0]))
    with pytest.raises(ValueError, match=r"non-empty 1-D sequence of ids \(T,\), got shape \(0,\)"):
        forward(W, np.array([], dtype=int))


def test_positional_encoding_rejects_odd_d_model_and_bad_T():
    from transformer_math import ops

    with pytest.raises(ValueError, match=r"d_model must be a positive even integer, got 15"):
        ops.positional_encoding(5, 15)
    with pytest.raises(ValueError, match=r"T must be a positive integer, got 0"):
        ops.positional_encoding(0, 16)
    with pytest.raises(ValueError, match=r"split_heads: width 16 is not divisible by h = 3"):
        ops.split_heads(np.zeros((5, 16)), 3)


def test_forward_works_for_other_lengths_and_sizes():
    """The block is general: the preset weights run on T = 3 and T = 9 too."""
    W = build_preset()
    assert forward(W, np.array([3, 13, 11])).ln2_out.shape == (3, 16)
    assert forward(W, np.arange(9)).attn.shape == (2, 9, 9)


def test_the_cached_weights_are_the_built_preset_and_read_only():
    from transformer_math import build_preset, preset_trace, preset_weights

    cached, fresh = preset_weights(), build_preset()
    assert cached is preset_weights()  # one copy for every reader
    for name in ("W_E", "W_Q", "W1", "b1", "ln2_gamma"):
        assert np.array_equal(getattr(cached, name), getattr(fresh, name))
        with pytest.raises(ValueError, match="read-only"):
            getattr(cached, name)[0] = 1.0
    fresh.W_Q[0, 0] = 7.0  # build_preset still hands out a writable copy of its own
    assert preset_weights().W_Q[0, 0] == 0.0 and preset_trace(1) is preset_trace(1)
