"""docs/decoder/07-tokenization.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

from transformer_math import bpe

from .. import which
from .tokenization import BERT, corpus, embedding_params, run, wordpiece_run

MERGES = 10


def desu_pairs() -> int:
    counts = bpe.word_counts(corpus())
    return bpe.pair_counts({w: bpe.characters(w) for w in counts}, counts)[("で", "す")]


def bert_embedding() -> int:
    return embedding_params(BERT.vocab_size, BERT.hidden_size)


def _criterion(first: bpe.MergeStep) -> str:
    """Which score the first merge of a run maximises over the starting pairs: the count or the likelihood gain
    (the two pick different pairs on this corpus, so the answer is unambiguous)."""
    counts = bpe.word_counts(corpus())
    start = {w: bpe.characters(w) for w in counts}
    pairs = bpe.pair_counts(start, counts)
    by_count = max(pairs, key=lambda p: pairs[p])
    by_gain = max(pairs, key=lambda p: bpe.likelihood_gain(start, counts, p))
    if by_count == by_gain:
        raise ValueError("the count and the likelihood pick the same first pair: the question cannot tell them apart")
    return "count" if first.pair == by_count else "likelihood"


def wordpiece_criterion() -> str:
    claims = {"likelihood": ("count", "likelihood"), "same": ("count", "count"), "reverse": ("likelihood", "count")}
    return which(claims, (_criterion(run().steps[0]), _criterion(wordpiece_run().steps[0])))




# ----------------------------------------------------------------------------------- asked on the exam page

FIGURE_1 = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
"""The corpus of Sennrich et al.'s code (Algorithm 1): words and their counts."""


def figure_1_run() -> bpe.BPERun:
    return bpe.learn([w for w, c in FIGURE_1.items() for _ in range(c)], 3)


def figure_1_first_count() -> int:
    return figure_1_run().steps[0].count


def figure_1_first_pair() -> str:
    a, b = figure_1_run().steps[0].pair
    return f"{a} + {b}"


LABELS = {
    "MERGES": "問題の併合の回数",
    "desu_pairs()": "1 文字ずつに分けたコーパスでの組「で + す」の回数",
    "bert_embedding()": "BERT-base の語の埋め込みの重みの数",
    "FIGURE_1": "BPE の原論文のコードの例のコーパス",
    "figure_1_first_count()": "その例で最初にまとめる組の回数",
    "figure_1_first_pair()": "その例で最初にまとめる組",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
