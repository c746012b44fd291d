"""Sentence → token ids over the preset vocabulary.

Accepts space-separated words ("これ は 美しい 花 です"), unsegmented text ("これは美しい花です",
split by longest match over the vocabulary), a sequence of words, or a sequence of ids.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .preset import VOCAB, WORD_ID, T

_VOCAB_LIST = "、".join(f"{i} {w}" for i, w in enumerate(VOCAB))


def tokenize(sentence: str | Sequence[str] | Sequence[int] | np.ndarray, length: int = T) -> np.ndarray:
    """Token ids (length,) for ``sentence``; ValueError naming the word, its position and the vocabulary."""
    if isinstance(sentence, str):
        text = sentence.strip()  # surrounding whitespace is not a word boundary to segment at
        words = text.split() if any(c.isspace() for c in text) else segment(text)
        ids = [_word_id(w, pos) for pos, w in enumerate(words)]
    else:
        if isinstance(sentence, np.ndarray) and sentence.ndim != 1:
            raise ValueError(f"token ids must be a 1-D array (T,), got shape {sentence.shape}")
        ids = [_item_id(item, pos) for pos, item in enumerate(sentence)]
    if len(ids) != length:
        raise ValueError(f"the sentence has {len(ids)} tokens, but the block takes exactly T = {length}: {sentence!r}")
    return np.array(ids, dtype=np.int64)


def segment(text: str) -> list[str]:
    """Split unsegmented text by greedy longest match over the vocabulary."""
    words, pos = [], 0
    longest = max(len(w) for w in VOCAB)
    while pos < len(text):
        for size in range(min(longest, len(text) - pos), 0, -1):
            if text[pos : pos + size] in WORD_ID:
                words.append(text[pos : pos + size])
                pos += size
                break
        else:
            raise ValueError(
                f"no vocabulary word starts at character {pos} of {text!r} (at {text[pos:]!r}); "
                f"vocabulary: {_VOCAB_LIST}"
            )
    return words


def detokenize(ids: Sequence[int] | np.ndarray) -> list[str]:
    return [VOCAB[int(i)] for i in ids]


def _word_id(word: str, position: int) -> int:
    if word not in WORD_ID:
        raise ValueError(f"unknown word {word!r} at position {position}; vocabulary: {_VOCAB_LIST}")
    return WORD_ID[word]


def _item_id(item: object, position: int) -> int:
    if isinstance(item, str):
        return _word_id(item, position)
    if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
        if 0 <= item < len(VOCAB):
            return int(item)
        raise ValueError(
            f"token id {item} at position {position} is outside 0 … {len(VOCAB) - 1}; vocabulary: {_VOCAB_LIST}"
        )
    raise ValueError(f"token at position {position} is {item!r}, neither a word nor an integer id")
