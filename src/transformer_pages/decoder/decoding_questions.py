"""docs/decoder/03-decoding.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

from transformer_math import generation as gen

from .. import which
from .decoding import START, model, top_p_kept

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


LABELS = {
    "kept_at_seven_tenths()": "top-p (p = 0.7) で <bos> の次に残る語の数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
