"""docs/decoder/03-decoding.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

from transformer_math import generation as gen

from .. import which
from .decoding import START, model, start_logits, start_prob, top_p_kept

SEEDS = range(10)


def kept_at_seven_tenths() -> int:
    return top_p_kept(0.7)


SETTINGS = {
    "top_k_1": {"top_k": 1},
    "cold": {"temperature": 0.5},
    "nucleus": {"top_p": 0.9},
    "hot": {"temperature": 2.0},
}


def seed_free_setting() -> str:
    """The setting whose output from <bos> is the same for 10 seeds (the others vary)."""
    same = {
        key: len({tuple(gen.generate(model(), START, seed=s, **kwargs).tokens) for s in SEEDS}) == 1
        for key, kwargs in SETTINGS.items()
    }
    return which(same, True)




# ----------------------------------------------------------------------------------- asked on the exam page
# docs/chapter/10-review.md asks the points of this page again, in other numbers.

EXAM_TEMPERATURE = 0.5
EXAM_TOP_P = 0.5


def logit_gap() -> float:
    """z(私) − z(これ) after <bos>."""
    z = start_logits()
    return float(z[model().id_of("私")] - z[model().id_of("これ")])


def exam_ratio() -> float:
    """p(私) / p(これ) after <bos> at τ = EXAM_TEMPERATURE: e^{(z(私) − z(これ)) / τ}."""
    p = start_prob("私", EXAM_TEMPERATURE) / start_prob("これ", EXAM_TEMPERATURE)
    return float(p)


def exam_kept() -> int:
    return top_p_kept(EXAM_TOP_P)


def why_greedy_loops() -> str:
    """What the loop example shows: the state hardly changes, and greedy has nothing random to leave it by."""
    from .decoding import loop_min_similarity, loop_repeats

    settles = loop_min_similarity() > 0.98 and loop_repeats() >= 5
    return which({"state": True, "eos": False, "mask": False}, settles)


LABELS = {
    "kept_at_seven_tenths()": "top-p (p = 0.7) で <bos> の次に残る語の数",
    "EXAM_TEMPERATURE": "試験の問題の温度 τ",
    "EXAM_TOP_P": "試験の問題の top-p の p",
    "logit_gap()": "<bos> の次の logit の差 z(私) − z(これ)",
    "exam_ratio()": "温度 τ での p(私) / p(これ)",
    "exam_kept()": "試験の問題の top-p で <bos> の次に残る語の数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
