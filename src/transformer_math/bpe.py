"""Byte-pair encoding (Sennrich et al. 2016) learned step by step, and WordPiece's criterion beside it.

BPE starts from characters: each word of the corpus is split into its characters, with an end-of-word symbol
after the last, and counted as often as it occurs. Each step counts every pair of adjacent symbols (weighted
by the word counts), merges the most frequent pair everywhere into one new symbol, and records the merge.
The symbol vocabulary is the characters plus one symbol per merge. A new word is segmented by replaying the
merges in the order they were learned, so a word never seen whole still gets known pieces.

Ties (equal counts) go to the pair seen first when the corpus is read in order, so a run is reproducible.

WordPiece (Schuster & Nakajima 2012) also builds its units by merging, but picks the unit that most increases
the likelihood of the training data under a language model. ``likelihood_gain`` computes that increase for a
unigram model (each symbol drawn independently with its relative frequency), the simplest language model:
log L = Σ_s c(s)·log(c(s)/N), over the symbol counts c and their total N.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

END_OF_WORD = "</w>"

Pair = tuple[str, str]
Segmentation = dict[str, tuple[str, ...]]


def word_counts(words: Iterable[str]) -> dict[str, int]:
    """How often each word occurs, in the order of first occurrence."""
    counts: dict[str, int] = {}
    for word in words:
        if not isinstance(word, str) or not word or any(c.isspace() for c in word):
            raise ValueError(f"every word must be a non-empty string without spaces, got {word!r}")
        counts[word] = counts.get(word, 0) + 1
    return counts


def characters(word: str) -> tuple[str, ...]:
    """The starting segmentation: the characters, then the end-of-word symbol."""
    return (*word, END_OF_WORD)


def pair_counts(segmentation: Segmentation, counts: dict[str, int]) -> dict[Pair, int]:
    """Occurrences of every pair of adjacent symbols, weighted by the word counts, in order of first occurrence."""
    pairs: dict[Pair, int] = {}
    for word, symbols in segmentation.items():
        for pair in itertools.pairwise(symbols):
            pairs[pair] = pairs.get(pair, 0) + counts[word]
    return pairs


def merge_symbols(symbols: tuple[str, ...], pair: Pair) -> tuple[str, ...]:
    """Replace every occurrence of ``pair`` in ``symbols`` (left to right, not overlapping) by one symbol."""
    out: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def symbol_counts(segmentation: Segmentation, counts: dict[str, int]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for word, symbols in segmentation.items():
        for s in symbols:
            totals[s] = totals.get(s, 0) + counts[word]
    return totals


def unigram_log_likelihood(segmentation: Segmentation, counts: dict[str, int]) -> float:
    """log L = Σ_s c(s)·log(c(s)/N) of the segmented corpus under a unigram model of its own symbol counts."""
    c = symbol_counts(segmentation, counts)
    total = sum(c.values())
    return sum(n * math.log(n / total) for n in c.values())


def likelihood_gain(segmentation: Segmentation, counts: dict[str, int], pair: Pair) -> float:
    """How much merging ``pair`` raises the unigram log-likelihood of the corpus (WordPiece's criterion)."""
    merged = {w: merge_symbols(s, pair) for w, s in segmentation.items()}
    return unigram_log_likelihood(merged, counts) - unigram_log_likelihood(segmentation, counts)


@dataclass(frozen=True)
class MergeStep:
    """One merge: the pair, how often it occurred, and the corpus after it."""

    number: int  # 1, 2, …
    pair: Pair
    count: int  # occurrences of the pair when it was chosen
    gain: float  # the unigram log-likelihood gain of the same merge (WordPiece's score)
    segmentation: Segmentation  # every word's symbols after the merge
    n_tokens: int  # symbols in the whole corpus after the merge (word counts included)

    @property
    def symbol(self) -> str:
        return self.pair[0] + self.pair[1]


@dataclass(frozen=True)
class BPERun:
    counts: dict[str, int]
    initial: Segmentation
    alphabet: tuple[str, ...]  # the starting symbols: every character, then the end-of-word symbol
    steps: tuple[MergeStep, ...]
    criterion: str  # "frequency" (BPE) or "likelihood" (WordPiece's choice)

    @property
    def merges(self) -> tuple[Pair, ...]:
        return tuple(s.pair for s in self.steps)

    @property
    def initial_tokens(self) -> int:
        return sum(len(s) * self.counts[w] for w, s in self.initial.items())

    def vocabulary_size(self, n_merges: int | None = None) -> int:
        """The starting symbols plus one per merge (after ``n_merges`` merges; all of them by default)."""
        n = len(self.steps) if n_merges is None else n_merges
        return len(self.alphabet) + n

    def segment(self, word: str, n_merges: int | None = None) -> tuple[str, ...]:
        """A word's symbols after replaying the first ``n_merges`` merges in order (all by default)."""
        symbols = characters(word)
        for pair in self.merges[: len(self.steps) if n_merges is None else n_merges]:
            symbols = merge_symbols(symbols, pair)
        return symbols


def learn(words: Sequence[str], n_merges: int, criterion: str = "frequency") -> BPERun:
    """``n_merges`` merges on the corpus ``words`` (stopping early when no pair is left).

    ``criterion="frequency"`` is BPE: the most frequent pair. ``"likelihood"`` takes the pair with the largest
    unigram log-likelihood gain instead (WordPiece's criterion with the simplest language model).
    """
    if criterion not in ("frequency", "likelihood"):
        raise ValueError(f"criterion must be 'frequency' or 'likelihood', got {criterion!r}")
    if isinstance(n_merges, bool) or not isinstance(n_merges, int) or n_merges < 0:
        raise ValueError(f"n_merges must be an integer ≥ 0, got {n_merges!r}")
    counts = word_counts(words)
    if not counts:
        raise ValueError("the corpus must hold at least one word")
    initial = {w: characters(w) for w in counts}
    alphabet = (*dict.fromkeys(c for symbols in initial.values() for c in symbols[:-1]), END_OF_WORD)
    segmentation = dict(initial)
    steps = []
    for number in range(1, n_merges + 1):
        pairs = pair_counts(segmentation, counts)
        if not pairs:
            break
        gains = {p: likelihood_gain(segmentation, counts, p) for p in pairs}
        score = pairs if criterion == "frequency" else gains
        best = max(pairs, key=lambda p: score[p])  # max keeps the first of equal scores: corpus order
        segmentation = {w: merge_symbols(s, best) for w, s in segmentation.items()}
        steps.append(MergeStep(
            number=number, pair=best, count=pairs[best], gain=gains[best], segmentation=dict(segmentation),
            n_tokens=sum(len(s) * counts[w] for w, s in segmentation.items()),
        ))  # fmt: skip
    return BPERun(counts=counts, initial=initial, alphabet=alphabet, steps=tuple(steps), criterion=criterion)
