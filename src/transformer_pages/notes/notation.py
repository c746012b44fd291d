"""docs/notes/00-notation.md: the sizes of the example sentences, read from the preset."""

from __future__ import annotations

from transformer_math.preset import SENTENCES


def sentence_lengths() -> tuple[int, ...]:
    """The number of tokens of each example sentence."""
    return tuple(len(s.words) for s in SENTENCES)


def relations_per_sentence() -> tuple[int, ...]:
    """How many intended relations (query → key) each example sentence carries."""
    return tuple(len(s.relations) for s in SENTENCES)


LABELS = {
    "sentence_lengths()": "各例文のトークン数",
    "relations_per_sentence()": "各例文の意図した関係の数",
}
