"""docs/backprop/01-loss.md: the masked-word loss on the preset, and why this loss.

The page's example is sentence 1 with 花 (position 3) hidden, the same example as the next pages.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from transformer_math import backward as bw
from transformer_math import forward, preset, preset_trace, preset_weights, rounding
from transformer_math.preset import SENTENCES, VOCAB, WORD_ID, T

SENTENCE = 1
"""The example sentence of the backward pages: これ は 美しい 花 です."""
POSITION = 3
"""The hidden position of the example: 花."""
UNIFORM_LOSS = math.log(preset.VOCAB_SIZE)
"""−log(1/16): the loss of a model that spreads its guess evenly over the 16 words."""
SEPARATE_OUTPUT_WEIGHTS = preset.VOCAB_SIZE * preset.D_MODEL + preset.VOCAB_SIZE
"""Weights an untied output layer (a 16 × 16 matrix and a bias of 16) would add; tying to W_E adds none."""


def example() -> bw.MaskedWordLoss:
    """The masked-word loss of the preset on the page's example (cached with its gradients)."""
    return bw.preset_gradients(SENTENCE, POSITION).loss


def prob(word: str) -> float:
    """softmax(z) of the example at ``word``: how much the preset bets on it for the hidden 花."""
    return float(example().probs[WORD_ID[word]])


def predicted_word() -> str:
    """The word the preset bets on most for the hidden 花."""
    return VOCAB[int(np.argmax(example().probs))]


@cache
def losses() -> np.ndarray:
    """(8, T): the preset's masked-word loss for each sentence and each hidden position (read-only)."""
    table = np.array([[bw.preset_gradients(s.number, p).loss.loss for p in range(T)] for s in SENTENCES])
    table.setflags(write=False)
    return table


def n_named() -> int:
    """Of the 8 × T examples, how many the preset names (its largest probability on the hidden word)."""
    return sum(
        int(np.argmax(bw.preset_gradients(s.number, p).loss.probs)) == int(s.token_ids[p])
        for s in SENTENCES
        for p in range(T)
    )


def n_above_uniform() -> int:
    """Of the 8 × T examples, how many have a loss above the even guess's log 16."""
    return int(np.sum(losses() > UNIFORM_LOSS))


def next_word_weight_min() -> float:
    """The smallest attn[h, t, t + 1] over the eight sentences, both heads and t = 0 … T − 2.

    With no causal mask every position reads the next word: a next-word loss would find its answer in the input.
    """
    return min(float(preset_trace(s.number).attn[:, t, t + 1].min()) for s in SENTENCES for t in range(T - 1))


def causal_weight(query: int = 0, key: int = 3) -> float:
    """attn[0, query, key] of sentence 1 under a causal mask (これ → 花 by default: 0, the key lies ahead)."""
    return float(forward(preset_weights(), preset.sentence(SENTENCE).token_ids, causal=True).attn[0, query, key])


def d_logits_sum_within(bound: int) -> int:
    """|Σ_v ∂L/∂z_v| of the example in machine epsilons, quoted as the bound it stays under (it is 0 in exact math)."""
    return rounding.eps_multiple_within(abs(float(bw.preset_gradients(SENTENCE, POSITION).d_logits.sum())), bound)


def d_logit(word: str) -> float:
    """∂L/∂z at ``word`` for the example: softmax(z) − 1 for the hidden word, softmax(z) for every other."""
    return float(bw.preset_gradients(SENTENCE, POSITION).d_logits[WORD_ID[word]])


def n_positive_d_logits() -> int:
    """How many of the 16 entries of ∂L/∂z are positive (every word but the hidden one)."""
    return int(np.sum(bw.preset_gradients(SENTENCE, POSITION).d_logits > 0))


LABELS = {
    "UNIFORM_LOSS": "16 語に均等に賭けたときの損失 log 16",
    "SEPARATE_OUTPUT_WEIGHTS": "別の出力層を置くと増える重みの数",
    "example()": "文1 で花を隠した例の損失",
    "example().loss": "文1 で花を隠した例の損失 L",
    "prob()": "花を隠した例で「{0}」に賭ける確率",
    "losses()": "40 例それぞれの損失",
    "n_named()": "プリセットが正解の語を当てる例の数",
    "n_above_uniform()": "損失が log 16 より大きい例の数",
    "next_word_weight_min()": "次の語への重み attn[t, t+1] の最小",
    "causal_weight()": "因果マスクをかけた文1・ヘッド0 の重み (既定は これ→花)",
    "d_logits_sum_within()": "∂L/∂z の成分の和を機械イプシロンの倍数で表した上限 (上限 {0} 倍)",
    "d_logit()": "花を隠した例の ∂L/∂z の「{0}」の成分",
    "n_positive_d_logits()": "∂L/∂z の正の成分の数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
