"""docs/decoder/02-next-word.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

import math

import numpy as np

from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import preset

from .. import which
from .next_word import SENTENCE, first_word_share, model, target_prob


def first_position_loss() -> float:
    """−log p_0(これ) of sentence 1."""
    return -math.log(target_prob(0))


def sentences_beginning_with_watashi() -> int:
    return sum(s.words[0] == "私" for s in preset.SENTENCES)


def best_first_word_probability() -> float:
    """The probability of 私 after <bos> that minimises the loss over the 8 sentences: its share."""
    return first_word_share("私")


def why_one_pass() -> str:
    """One pass equals the steps because row t ignores what follows it: with the mask removed (every row reading
    every position) the one-pass losses of sentence 1 change; keeping the mask they match the prefixes'."""
    ids = dp.sentence_ids(SENTENCE)
    one_pass = dec.sequence_loss(model(), ids).step_losses
    steps = dec.step_by_step_losses(model(), ids)
    rows_ignore_the_future = bool(np.allclose(one_pass, steps, rtol=0, atol=1e-12))
    return which({"mask": True, "tied": False, "own": False}, rows_ignore_the_future)


LABELS = {
    "first_position_loss()": "文1 の位置 0 の損失 −log p(これ)",
    "sentences_beginning_with_watashi()": "8 文のうち「私」で始まる文の数",
    "best_first_word_probability()": "損失を最小にする、<bos> の次が「私」の確率",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
