"""What a hand-wired encoder's trace shows beyond its numbers: the relations its bonds intend (and whether they
win their attention row), and the detectors that fire.

A bond (``Encoder.bonds``) joins a query word of one category to a key word of another in one head; the
words' categories are ``Encoder.categories``. A model without bonds or categories intends no relation.
The browser's kernel computes the same summaries (docs/assets/javascripts/kernel.js), held equal to these.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .block import BlockTrace
from .model import Encoder
from .preset import ENCODER

TIE_TOLERANCE = 5e-4
"""Two attention weights whose difference is at most this are a tie. The explorer shows weights with three
decimals, so a smaller difference could not be seen; a bond turned to 0 gives exact ties (equal scores)."""


@dataclass(frozen=True)
class RelationOutcome:
    """One relation a bond intends in a sentence (query word → key word, in the bond's head) and how it fares."""

    bond: int  # index into the model's bonds
    head: int
    query_pos: int
    key_pos: int
    weight: float  # attn[head, query_pos, key_pos]
    winner_pos: int  # argmax of the attn row (the first of equal weights)
    runner_up_pos: int  # the best position other than key_pos (the first of equal weights)
    runner_up_weight: float
    tied_pos: tuple[int, ...] = ()  # on a tie: the other positions at the top of the row, within TIE_TOLERANCE

    @property
    def margin(self) -> float:
        """The intended key's weight minus the best other key's."""
        return self.weight - self.runner_up_weight

    @property
    def verdict(self) -> str:
        """The verdict: "win" if the intended key outweighs every other by more than TIE_TOLERANCE, "tie" if it
        is within TIE_TOLERANCE of the best other, "lose" otherwise."""
        return verdict_of(self.margin)

    @property
    def wins(self) -> bool:
        return self.verdict == "win"

    @property
    def ties(self) -> bool:
        return self.verdict == "tie"


VERDICTS = ("win", "tie", "lose")


def verdict_of(margin: float) -> str:
    """The verdict on a relation whose weight margin over the best other key is ``margin``."""
    if not np.isfinite(margin):
        raise ValueError(f"margin must be a finite number, got {margin!r}")
    if margin > TIE_TOLERANCE:
        return "win"
    return "tie" if margin >= -TIE_TOLERANCE else "lose"


def word_category(token_id: int, model: Encoder = ENCODER) -> int | None:
    """The category dimension of a vocabulary word (d0 … d7 in the preset), or None if the model has none."""
    return model.categories[int(token_id)] if model.categories else None


def intended_relations(tokens, model: Encoder = ENCODER) -> tuple[tuple[int, int, int], ...]:
    """(bond, query position, key position) for every pair a bond was made for: a query word of the bond's
    query category and a key word of its key category, ordered by query position, bond, key position.

    On the preset's eight sentences this gives exactly the relations PRESET.md lists for them.
    """
    categories = [word_category(t, model) for t in tokens]
    return tuple(
        (b, i, j)
        for i, ci in enumerate(categories)
        for b, bond in enumerate(model.bonds)
        if ci == bond.query_dim
        for j, cj in enumerate(categories)
        if cj == bond.key_dim and j != i
    )


def relation_outcomes(trace: BlockTrace, model: Encoder = ENCODER) -> tuple[RelationOutcome, ...]:
    """Each intended relation of the trace's sentence with its weight, the row's winner and the runner-up, and on
    a tie the other keys it ties with (every other position within TIE_TOLERANCE of the row's largest weight)."""
    _check_trace(trace)
    outcomes = []
    for b, i, j in intended_relations(trace.tokens, model):
        head = model.bonds[b].head
        row = trace.attn[head, i]
        others = row.copy()
        others[j] = -np.inf
        runner = int(np.argmax(others))
        weight, runner_weight = float(row[j]), float(row[runner])
        tied = ()
        if verdict_of(weight - runner_weight) == "tie":
            top = float(np.max(row))
            tied = tuple(int(k) for k in np.flatnonzero(row >= top - TIE_TOLERANCE) if k != j)
        outcomes.append(RelationOutcome(b, head, i, j, weight, int(np.argmax(row)), runner, runner_weight, tied))
    return tuple(outcomes)


def firing_detectors(trace: BlockTrace, model: Encoder = ENCODER) -> tuple[tuple[int, int, float], ...]:
    """(t, k, ffn_h[t, k]) for every detector that fires (ffn_h > the model's firing threshold), by position
    then unit."""
    _check_trace(trace)
    rows, cols = np.nonzero(trace.ffn_h > model.firing_threshold)  # C order: by position, then unit
    return tuple((int(t), int(k), float(trace.ffn_h[t, k])) for t, k in zip(rows, cols, strict=True))


def _check_trace(trace: object) -> BlockTrace:
    if not isinstance(trace, BlockTrace):
        raise ValueError(f"trace must be a BlockTrace, got {type(trace).__name__}")
    return trace
