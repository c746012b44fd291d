"""docs/notes/02-qkv.md: the three bonds of W_Q and W_K, and each score split by where Q and K come from.

With one 1.0 per bond column, Q_full[t, g] = X[t, query_dim] exactly, and X = W_E[tokens] + W_P, so every bond
column splits into a meaning part and a position part.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transformer_math import preset_trace, preset_weights
from transformer_math.preset import BONDS, D_K, N_HEADS, SENTENCES, T

QK_WIDTH = N_HEADS * D_K
"""h · d_k: the width of Q and K (all heads side by side)."""


def bond_index(name_or_index: int | str) -> int:
    """The index of a bond, given its name ("形容詞→名詞") or its index."""
    names = [b.name for b in BONDS]
    if isinstance(name_or_index, str):
        if name_or_index not in names:
            raise ValueError(f"bond must be one of {names}, got {name_or_index!r}")
        return names.index(name_or_index)
    if name_or_index not in range(len(BONDS)):
        raise ValueError(f"bond must be 0 … {len(BONDS) - 1} or one of {names}, got {name_or_index!r}")
    return int(name_or_index)


@dataclass(frozen=True)
class BondSplit:
    """One bond column of Q (or K) for every token, split into the W_E part and the W_P part."""

    column: int
    dim: int  # the input dimension the bond reads
    tok: np.ndarray  # (T,) W_E[tokens, dim]
    pos: np.ndarray  # (T,) W_P[:, dim]

    @property
    def total(self) -> np.ndarray:
        return self.tok + self.pos


def bond_split(sentence_number: int, bond: int | str, side: str) -> BondSplit:
    """Q[:, column] (side="query") or K[:, column] (side="key") of one bond, split into tok and pos parts."""
    if side not in ("query", "key"):
        raise ValueError(f"side must be 'query' or 'key', got {side!r}")
    b = BONDS[bond_index(bond)]
    trace = preset_trace(sentence_number)
    dim = b.query_dim if side == "query" else b.key_dim
    return BondSplit(column=b.column, dim=dim, tok=trace.X_tok[:, dim].copy(), pos=trace.X_pos[:, dim].copy())


def bond_columns() -> tuple[int, ...]:
    """The global columns of Q/K where a bond lives (every other column of Q and K is zero)."""
    return tuple(b.column for b in BONDS)


def max_abs_outside_bonds(sentence_number: int) -> float:
    """Largest |Q| or |K| entry outside the bond columns (0: the bonds are the only channels)."""
    trace = preset_trace(sentence_number)
    outside = np.ones(N_HEADS * D_K, dtype=bool)
    outside[list(bond_columns())] = False
    return float(max(np.abs(trace.Q_full[:, outside]).max(), np.abs(trace.K_full[:, outside]).max()))


def max_abs_outside_bonds_all() -> float:
    """:func:`max_abs_outside_bonds` over all eight sentences."""
    return max(max_abs_outside_bonds(s.number) for s in SENTENCES)


@dataclass(frozen=True)
class ScoreSplit:
    """scores[head, i, j] split by where Q and K come from: (tok+pos)·(tok+pos) = four products, / √d_k."""

    tok_tok: float
    tok_pos: float  # query from W_E, key from W_P
    pos_tok: float
    pos_pos: float

    @property
    def total(self) -> float:
        return self.tok_tok + self.tok_pos + self.pos_tok + self.pos_pos

    @property
    def position_part(self) -> float:
        """Everything in the score that needs W_P on at least one side."""
        return self.tok_pos + self.pos_tok + self.pos_pos


def score_split(sentence_number: int, head: int, i: int, j: int) -> ScoreSplit:
    """Split one score into the meaning·meaning, meaning·position, position·meaning, position·position parts."""
    if head not in range(N_HEADS) or i not in range(T) or j not in range(T):
        raise ValueError(f"head must be 0 … {N_HEADS - 1} and i, j 0 … {T - 1}, got {head!r}, {i!r}, {j!r}")
    trace, W = preset_trace(sentence_number), preset_weights()
    cols = slice(head * D_K, (head + 1) * D_K)
    q_tok, q_pos = trace.X_tok[i] @ W.W_Q[:, cols], trace.X_pos[i] @ W.W_Q[:, cols]  # (d_k,) each
    k_tok, k_pos = trace.X_tok[j] @ W.W_K[:, cols], trace.X_pos[j] @ W.W_K[:, cols]
    scale = np.sqrt(D_K)
    return ScoreSplit(
        tok_tok=float(q_tok @ k_tok / scale), tok_pos=float(q_tok @ k_pos / scale),
        pos_tok=float(q_pos @ k_tok / scale), pos_pos=float(q_pos @ k_pos / scale),
    )  # fmt: skip


def bond_score_terms(sentence_number: int, head: int, i: int, j: int) -> dict[str, float]:
    """scores[head, i, j] as a sum over the bonds of that head: {bond name: Q[i, g]·K[j, g] / √d_k}."""
    if head not in range(N_HEADS) or i not in range(T) or j not in range(T):
        raise ValueError(f"head must be 0 … {N_HEADS - 1} and i, j 0 … {T - 1}, got {head!r}, {i!r}, {j!r}")
    trace = preset_trace(sentence_number)
    return {
        b.name: float(trace.Q_full[i, b.column] * trace.K_full[j, b.column] / np.sqrt(D_K))
        for b in BONDS
        if b.head == head
    }


def keys_copy_the_noun_dimension() -> bool:
    """In every sentence, each bond's key column K_full[:, g] is exactly X[:, d0] (the noun dimension)."""
    return all(
        np.array_equal(preset_trace(s.number).K_full[:, g], preset_trace(s.number).X[:, 0])
        for s in SENTENCES
        for g in bond_columns()
    )


LABELS = {
    "QK_WIDTH": "h·d_k",
    "max_abs_outside_bonds_all()": "どの文でも bond の列の外の Q・K の絶対値の最大",
    "keys_copy_the_noun_dimension()": "どの文でも bond のキー列が X[:, d0] と同じ",
    "bond_score_terms()": "文{0}・ヘッド{1} の scores[位置 {2}→位置 {3}] の bond ごとの寄与",
    "score_split()": "文{0}・ヘッド{1} の scores[位置 {2}→位置 {3}] の分解",
    "score_split().tok_tok": "文{0}・ヘッド{1} の scores[位置 {2}→位置 {3}] のうち意味どうしの積",
    "score_split().position_part": "文{0}・ヘッド{1} の scores[位置 {2}→位置 {3}] のうち位置が生む分",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
