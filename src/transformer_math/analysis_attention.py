"""Computations behind the notes §0–§4: embedding, positional encoding, Q/K/V bonds, relations, concat.

Everything here is read off :func:`transformer_math.preset_trace` and the preset's rules; the pages cite these
functions in checked numbers (``analysis_attention.verdict(1, 0).weight``). numpy only.

Index conventions as in the notes: t, i, j = token positions, g = global column (head·d_k + k), d = model
dimension. "tok" is the part that comes through W_E[tokens], "pos" the part that comes through W_P.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from . import ops, preset, preset_trace
from .preset import BONDS, D_K, D_MODEL, N_HEADS, SENTENCES, T


# ---------------------------------------------------------------------------------------------- rounding noise
def machine_epsilon() -> float:
    """float64's machine epsilon (gap between 1 and the next float): 2**-52 on every IEEE-754 machine."""
    return float(np.finfo(np.float64).eps)


def eps_multiple_within(value: float, bound: int) -> int:
    """``bound`` when |value| ≤ bound · ε, else the smallest integer n with |value| ≤ n · ε.

    A rounding residual such as 1.1e-16 depends on the CPU, libm and BLAS, so prose must not quote it. Prose
    quotes the bound instead (``{{ 8 = analysis_attention.eps_multiple_within(x, 8) }}``): the number is the
    same on every machine while the residual stays under it, and the check fails (showing the real multiple)
    the day it does not.
    """
    if not isinstance(bound, (int, np.integer)) or isinstance(bound, bool) or bound < 1:
        raise ValueError(f"bound must be a positive integer multiple of machine epsilon, got {bound!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"value must be finite, got {value!r}")
    multiple = abs(value) / machine_epsilon()
    return int(bound) if multiple <= bound else int(np.ceil(multiple))


# ---------------------------------------------------------------------------------------------- argument checks


def _check_index(value: int, name: str, size: int) -> int:
    if not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise ValueError(f"{name} must be an integer 0 … {size - 1}, got {value!r}")
    return int(value)


# ---------------------------------------------------------------------------------------------- §0 sizes
def nonzero_count(name: str) -> int:
    """Number of non-zero entries of one preset weight (``"W_Q"``, ``"W_E"``, …)."""
    weights = preset.build_preset()
    value = getattr(weights, name, None)
    if not isinstance(value, np.ndarray):
        raise ValueError(f"name must name a weight array of the preset (W_E, W_Q, W_K, …), got {name!r}")
    return int(np.count_nonzero(value))


def parameter_count(name: str) -> int:
    """Number of entries of one preset weight, i.e. its parameter count."""
    weights = preset.build_preset()
    value = getattr(weights, name, None)
    if not isinstance(value, np.ndarray):
        raise ValueError(f"name must name a weight array of the preset (W_E, W_Q, W_K, …), got {name!r}")
    return int(value.size)


# ---------------------------------------------------------------------------------------------- §1 W_E and W_P
def embedding_row_norm(word: str) -> float:
    """‖W_E[word]‖: the length of one word's embedding row."""
    if word not in preset.WORD_ID:
        raise ValueError(f"word must be in the vocabulary {preset.VOCAB}, got {word!r}")
    return float(np.linalg.norm(preset.build_embedding()[preset.WORD_ID[word]]))


def pe_periods(d_model: int = D_MODEL) -> np.ndarray:
    """Period (in positions) of dimension pair i = (2i, 2i+1): 2π·10000^(2i/d_model). Shape (d_model/2,)."""
    return ops.pe_wavelengths(d_model)


def pe_period_of_dim(d: int, d_model: int = D_MODEL) -> float:
    """Period of the sine/cosine that fills dimension d of W_P."""
    d = _check_index(d, "d", d_model)
    return float(pe_periods(d_model)[d // 2])


def pe_range(d: int, T_: int = T, d_model: int = D_MODEL) -> float:
    """max − min of W_P[:, d] over the positions 0 … T−1: how much dimension d tells positions apart."""
    d = _check_index(d, "d", d_model)
    column = ops.positional_encoding(T_, d_model)[:, d]
    return float(column.max() - column.min())


def pe_row_norm(t: int, T_: int = T, d_model: int = D_MODEL) -> float:
    """‖W_P[t]‖ = √(d_model/2) for every t, since each pair contributes sin² + cos² = 1."""
    t = _check_index(t, "t", T_)
    return float(np.linalg.norm(ops.positional_encoding(T_, d_model)[t]))


def pe_min_distance(T_: int = T, d_model: int = D_MODEL) -> float:
    """Smallest Euclidean distance between two different rows of W_P: > 0 means every position is unique."""
    pe = ops.positional_encoding(T_, d_model)
    diff = pe[:, None, :] - pe[None, :, :]
    dist = np.linalg.norm(diff, axis=-1)
    return float(dist[~np.eye(T_, dtype=bool)].min())


def pe_max_move(dims: tuple[int, ...], T_: int = T, d_model: int = D_MODEL) -> float:
    """Largest |W_P[t, d] − W_P[0, d]| over t and the given dims (how far those dims move from position 0)."""
    for d in dims:
        _check_index(d, "dims[…]", d_model)
    pe = ops.positional_encoding(T_, d_model)[:, list(dims)]
    return float(np.abs(pe - pe[0]).max())


def pe_rotation_max_error(k: int, T_: int = T, d_model: int = D_MODEL) -> float:
    """Largest |R(ω_i·k)·(sin ω_i t, cos ω_i t) − (sin ω_i(t+k), cos ω_i(t+k))| over t = 0 … T−1−k and every pair.

    Shift by k positions = one fixed rotation per pair, the same for every t (Vaswani et al. 2017 §3.5).
    """
    if not isinstance(k, (int, np.integer)) or not 0 < k < T_:
        raise ValueError(f"k must be an integer 1 … {T_ - 1}, got {k!r}")
    pe = ops.positional_encoding(T_, d_model)
    worst = 0.0
    for i, omega in enumerate(ops.pe_angular_frequencies(d_model)):
        R = ops.pe_rotation(float(omega), k)
        pairs = pe[:, 2 * i : 2 * i + 2]  # (T, 2): (sin, cos)
        shifted = pairs[:-k] @ R.T  # apply R to every earlier position
        worst = max(worst, float(np.abs(shifted - pairs[k:]).max()))
    return worst


def pe_rotation_worst_error(T_: int = T, d_model: int = D_MODEL) -> float:
    """:func:`pe_rotation_max_error` over every shift k = 1 … T−1."""
    return max(pe_rotation_max_error(k, T_, d_model) for k in range(1, T_))


def position_share(sentence_number: int, t: int, d: int) -> float:
    """Fraction of X[t, d] that comes from W_P: W_P[t, d] / X[t, d] (nan-free: raises when X[t, d] = 0)."""
    trace = preset_trace(sentence_number)
    t, d = _check_index(t, "t", T), _check_index(d, "d", D_MODEL)
    total = trace.X[t, d]
    if total == 0.0:
        raise ValueError(f"X[{t}, {d}] = 0 in sentence {sentence_number}: no share to compute")
    return float(trace.X_pos[t, d] / total)


# ---------------------------------------------------------------------------------------------- §2 bonds
def bond_index(name_or_index: int | str) -> int:
    if isinstance(name_or_index, str):
        names = [b.name for b in BONDS]
        if name_or_index not in names:
            raise ValueError(f"bond must be one of {names}, got {name_or_index!r}")
        return names.index(name_or_index)
    return _check_index(name_or_index, "bond", len(BONDS))


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
    """Q[:, column] (side="query") or K[:, column] (side="key") of one bond, split into tok and pos parts.

    With one 1.0 per bond column, Q_full[t, g] = X[t, query_dim] exactly, and X = W_E[tokens] + W_P.
    """
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
    mask = np.ones(N_HEADS * D_K, dtype=bool)
    mask[list(bond_columns())] = False
    return float(max(np.abs(trace.Q_full[:, mask]).max(), np.abs(trace.K_full[:, mask]).max()))


def max_abs_outside_bonds_all() -> float:
    """:func:`max_abs_outside_bonds` over all eight sentences."""
    return max(max_abs_outside_bonds(n) for n in range(1, len(SENTENCES) + 1))


# ---------------------------------------------------------------------------------------------- §2/§3 scores
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
    trace = preset_trace(sentence_number)
    weights = preset.build_preset()
    head = _check_index(head, "head", N_HEADS)
    i, j = _check_index(i, "i", T), _check_index(j, "j", T)
    cols = slice(head * D_K, (head + 1) * D_K)
    q_tok, q_pos = trace.X_tok[i] @ weights.W_Q[:, cols], trace.X_pos[i] @ weights.W_Q[:, cols]
    k_tok, k_pos = trace.X_tok[j] @ weights.W_K[:, cols], trace.X_pos[j] @ weights.W_K[:, cols]
    scale = np.sqrt(D_K)
    return ScoreSplit(
        tok_tok=float(q_tok @ k_tok / scale),
        tok_pos=float(q_tok @ k_pos / scale),
        pos_tok=float(q_pos @ k_tok / scale),
        pos_pos=float(q_pos @ k_pos / scale),
    )


def bond_score_terms(sentence_number: int, head: int, i: int, j: int) -> dict[str, float]:
    """scores[head, i, j] as a sum over the bonds of that head: {bond name: Q[i, g]·K[j, g] / √d_k}."""
    trace = preset_trace(sentence_number)
    head = _check_index(head, "head", N_HEADS)
    i, j = _check_index(i, "i", T), _check_index(j, "j", T)
    return {
        b.name: float(trace.Q_full[i, b.column] * trace.K_full[j, b.column] / np.sqrt(D_K))
        for b in BONDS
        if b.head == head
    }


# ---------------------------------------------------------------------------------------------- relation verdicts
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
    runner_up_pos: int  # the best position other than key_pos (or other than the winner, if key lost)
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


def _verdict(sentence: preset.Sentence, relation: preset.Relation) -> RelationVerdict:
    trace = preset_trace(sentence.number)
    i, j, h = sentence.position(relation.query), sentence.position(relation.key), relation.head
    row = trace.attn[h, i]
    winner = int(np.argmax(row))
    others = row.copy()
    others[j] = -np.inf
    runner = int(np.argmax(others))
    return RelationVerdict(
        sentence=sentence.number, query=relation.query, key=relation.key, head=h, query_pos=i, key_pos=j,
        weight=float(row[j]), score=float(trace.scores[h, i, j]), winner_pos=winner, runner_up_pos=runner,
        runner_up_weight=float(row[runner]), runner_up_score=float(trace.scores[h, i, runner]),
        other_head_weight=float(trace.attn[1 - h, i, j]),
    )  # fmt: skip


@cache
def relation_verdicts(sentence_number: int) -> tuple[RelationVerdict, ...]:
    """One verdict per intended relation of the sentence, in PRESET.md's order."""
    sentence = preset.sentence(sentence_number)
    return tuple(_verdict(sentence, r) for r in sentence.relations)


def verdict(sentence_number: int, relation_index: int) -> RelationVerdict:
    """The verdict on relation ``relation_index`` (0 or 1) of sentence ``sentence_number``."""
    verdicts = relation_verdicts(sentence_number)
    return verdicts[_check_index(relation_index, "relation_index", len(verdicts))]


def all_verdicts() -> tuple[RelationVerdict, ...]:
    return tuple(v for n in range(1, len(SENTENCES) + 1) for v in relation_verdicts(n))


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
    order of X[j, d0]: the runner-up is decided by the key side alone (§3 checks this on all 16 relations).
    """
    key_strength = preset_trace(v.sentence).X[:, 0].copy()
    key_strength[v.key_pos] = -np.inf
    return int(np.argmax(key_strength)) == v.runner_up_pos


def n_runner_up_is_next_strongest_key() -> int:
    return sum(runner_up_is_next_strongest_key(v) for v in all_verdicts())


def distinct_verdict_weights() -> int:
    """How many different intended-key weights the 16 relations produce (rounded to 1e-12)."""
    return len({round(v.weight, 12) for v in all_verdicts()})


# ---------------------------------------------------------------------------------------------- §4 concat and Y
def head_of_dim(d: int) -> int:
    """Which head's output fills dimension d of concat (and of Y, since W_O = I)."""
    return _check_index(d, "d", D_MODEL) // D_K


def concat_vs_Y_max_diff(sentence_number: int) -> float:
    """max |concat − Y|: 0 when W_O = I."""
    trace = preset_trace(sentence_number)
    return float(np.abs(trace.concat - trace.Y).max())


def y_sources(sentence_number: int, t: int, d: int) -> np.ndarray:
    """Y[t, d] split by the key position it was gathered from: attn[head, t, j] · V[j, head, k]. Shape (T,).

    Valid when W_O = I (the preset): Y[t, d] = concat[t, d] = out[t, d // d_k, d % d_k].
    """
    trace = preset_trace(sentence_number)
    t, d = _check_index(t, "t", T), _check_index(d, "d", D_MODEL)
    head, k = divmod(d, D_K)
    return trace.attn[head, t, :] * trace.V[:, head, k]


def y_from_position(sentence_number: int, t: int, d: int) -> float:
    """The part of Y[t, d] that the attention weights gather from W_P (V = X = W_E[tokens] + W_P)."""
    trace = preset_trace(sentence_number)
    t, d = _check_index(t, "t", T), _check_index(d, "d", D_MODEL)
    head = d // D_K
    return float(trace.attn[head, t, :] @ trace.X_pos[:, d])


def y_from_token(sentence_number: int, t: int, d: int) -> float:
    trace = preset_trace(sentence_number)
    t, d = _check_index(t, "t", T), _check_index(d, "d", D_MODEL)
    head = d // D_K
    return float(trace.attn[head, t, :] @ trace.X_tok[:, d])
