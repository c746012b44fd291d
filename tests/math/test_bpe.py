"""BPE against the reference code printed in Sennrich et al. 2016 (Figure 1), and WordPiece's criterion."""

from __future__ import annotations

import collections
import math
import re

import pytest

from transformer_math import bpe, preset


def sennrich_merges(vocab: dict[str, int], num_merges: int) -> list[tuple[str, str]]:
    """The paper's Figure 1, verbatim but for returning the merges instead of printing them."""

    def get_stats(vocab):
        pairs = collections.defaultdict(int)
        for word, freq in vocab.items():
            symbols = word.split()
            for i in range(len(symbols) - 1):
                pairs[symbols[i], symbols[i + 1]] += freq
        return pairs

    def merge_vocab(pair, v_in):
        v_out = {}
        bigram = re.escape(" ".join(pair))
        p = re.compile(r"(?<!\S)" + bigram + r"(?!\S)")
        for word in v_in:
            w_out = p.sub("".join(pair), word)
            v_out[w_out] = v_in[word]
        return v_out

    merges = []
    for _ in range(num_merges):
        pairs = get_stats(vocab)
        if not pairs:
            break
        best = max(pairs, key=pairs.get)
        vocab = merge_vocab(best, vocab)
        merges.append(best)
    return merges


def as_vocab(words: list[str]) -> dict[str, int]:
    return {" ".join(bpe.characters(w)): c for w, c in bpe.word_counts(words).items()}


FIGURE_1 = ["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3
SENTENCE_WORDS = [w for s in preset.SENTENCES for w in s.words]


@pytest.mark.parametrize("words", [FIGURE_1, SENTENCE_WORDS], ids=["figure 1", "the eight sentences"])
def test_the_merges_are_those_of_the_papers_code(words):
    run = bpe.learn(words, 40)
    assert list(run.merges) == sennrich_merges(as_vocab(words), 40)


def test_the_figure_1_corpus_starts_with_the_pairs_seen_most():
    run = bpe.learn(FIGURE_1, 4)
    assert run.merges[:3] == (("e", "s"), ("es", "t"), ("est", "</w>"))
    assert [s.count for s in run.steps[:3]] == [9, 9, 9]


def test_every_merge_shortens_the_corpus_by_its_count_and_adds_one_symbol():
    run = bpe.learn(SENTENCE_WORDS, 20)
    before = run.initial_tokens
    for step in run.steps:
        assert step.n_tokens == before - step.count
        before = step.n_tokens
    assert run.vocabulary_size(0) == len(run.alphabet) and run.vocabulary_size() == len(run.alphabet) + 20


def test_replaying_the_merges_gives_the_learned_segmentation():
    run = bpe.learn(SENTENCE_WORDS, 25)
    for word, symbols in run.steps[-1].segmentation.items():
        assert run.segment(word) == symbols
        assert "".join(symbols) == word + bpe.END_OF_WORD


def test_the_run_ends_when_every_word_is_one_symbol():
    run = bpe.learn(SENTENCE_WORDS, 500)
    assert all(len(s) == 1 for s in run.steps[-1].segmentation.values())
    assert len(run.steps) < 500


def test_the_likelihood_gain_is_the_change_of_the_unigram_log_likelihood():
    counts = bpe.word_counts(SENTENCE_WORDS)
    seg = {w: bpe.characters(w) for w in counts}
    symbols = collections.Counter()
    for w, s in seg.items():
        for x in s:
            symbols[x] += counts[w]
    total = sum(symbols.values())
    direct = sum(n * math.log(n / total) for n in symbols.values())
    assert math.isclose(bpe.unigram_log_likelihood(seg, counts), direct, rel_tol=1e-14)
    # で and す occur only together: merging them loses nothing of the model and removes 5 symbols
    assert bpe.likelihood_gain(seg, counts, ("で", "す")) > bpe.likelihood_gain(seg, counts, ("は", bpe.END_OF_WORD))


def test_wordpiece_s_criterion_picks_another_first_pair_than_bpe():
    frequency = bpe.learn(SENTENCE_WORDS, 1)
    likelihood = bpe.learn(SENTENCE_WORDS, 1, criterion="likelihood")
    assert frequency.merges[0] != likelihood.merges[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([], 3), "at least one word"),
        ((["a b"], 3), "without spaces"),
        ((["ab"], -1), "n_merges must be an integer ≥ 0"),
        ((["ab"], 2, "count"), "criterion must be"),
    ],
)
def test_bad_input_is_an_error_naming_it(args, message):
    with pytest.raises(ValueError, match=message):
        bpe.learn(*args)
