"""docs/notes/03-attention.md: does each sentence's intended relation win its head's attention row, and why.

The verdict on a relation is read off the attn row of its query; the scores of the worked example are derived
term by term (:mod:`transformer_math.derivations`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from transformer_math import derivations, preset, preset_trace, preset_weights
from transformer_math.preset import D_K, SENTENCES

SQRT_D_K = math.sqrt(D_K)
"""√d_k = √8, what every score is divided by."""
SCORE = derivations.derive_score(preset_trace(1), 0, 0, 3)
"""The worked example: scores[0, 0, 3] of sentence 1 (これ → 花), from its terms."""
WEIGHT = derivations.derive_attn(preset_trace(1), 0, 0, 3)
"""attn[0, 0, 3] of sentence 1, from the exp terms of its row."""


@dataclass(frozen=True)
class RelationVerdict:
    """Does a sentence's intended query → key relation win its head's attention row, and by how much?"""

    sentence: int
    query: str
    key: str
    head: int
    query_pos: int
    key_pos: int
    weight: float  # attn[head, query_pos, key_pos]
    score: float  # scores[head, query_pos, key_pos]
    winner_pos: int  # argmax of the attn row
    runner_up_pos: int  # the best position other than key_pos
    runner_up_weight: float
    runner_up_score: float
    other_head_weight: float  # the same query → key in the other head

    @property
    def wins(self) -> bool:
        return self.winner_pos == self.key_pos

    @property
    def winner(self) -> str:
        return preset.sentence(self.sentence).words[self.winner_pos]

    @property
    def runner_up(self) -> str:
        return preset.sentence(self.sentence).words[self.runner_up_pos]

    @property
    def margin(self) -> float:
        """attn weight of the intended key minus the best other key (> 0 iff it wins)."""
        return self.weight - self.runner_up_weight

    @property
    def score_margin(self) -> float:
        return self.score - self.runner_up_score

    @property
    def weight_ratio(self) -> float:
        """How many times the runner-up's weight the intended key gets: exp(score margin)."""
        return self.weight / self.runner_up_weight


# --8<-- [start:relation_verdict]
def relation_verdict(sentence: preset.Sentence, relation: preset.Relation) -> RelationVerdict:
    """The verdict on one relation, from the attn row of its query in its head."""
    trace = preset_trace(sentence.number)
    i, j, h = sentence.position(relation.query), sentence.position(relation.key), relation.head
    row = trace.attn[h, i]  # (T,) where query i looks, in head h
    winner = int(np.argmax(row))
    others = row.copy()
    others[j] = -np.inf  # the best key other than the intended one
    runner = int(np.argmax(others))
    return RelationVerdict(
        sentence=sentence.number,
        query=relation.query,
        key=relation.key,
        head=h,
        query_pos=i,
        key_pos=j,
        weight=float(row[j]),
        score=float(trace.scores[h, i, j]),
        winner_pos=winner,
        runner_up_pos=runner,
        runner_up_weight=float(row[runner]),
        runner_up_score=float(trace.scores[h, i, runner]),
        other_head_weight=float(trace.attn[1 - h, i, j]),
    )
    # --8<-- [end:relation_verdict]


@cache
def relation_verdicts(sentence_number: int) -> tuple[RelationVerdict, ...]:
    """One verdict per intended relation of the sentence, in the order the preset lists them."""
    sentence = preset.sentence(sentence_number)
    return tuple(relation_verdict(sentence, r) for r in sentence.relations)


def verdict(sentence_number: int, relation_index: int) -> RelationVerdict:
    """The verdict on relation ``relation_index`` (0 or 1) of sentence ``sentence_number``."""
    verdicts = relation_verdicts(sentence_number)
    if relation_index not in range(len(verdicts)):
        raise ValueError(f"relation_index must be 0 … {len(verdicts) - 1}, got {relation_index!r}")
    return verdicts[relation_index]


def all_verdicts() -> tuple[RelationVerdict, ...]:
    return tuple(v for s in SENTENCES for v in relation_verdicts(s.number))


def n_relations() -> int:
    return len(all_verdicts())


def n_relations_won() -> int:
    return sum(v.wins for v in all_verdicts())


def weakest_verdict() -> RelationVerdict:
    """The relation with the smallest weight margin over its runner-up, across all eight sentences."""
    return min(all_verdicts(), key=lambda v: v.margin)


def strongest_verdict() -> RelationVerdict:
    return max(all_verdicts(), key=lambda v: v.margin)


def runner_up_is_next_strongest_key(v: RelationVerdict) -> bool:
    """Is the runner-up the position with the largest noun key X[j, d0] once the intended key is left out?

    Every bond's key column is X[:, d0] and the bond queries are positive, so the row's order of scores is the
    order of X[j, d0]: the runner-up is decided by the key side alone.
    """
    key_strength = preset_trace(v.sentence).X[:, 0].copy()
    key_strength[v.key_pos] = -np.inf
    return int(np.argmax(key_strength)) == v.runner_up_pos


def n_runner_up_is_next_strongest_key() -> int:
    return sum(runner_up_is_next_strongest_key(v) for v in all_verdicts())


def distinct_verdict_weights() -> int:
    """How many different intended-key weights the 16 relations produce (rounded to 1e-12)."""
    return len({round(v.weight, 12) for v in all_verdicts()})


N_RELATIONS = n_relations()
"""The intended relations of the eight sentences: two each."""


def runner_up_tokens(*sentence_numbers: int) -> tuple[tuple[int, str], ...]:
    """The distinct (position, word) of the runner-ups of every relation of the given sentences, sorted."""
    found = set()
    for n in sentence_numbers:
        words = preset.sentence(n).words
        found.update((v.runner_up_pos, words[v.runner_up_pos]) for v in relation_verdicts(n))
    return tuple(sorted(found))


def nouns_per_sentence() -> tuple[int, ...]:
    """How many nouns (W_E[·, d0] = CATEGORY_VALUE) each example sentence holds."""
    W = preset_weights()
    return tuple(
        sum(1 for w in s.words if W.W_E[preset.WORD_ID[w], preset.DIM_CATEGORY["noun"]] > 0) for s in preset.SENTENCES
    )


LABELS = {
    "SQRT_D_K": "√d_k",
    "N_RELATIONS": "意図した関係の数",
    "n_relations()": "意図した関係の数",
    "n_relations_won()": "意図したヘッドで勝った関係の数",
    "verdict()": "文{0} の {i1} つ目の関係の判定",
    "verdict().weight": "文{0} の {i1} つ目の関係: 意図したキーへの重み",
    "verdict().runner_up_weight": "文{0} の {i1} つ目の関係: 次点の重み",
    "verdict().other_head_weight": "文{0} の {i1} つ目の関係: もう一方のヘッドでの重み",
    "weakest_verdict()": "差がいちばん小さい関係",
    "weakest_verdict().margin": "差がいちばん小さい関係の差",
    "distinct_verdict_weights()": "16 の重みのうち異なる値の数",
    "n_runner_up_is_next_strongest_key()": "次点が名詞次元の 2 番目に大きいトークンだった関係の数",
    "runner_up_tokens()": "文{0}… の次点のトークン (位置, 語)",
    "nouns_per_sentence()": "各例文の名詞の数",
    "SCORE": "文1・ヘッド0 の scores[これ→花] の導出",
    "SCORE.value": "文1・ヘッド0 の scores[これ→花]",
    "SCORE.terms": "scores[これ→花] の導出の項",
    "SCORE.terms[].value": "scores[これ→花] の導出の {i0} つ目の項 (積)",
    "SCORE.terms[].factors[].value": "scores[これ→花] の導出の {i0} つ目の積の {i1} つ目の因子",
    "SCORE.intermediate()": "scores[これ→花] の導出の途中の値「{0}」",
    "SCORE.n_zero_terms": "scores[これ→花] の導出で 0 になる項の数",
    "WEIGHT": "文1・ヘッド0 の attn[これ→花] の導出",
    "WEIGHT.value": "文1・ヘッド0 の attn[これ→花]",
    "WEIGHT.terms[].value": "attn[これ→花] の分母の {i0} つ目の項 exp(score − m)",
    "WEIGHT.intermediate()": "attn[これ→花] の導出の途中の値「{0}」",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
