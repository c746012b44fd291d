"""Sentence → token ids over a model's vocabulary (the preset's by default).

Accepts space-separated words ("これ は 美しい 花 です"), unsegmented text ("これは美しい花です",
split by longest match over the vocabulary), a sequence of words, or a sequence of ids.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .model import Model
from .preset import ENCODER


def tokenize(sentence: str | Sequence[str] | Sequence[int] | np.ndarray, model: Model = ENCODER) -> np.ndarray:
    """Token ids (T,) for ``sentence`` in ``model``'s vocabulary; ValueError naming the word, its position and
    the vocabulary, or the length when it is not the model's T."""
    if isinstance(sentence, str):
        text = sentence.strip()  # surrounding whitespace is not a word boundary to segment at
        words = text.split() if any(c.isspace() for c in text) else segment(text, model)
        ids = [_word_id(w, pos, model) for pos, w in enumerate(words)]
    else:
        if isinstance(sentence, np.ndarray) and sentence.ndim != 1:
            raise ValueError(f"token ids must be a 1-D array (T,), got shape {sentence.shape}")
        ids = [_item_id(item, pos, model) for pos, item in enumerate(sentence)]
    if len(ids) != model.T:
        raise ValueError(f"the sentence has {len(ids)} tokens, but the block takes exactly T = {model.T}: {sentence!r}")
    return np.array(ids, dtype=np.int64)


def segment(text: str, model: Model = ENCODER) -> list[str]:
    """Split unsegmented text by greedy longest match over ``model``'s vocabulary."""
    words, pos = [], 0
    longest = max(len(w) for w in model.vocab)
    while pos < len(text):
        for size in range(min(longest, len(text) - pos), 0, -1):
            if text[pos : pos + size] in model.word_id:
                words.append(text[pos : pos + size])
                pos += size
                break
        else:
            raise ValueError(
                f"no vocabulary word starts at character {pos} of {text!r} (at {text[pos:]!r}); "
                f"vocabulary: {_vocab_list(model)}"
            )
    return words


def detokenize(ids: Sequence[int] | np.ndarray, model: Model = ENCODER) -> list[str]:
    return [model.vocab[int(i)] for i in ids]


def _vocab_list(model: Model) -> str:
    return "、".join(f"{i} {w}" for i, w in enumerate(model.vocab))


def _word_id(word: str, position: int, model: Model) -> int:
    if word not in model.word_id:
        raise ValueError(f"unknown word {word!r} at position {position}; vocabulary: {_vocab_list(model)}")
    return model.word_id[word]


def _item_id(item: object, position: int, model: Model) -> int:
    if isinstance(item, str):
        return _word_id(item, position, model)
    if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
        if 0 <= item < model.vocab_size:
            return int(item)
        raise ValueError(
            f"token id {item} at position {position} is outside 0 … {model.vocab_size - 1}; "
            f"vocabulary: {_vocab_list(model)}"
        )
    raise ValueError(f"token at position {position} is {item!r}, neither a word nor an integer id")
