"""docs/backprop/05-lab.md (the training lab, a notebook): what the run of ``training.default_run()`` learned.

The lab's code cells train the block themselves; its prose cites the same (deterministic) run through this
module: the loss, how many of the 40 examples it names, the floor the data allows, whether the intended
relations emerged, and what the learned rows attend to instead.
"""

from __future__ import annotations

import math

import numpy as np

from transformer_math import backward as bw
from transformer_math import preset, tokenize, training
from transformer_math.block import BlockWeights
from transformer_math.preset import SENTENCES, VOCAB, T


def run() -> training.TrainingRun:
    """The lab's run: seed ``training.SEED``, ``training.STEPS`` full-batch Adam steps under the Noam schedule."""
    return training.default_run()


def prepare() -> None:
    """Compute the run once (a few seconds of CPU), before any checked number reads it.

    Each checked number is evaluated under a time limit of its own (``transformer_site.checked``); the first
    one to read the run would otherwise pay for the whole training inside that limit, on a loaded machine too.
    The lab's build (``transformer_site.notebooks.lab``) and the doc-value tests call it first.
    """
    run()


def n_examples() -> int:
    return len(training.examples())


def n_named(weights: BlockWeights) -> int:
    """Of the 40 examples, how many ``weights`` name: the largest probability on the hidden word."""
    return sum(
        int(np.argmax(bw.masked_word_loss(weights, tokens, p).probs)) == int(tokens[p])
        for tokens, p in training.examples()
    )


def named(which: str) -> int:
    """:func:`n_named` of the run's ``"learned"`` or ``"initial"`` weights."""
    return n_named(_weights(which))


def _weights(which: str) -> BlockWeights:
    if which not in ("learned", "initial"):
        raise ValueError(f"which must be 'learned' or 'initial', got {which!r}")
    return run().learned if which == "learned" else run().initial


def n_distinct_inputs() -> int:
    """How many different inputs the 40 examples are (a hidden word's sentence with that word removed)."""
    return len(_inputs())


def _inputs() -> dict[tuple, list[int]]:
    """(position, the visible words) → the hidden words of the examples with that input."""
    groups: dict[tuple, list[int]] = {}
    for tokens, p in training.examples():
        visible = tuple(int(v) if i != p else -1 for i, v in enumerate(tokens))
        groups.setdefault((p, visible), []).append(int(tokens[p]))
    return groups


def loss_floor() -> float:
    """The smallest mean loss any model can reach on the 40 examples.

    Examples with the same input (文4 and 文5 with the noun hidden) must get the same prediction; the best is
    their answers' frequencies, whose cross-entropy is their entropy. Every other example can reach 0.
    """
    total = 0.0
    for answers in _inputs().values():
        n = len(answers)
        total -= sum(answers.count(a) * math.log(answers.count(a) / n) for a in set(answers))
    return total / n_examples()


def ambiguous_pairs() -> int:
    """How many inputs are shared by examples with different answers."""
    return sum(len(set(answers)) > 1 for answers in _inputs().values())


def n_emerged(which: str = "learned") -> int:
    """Intended relations whose key wins the hidden word's row: after training or at the random start."""
    verdicts = run().verdicts if which == "learned" else run().initial_verdicts if which == "initial" else None
    if verdicts is None:
        raise ValueError(f"which must be 'learned' or 'initial', got {which!r}")
    return sum(v.emerged for v in verdicts)


def n_relations() -> int:
    return len(run().verdicts)


def n_preset_holds() -> int:
    """Intended relations the hand-crafted preset's rows (full sentence, its head) give to the intended key."""
    return sum(v.preset_holds for v in run().verdicts)


def hidden_rows(which: str) -> np.ndarray:
    """(8, h, T, T): row i of each head with word i hidden, for the ``"learned"`` or ``"initial"`` weights."""
    if which == "learned":
        return run().learned_attention
    return np.stack([training.hidden_word_attention(_weights(which), s.token_ids) for s in SENTENCES])


def row_max_mean(which: str) -> float:
    """The mean over all 8 × h × T hidden rows of the row's largest weight (1/T for a flat row, 1 for one-hot)."""
    return float(hidden_rows(which).max(axis=-1).mean())


def n_rows() -> int:
    """8 sentences × h heads × T positions."""
    return len(SENTENCES) * preset.N_HEADS * T


def positional_rows(which: str) -> int:
    """For each head and hidden position, how many of the 8 sentences' rows attend most to the position that is
    most common for that head and position; summed over heads and positions (of :func:`n_rows`).

    8 of 8 would mean the row's choice depends on the position alone, not on the words.
    """
    winners = hidden_rows(which).argmax(axis=-1)  # (8, h, T)
    return sum(int(np.bincount(winners[:, h, i], minlength=T).max()) for h in range(preset.N_HEADS) for i in range(T))


def rows_on(words: tuple[str, ...]) -> int:
    """How many learned hidden rows (of :func:`n_rows`) attend most to one of ``words``."""
    winners = run().learned_attention.argmax(axis=-1)  # (8, h, T)
    return sum(
        SENTENCES[s].words[int(winners[s, h, i])] in words
        for s in range(len(SENTENCES))
        for h in range(preset.N_HEADS)
        for i in range(T)
    )


def hidden_query_spread() -> float:
    """The largest difference between the learned Q of a hidden position in two sentences (same position).

    The hidden word's X is W_P[p] alone, so its query is the same in every sentence: 0.
    """
    weights, spread = run().learned, 0.0
    for p in range(T):
        rows = [bw.masked_word_loss(weights, s.token_ids, p).trace.Q[p] for s in SENTENCES]
        spread = max(spread, max(float(np.abs(r - rows[0]).max()) for r in rows))
    return spread


def held_out(text: str, position: int) -> tuple[str, float]:
    """(the word the learned block names, the probability it gives the true word) for ``text`` with word
    ``position`` hidden — a sentence of the vocabulary that is not one of the eight."""
    tokens = tokenize(text)
    result = bw.masked_word_loss(run().learned, tokens, position)
    return VOCAB[int(np.argmax(result.probs))], float(result.probs[tokens[position]])


def training_sentence_like(text: str, position: int) -> int:
    """The number of the example sentence that has the same words as ``text`` everywhere but ``position``."""
    tokens = tokenize(text)
    for s in SENTENCES:
        if all(int(a) == int(b) for i, (a, b) in enumerate(zip(s.token_ids, tokens, strict=True)) if i != position):
            return s.number
    raise ValueError(f"no example sentence matches {text!r} outside position {position}")


HELD_OUT = (("これ は 大きい 猫 です", 3), ("私 は 本 が 好き", 2))
"""Sentences of the vocabulary that are not among the eight, with the noun hidden."""


def held_out_prob(text: str, position: int, word: str) -> float:
    """The probability the learned block gives ``word`` for ``text`` with word ``position`` hidden."""
    result = bw.masked_word_loss(run().learned, tokenize(text), position)
    return float(result.probs[preset.WORD_ID[word]])


LABELS = {
    "n_examples()": "学習ラボの例の数",
    "run()": "学習ラボの学習",
    "run().lr": "学習ラボの各ステップの学習率",
    "run().initial_loss": "学習前の平均損失",
    "run().final_loss": "学習後の平均損失",
    "named()": "「{0}」の重みで正解を当てる例の数",
    "loss_floor()": "どんなモデルも下回れない平均損失",
    "n_distinct_inputs()": "40 例の異なる入力の数",
    "n_relations()": "ねらった関係の数",
    "n_emerged()": "{0}の重みに現れた関係の数",
    "n_preset_holds()": "プリセットで成り立つ関係の数",
    "row_max_mean()": "「{0}」の重みの行の最大の重みの平均",
    "n_rows()": "語を隠した行の数 (8 文 × ヘッド × 位置)",
    "positional_rows()": "「{0}」の重みで最大の位置が (ヘッド, 隠す位置) ごとの最多と一致する行の数",
    "rows_on()": "学習後に {0} のどれかに最大の重みを置く行の数",
    "hidden_query_spread()": "隠した位置のクエリの文による差の最大",
    "held_out_prob()": "学習後、「{0}」の T{1} を隠すと「{2}」に賭ける確率",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
