"""A model as a value: what it computes with, on what, at which sizes, and the cached trace of each sentence.

Every function of the math layer that computes on a model takes it as an argument, the encoder preset
(``preset.ENCODER``, "japanese-mini") by default; no module reads a size or a weight of a preset from a global.
A model kind is a frozen dataclass derived from :class:`Model`, which holds what every kind shares — a name,
the vocabulary, the sequence length T, the example sentences — and caches one forward pass per sentence
(``model.trace(n)``). :class:`Encoder` is the notes' kind: one bidirectional Post-LN block, its sizes read
off its weights. Another kind (a decoder of stacked causal blocks) adds its own weights and ``forward``.

>>> from transformer_math.preset import ENCODER
>>> ENCODER.T, ENCODER.d_model, ENCODER.h, ENCODER.d_k, ENCODER.d_ff, ENCODER.vocab_size
(5, 16, 2, 8, 32, 16)
>>> round(float(ENCODER.trace(1).scores[0, 2, 3]), 3)
3.526
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

import numpy as np

from .block import BlockTrace, BlockWeights, forward

FIRING_THRESHOLD = 0.5
"""ffn_h above this counts as "the detector fires" (GELU(x) = 0.5 at x ≈ 0.668)."""


@dataclass(frozen=True)
class Relation:
    """A query→key relation a sentence was built to show, in one head."""

    query: str
    key: str
    head: int


@dataclass(frozen=True)
class Sentence:
    """One example sentence of a model: its words, their ids, and the relations it was built to show."""

    number: int  # 1 … n, as the notes number them
    words: tuple[str, ...]
    ids: tuple[int, ...]  # each word's id in the model's vocabulary
    relations: tuple[Relation, ...] = ()

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def token_ids(self) -> np.ndarray:
        return np.array(self.ids)

    def position(self, word: str) -> int:
        return self.words.index(word)


@dataclass(frozen=True)
class Bond:
    """One hand-set query→key channel: W_Q[query_dim, column] = W_K[key_dim, column] = 1."""

    name: str
    query_dim: int
    key_dim: int
    column: int  # global column g = head·d_k + k
    head: int  # the head whose columns hold g (checked against d_k by the model)


@dataclass(frozen=True)
class Knob:
    """One number of a model that the explorer lets a reader change, and every weight entry it sets.

    ``entries`` are (BlockWeights field, index) pairs; the index is () for a scalar field (eps). Setting the
    knob to v sets every listed entry to v, so the model is itself with every knob at its ``default``.
    """

    name: str
    default: float
    entries: tuple[tuple[str, tuple[int, ...]], ...]


def sentences_over(vocab: tuple[str, ...], *texts: str) -> tuple[Sentence, ...]:
    """Sentences 1, 2, … from space-separated words of ``vocab`` (no intended relations)."""
    word_id = {w: i for i, w in enumerate(vocab)}
    out = []
    for number, text in enumerate(texts, start=1):
        words = tuple(text.split())
        unknown = [w for w in words if w not in word_id]
        if unknown:
            raise ValueError(f"sentence {number} ({text!r}): {unknown[0]!r} is not in the vocabulary")
        out.append(Sentence(number, words, tuple(word_id[w] for w in words)))
    return tuple(out)


# ---------------------------------------------------------------- what every model kind shares


@dataclass(frozen=True, eq=False, kw_only=True)
class Model:
    """Name, vocabulary, sequence length T and example sentences; one cached trace per sentence.

    T is the longest sequence the model takes (an :class:`Encoder` takes exactly T). Compared and hashed by
    identity (``eq=False``): a model is one value, and its caches belong to it.
    """

    name: str
    vocab: tuple[str, ...]
    T: int
    sentences: tuple[Sentence, ...]
    _traces: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.vocab or len(set(self.vocab)) != len(self.vocab):
            raise ValueError(f"{self.name}: vocab must be non-empty words, each once, got {self.vocab!r}")
        if isinstance(self.T, bool) or not isinstance(self.T, (int, np.integer)) or self.T < 1:
            raise ValueError(f"{self.name}: T must be a positive integer, got {self.T!r}")
        for n, s in enumerate(self.sentences, start=1):
            self._check_sentence(n, s)

    def _check_sentence(self, number: int, s: Sentence) -> None:
        where = f"{self.name}: sentence {number}"
        if s.number != number:
            raise ValueError(f"{where} is numbered {s.number}: the sentences are numbered 1 … in order")
        if len(s.words) != len(s.ids) or not 1 <= len(s.words) <= self.T:
            raise ValueError(
                f"{where} has {len(s.words)} words and {len(s.ids)} ids, the model takes up to T = {self.T}"
            )
        for t, (word, i) in enumerate(zip(s.words, s.ids, strict=True)):
            if self.word_id.get(word) != i:
                raise ValueError(f"{where}: word {t} {word!r} has id {i}, the vocabulary says {self.word_id.get(word)}")

    @cached_property
    def word_id(self) -> dict[str, int]:
        """word → id in the vocabulary."""
        return {w: i for i, w in enumerate(self.vocab)}

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def sentence(self, sentence_number: int) -> Sentence:
        """Example sentence 1 … n; anything else is a ValueError naming the range."""
        n = len(self.sentences)
        is_int = isinstance(sentence_number, (int, np.integer)) and not isinstance(sentence_number, bool)
        if not is_int or sentence_number not in range(1, n + 1):
            raise ValueError(f"sentence_number must be 1 … {n}, got {sentence_number!r}")
        return self.sentences[sentence_number - 1]

    def trace(self, sentence_number: int) -> Any:
        """The forward pass on example sentence ``sentence_number`` (a ``BlockTrace`` for an encoder), computed
        once per model and sentence.

        Its arrays are read-only: every page reads the same copy, so none may change what another sees.
        """
        number = self.sentence(sentence_number).number
        if number not in self._traces:
            self._traces[number] = self.forward(self.sentences[number - 1].token_ids)
        return self._traces[number]

    def forward(self, tokens: np.ndarray) -> Any:
        """The model's forward pass on token ids, with every intermediate (each kind defines it and its trace)."""
        raise NotImplementedError(f"{type(self).__name__} does not define forward")


# ---------------------------------------------------------------- the encoder: one bidirectional block


@dataclass(frozen=True, eq=False, kw_only=True)
class Encoder(Model):
    """One bidirectional Post-LN block (the notes' model) on sentences of exactly T words. Its sizes are read
    off its weights.

    ``bonds``, ``categories`` (the category dimension of each vocabulary word) and ``knobs`` describe a
    hand-wired model (what the explorer reads and lets a reader change); a model without them has none.
    The weights are copied and made read-only: every reader sees the same numbers.
    """

    weights: BlockWeights
    bonds: tuple[Bond, ...] = ()
    categories: tuple[int, ...] = ()
    knobs: tuple[Knob, ...] = ()
    firing_threshold: float = FIRING_THRESHOLD

    def __post_init__(self) -> None:
        if not isinstance(self.weights, BlockWeights):
            raise ValueError(f"{self.name}: weights must be BlockWeights, got {type(self.weights).__name__}")
        object.__setattr__(self, "weights", _read_only_copy(self.weights))
        if self.weights.vocab_size != self.vocab_size:
            raise ValueError(
                f"{self.name}: W_E has {self.weights.vocab_size} rows but the vocabulary {self.vocab_size} words"
            )
        super().__post_init__()
        for s in self.sentences:
            if len(s.words) != self.T:
                raise ValueError(
                    f"{self.name}: sentence {s.number} has {len(s.words)} words, the block takes T = {self.T}"
                )
        for bond in self.bonds:
            self._check_bond(bond)
        if self.categories and (
            len(self.categories) != self.vocab_size or not all(0 <= c < self.d_model for c in self.categories)
        ):
            raise ValueError(
                f"{self.name}: categories must give one dimension 0 … {self.d_model - 1} per word of the "
                f"{self.vocab_size}-word vocabulary, got {self.categories!r}"
            )
        for knob in self.knobs:
            self._check_knob(knob)

    def _check_bond(self, bond: Bond) -> None:
        width = self.h * self.d_k
        if not (0 <= bond.query_dim < self.d_model and 0 <= bond.key_dim < self.d_model and 0 <= bond.column < width):
            raise ValueError(f"{self.name}: bond {bond.name!r} lies outside W_Q/W_K ({self.d_model} × {width})")
        if bond.column // self.d_k != bond.head:
            raise ValueError(
                f"{self.name}: bond {bond.name!r} says head {bond.head}, but column {bond.column} lies in head "
                f"{bond.column // self.d_k} (d_k = {self.d_k})"
            )

    def _check_knob(self, knob: Knob) -> None:
        for name, index in knob.entries:
            if name == "eps" and index == ():
                continue
            array = getattr(self.weights, name, None)
            if (
                not isinstance(array, np.ndarray)
                or len(index) != array.ndim
                or not all(0 <= i < n for i, n in zip(index, array.shape, strict=True))
            ):
                raise ValueError(f"{self.name}: knob {knob.name!r} names {name}{list(index)}, which the weights lack")

    # sizes, read off the weights (the notes' symbols)
    @property
    def d_model(self) -> int:
        return self.weights.d_model

    @property
    def h(self) -> int:
        """The number of heads."""
        return int(self.weights.n_heads)

    @property
    def d_k(self) -> int:
        return self.weights.d_k

    @property
    def d_ff(self) -> int:
        return self.weights.d_ff

    @property
    def eps(self) -> float:
        return float(self.weights.eps)

    @property
    def knob_names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.knobs)

    def forward(self, tokens: np.ndarray, **switches: bool) -> BlockTrace:
        """``block.forward`` with this model's weights; ``switches`` are its scale, causal and positions."""
        return forward(self.weights, tokens, **switches)

    def weights_with(self, **values: float) -> BlockWeights:
        """The weights (a fresh, writable copy) with some knobs set; ``weights_with()`` is the model's own.

        An unknown knob or a value that is not a finite real number is a ValueError naming it.
        """
        unknown = sorted(set(values) - set(self.knob_names))
        if unknown:
            raise ValueError(f"unknown knob(s) {unknown}; the knobs are {list(self.knob_names)}")
        arrays = {f.name: getattr(self.weights, f.name).copy() for f in _array_fields()}
        eps = self.weights.eps
        for knob in self.knobs:
            if knob.name not in values:
                continue
            value = values[knob.name]
            is_real = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
            if not is_real or not np.isfinite(value):
                raise ValueError(f"knob {knob.name} must be a finite real number, got {value!r}")
            for field_name, index in knob.entries:
                if field_name == "eps":
                    eps = float(value)
                else:
                    arrays[field_name][index] = float(value)
        return replace(self.weights, **arrays, eps=eps)


def _array_fields():
    return tuple(f for f in fields(BlockWeights) if f.name not in ("n_heads", "eps"))


def _read_only_copy(weights: BlockWeights) -> BlockWeights:
    copy = replace(weights, **{f.name: np.array(getattr(weights, f.name), dtype=np.float64) for f in _array_fields()})
    for f in _array_fields():
        getattr(copy, f.name).setflags(write=False)
    return copy
