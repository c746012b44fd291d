"""docs/decoder/02-next-word.md: the tied output's next-word probabilities, the loss with teacher forcing, and how
the preset's weights were trained."""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from transformer_math import adam, preset, rounding
from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import generation as gen

SENTENCE = 1

SEED = dp.SEED
STEPS = dp.STEPS
WARMUP = dp.WARMUP
EMBEDDING_STD = dp.EMBEDDING_STD
ADAM_BETA1, ADAM_BETA2, ADAM_EPS = adam.BETA1, adam.BETA2, adam.EPS
N_SENTENCES = len(preset.SENTENCES)
PROMPT_WORDS = dp.PROMPT_WORDS
N_TARGETS = len(preset.SENTENCES) * (len(dp.sentence_ids(1)) - 1)
"""Positions scored in training: 8 sentences × 6 next words."""


def model() -> dec.Decoder:
    return dp.decoder_preset()


def prob(t: int, word: str, sentence: int = SENTENCE) -> float:
    """probs[t, word] of the sentence: the probability that ``word`` follows its first t + 1 tokens."""
    return float(dp.decoder_trace(sentence).probs[t, model().id_of(word)])


def target_prob(t: int, sentence: int = SENTENCE) -> float:
    """The probability row t gives the word that really comes next."""
    ids = dp.sentence_ids(sentence)
    return float(dp.decoder_trace(sentence).probs[t, ids[t + 1]])


def first_word_share(word: str) -> float:
    """The share of the 8 sentences that begin with ``word``: what the best model says after <bos>."""
    return sum(s.words[0] == word for s in preset.SENTENCES) / len(preset.SENTENCES)


def first_word_gap() -> float:
    """max |probs[0, w] − share of sentences beginning with w| over every word of the vocabulary."""
    return max(abs(prob(0, w) - first_word_share(w)) for w in model().vocab)


@cache
def step_losses(sentence: int = SENTENCE) -> np.ndarray:
    """(6,): −log probs[t, x_{t+1}] in one pass over the sentence."""
    losses = dec.sequence_loss(model(), dp.sentence_ids(sentence)).step_losses
    return losses


def loss(sentence: int = SENTENCE) -> float:
    return float(step_losses(sentence).sum())


def one_pass_gap(sentence: int) -> float:
    """|the loss of one pass − the sum of the losses computed one prefix at a time|."""
    ids = dp.sentence_ids(sentence)
    return abs(dec.sequence_loss(model(), ids).loss - float(dec.step_by_step_losses(model(), ids).sum()))


def one_pass_equals_steps(bound: int = 64) -> bool:
    """In every sentence, the loss of one pass equals the sum of the step-by-step losses within ``bound`` machine
    epsilons (the two add the same terms in another order)."""
    return all(one_pass_gap(s.number) <= bound * rounding.MACHINE_EPSILON for s in preset.SENTENCES)


def one_pass_equals_steps_within(bound: int) -> int:
    """The largest gap over the 8 sentences, in machine epsilons, quoted as the bound it stays under."""
    return rounding.eps_multiple_within(max(one_pass_gap(s.number) for s in preset.SENTENCES), bound)


def initial_loss() -> float:
    return float(dp.training_run().losses[0])


def final_loss() -> float:
    return dp.training_run().final_loss


def uniform_loss() -> float:
    """−log(1/18): a guess spread evenly over the vocabulary."""
    return math.log(len(dp.vocabulary()))


def loss_floor() -> float:
    """The smallest mean loss any model can reach on these 48 positions: the entropy of the next word where the
    sentences themselves disagree (their first word; after これ は; after 私 は), 0 where they agree."""
    counts: dict[tuple[int, ...], dict[int, int]] = {}
    for s in preset.SENTENCES:
        ids = tuple(int(i) for i in dp.sentence_ids(s.number))
        for t in range(1, len(ids)):
            following = counts.setdefault(ids[:t], {})
            following[ids[t]] = following.get(ids[t], 0) + 1
    total = 0.0
    for following in counts.values():
        n = sum(following.values())
        total -= sum(c * math.log(c / n) for c in following.values())
    return total / N_TARGETS


def peak_lr() -> float:
    return float(dp.training_run().lr.max())


@cache
def completions() -> tuple[tuple[str, str, bool], ...]:
    """(prompt, greedy continuation, completes the sentence and then <eos>) for each of the 8 sentences."""
    rows = []
    for s in preset.SENTENCES:
        ids = dp.sentence_ids(s.number)
        out = gen.greedy(model(), ids[: 1 + PROMPT_WORDS])
        done = bool(np.array_equal(out.tokens, ids))
        rows.append((model().text(ids[: 1 + PROMPT_WORDS]), model().text(out.generated), done))
    return tuple(rows)


def all_complete() -> bool:
    return all(done for _, _, done in completions())


LABELS = {
    "SENTENCE": "例の文の番号",
    "SEED": "学習の初期値の乱数の seed",
    "STEPS": "学習のステップ数",
    "WARMUP": "学習率のウォームアップのステップ数",
    "EMBEDDING_STD": "W_E の初期値の標準偏差",
    "ADAM_BETA1": "Adam の β1",
    "ADAM_BETA2": "Adam の β2",
    "ADAM_EPS": "Adam の ε",
    "N_SENTENCES": "学習に使う文の数",
    "PROMPT_WORDS": "プロンプトに入れる文の語の数",
    "N_TARGETS": "学習で当てる位置の数 (8 文 × 6)",
    "prob()": "文1 の位置 {0} の次に「{1}」が来る確率",
    "target_prob()": "文1 の位置 {0} で本当の次の語に置く確率",
    "first_word_share()": "8 文のうち「{0}」で始まる文の割合",
    "first_word_gap()": "<bos> の次の確率と、文の最初の語の割合との最大の差",
    "step_losses()": "文1 の各位置の損失 −log probs",
    "step_losses()[]": "文1 の位置 {0} の損失 −log probs",
    "loss()": "文1 の損失 (6 位置の和)",
    "one_pass_gap()": "文{0} の 1 回の計算と 1 語ずつの計算の損失の差",
    "one_pass_equals_steps()": "8 文すべてで、1 回の計算の損失が 1 語ずつの損失の和と等しい",
    "one_pass_equals_steps_within()": "その差の 8 文での最大の、機械イプシロンの倍数での上限 (上限 {0} 倍)",
    "initial_loss()": "学習前の平均損失",
    "final_loss()": "学習後の平均損失",
    "uniform_loss()": "18 語に均等に賭けたときの損失 log 18",
    "loss_floor()": "このデータで到達できる平均損失の最小値",
    "peak_lr()": "学習率のピーク",
    "completions()": "8 文のプロンプトと貪欲法の続き",
    "all_complete()": "8 文すべてで、貪欲法が文を完成させて <eos> で終わる",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
