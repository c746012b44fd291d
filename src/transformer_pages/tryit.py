"""The 「動かしてみる」 page (docs/tryit/index.md): what its three panels show, computed from the math layer.

* Scaled dot-product attention over a fixed, seeded set of q and k, for d_k = 1 … 64, with and without the
  division by √d_k and with and without the causal mask (every state precomputed: ``sdpa_grid``), and for each
  d_k and scale the size of the softmax's Jacobian and of the gradient reaching the scores
  (``sdpa_gradient``, from ``backward.sqrt_dk_sweep``).
* The sinusoidal positional encoding for d_model = 64, i = 0 … 31, pos = 0 … 127.
* The sentence explorer: the preset block on any five words of the vocabulary, with the preset's knobs and the
  block's switches, computed in the browser by the kernel (docs/assets/javascripts/kernel.js) that the tests
  hold equal to this module and to ``transformer_math``. This module says what the explorer shows beyond the
  trace: the relations each sentence's bonds intend and whether they win, the detectors that fire, and the
  derivation of every cell of every stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from transformer_math import backward, forward, ops, preset, tokenize
from transformer_math import derivations as dv
from transformer_math.block import BlockTrace, BlockWeights
from transformer_math.preset import FIRING_THRESHOLD

# ---------------------------------------------------------------- scaled dot-product panel

SDPA_SEED = 20170612  # the day "Attention Is All You Need" appeared on arXiv
SDPA_N = 6  # query and key positions (rows and columns of the heatmap)
SDPA_MAX_D_K = 64


@dataclass(frozen=True)
class SdpaState:
    """One reachable setting of the scaled dot-product panel and what it shows."""

    d_k: int
    scale: bool
    causal: bool
    scores: np.ndarray  # (n, n) before the mask: q·kᵀ, divided by √d_k if scale
    weights: np.ndarray  # (n, n) softmax(scores + mask)

    @property
    def scores_std(self) -> float:
        """Standard deviation of all n² scores (the mask does not change scores, only which ones count)."""
        return float(np.std(self.scores))

    @property
    def mean_row_max(self) -> float:
        """Mean over rows of each row's largest weight: 1 means every row is one-hot."""
        return float(np.mean(np.max(self.weights, axis=-1)))


@cache
def sdpa_qk() -> tuple[np.ndarray, np.ndarray]:
    """The fixed q and k (n, 64): independent standard normal entries, so q·k has variance d_k."""
    rng = np.random.default_rng(SDPA_SEED)
    q = rng.standard_normal((SDPA_N, SDPA_MAX_D_K))
    k = rng.standard_normal((SDPA_N, SDPA_MAX_D_K))
    return q, k


def sdpa_state(d_k: int, scale: bool, causal: bool) -> SdpaState:
    """The panel at one setting: the first d_k components of the fixed q and k."""
    if isinstance(d_k, bool) or not isinstance(d_k, (int, np.integer)) or not 1 <= d_k <= SDPA_MAX_D_K:
        raise ValueError(f"d_k must be an integer 1 … {SDPA_MAX_D_K}, got {d_k!r}")
    for name, flag in (("scale", scale), ("causal", causal)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {flag!r}")
    q, k = sdpa_qk()
    q, k = q[:, :d_k], k[:, :d_k]
    mask = ops.causal_mask(SDPA_N) if causal else None
    _, scores, weights = ops.scaled_dot_product_attention(q, k, k, mask=mask, scale=bool(scale))
    return SdpaState(int(d_k), bool(scale), bool(causal), scores, weights)


@cache
def sdpa_grid() -> dict[int, dict[bool, dict[bool, SdpaState]]]:
    """Every reachable state, nested by control as the panel reads it: ``sdpa_grid()[d_k][scale][causal]``."""
    return {
        d_k: {scale: {causal: sdpa_state(d_k, scale, causal) for causal in (False, True)} for scale in (False, True)}
        for d_k in range(1, SDPA_MAX_D_K + 1)
    }


def sdpa_states() -> list[SdpaState]:
    """Every reachable state once (the grid flattened)."""
    return [state for by_scale in sdpa_grid().values() for by_causal in by_scale.values() for state in
            by_causal.values()]  # fmt: skip


@cache
def sdpa_gradient_sweep() -> backward.SqrtDkSweep:
    """The softmax's gradient size (``backward.sqrt_dk_sweep``) at every d_k the panel offers, 1 … SDPA_MAX_D_K.

    Its own measurement (8 keys, 2,000 rows, seeded per d_k), not the panel's 6 × 6 example: the example is one
    draw, the gradient sizes are means. The powers of two are the same numbers as the chapter's sweep.
    """
    return backward.sqrt_dk_sweep(tuple(range(1, SDPA_MAX_D_K + 1)))


def sdpa_gradient(d_k: int, scale: bool) -> backward.SoftmaxGradientSize:
    """The gradient readout of the panel at one setting (the causal switch does not enter it)."""
    if isinstance(d_k, bool) or not isinstance(d_k, (int, np.integer)) or not 1 <= d_k <= SDPA_MAX_D_K:
        raise ValueError(f"d_k must be an integer 1 … {SDPA_MAX_D_K}, got {d_k!r}")
    if not isinstance(scale, (bool, np.bool_)):
        raise ValueError(f"scale must be True or False, got {scale!r}")
    # one point of the sweep (seeded per d_k, so the same numbers) without measuring all 64 for a page's number
    return backward.softmax_gradient_size(int(d_k), bool(scale))


def sdpa_max_row_sum_error() -> float:
    """Largest |Σ_j weights[i, j] − 1| over every row of every state: the rows are distributions."""
    return max(float(np.max(np.abs(s.weights.sum(axis=-1) - 1.0))) for s in sdpa_states())


# ---------------------------------------------------------------- positional-encoding panel

PE_D_MODEL = 64
PE_POSITIONS = 128
PE_SAMPLES_PER_WAVELENGTH = 24  # enough points for a smooth curve even at the shortest wavelength


@dataclass(frozen=True)
class PeCurve:
    """sin(pos·ω_i) and cos(pos·ω_i) sampled finely over 0 … PE_POSITIONS − 1, for drawing the waves."""

    i: int
    omega: float
    wavelength: float
    pos: np.ndarray  # (m,) sample positions, not only integers
    sin: np.ndarray  # (m,)
    cos: np.ndarray  # (m,)


def pe_table() -> np.ndarray:
    """PE (PE_POSITIONS, PE_D_MODEL): the values at integer positions, from ops.positional_encoding."""
    return ops.positional_encoding(PE_POSITIONS, PE_D_MODEL)


def pe_curve(i: int) -> PeCurve:
    """The two waves of dimension pair i (columns 2i and 2i+1), sampled densely where the wave is short."""
    n_pairs = PE_D_MODEL // 2
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < n_pairs:
        raise ValueError(f"i must be an integer 0 … {n_pairs - 1}, got {i!r}")
    omega = float(ops.pe_angular_frequencies(PE_D_MODEL)[i])
    wavelength = float(ops.pe_wavelengths(PE_D_MODEL)[i])
    span = PE_POSITIONS - 1
    n = int(np.clip(np.ceil(span / wavelength * PE_SAMPLES_PER_WAVELENGTH), 64, 512)) + 1
    pos = np.linspace(0.0, span, n)
    return PeCurve(int(i), omega, wavelength, pos, np.sin(pos * omega), np.cos(pos * omega))


def pe_curves() -> list[PeCurve]:
    return [pe_curve(i) for i in range(PE_D_MODEL // 2)]


# ---------------------------------------------------------------- sentence explorer: stages

EXPLORER_STAGES: tuple[str, ...] = (
    "X_tok", "X_pos", "X", "Q", "K", "V", "scores", "attn", "head_out", "Y",
    "residual1", "ln1_out", "ffn_pre", "ffn_h", "ffn_out", "residual2", "ln2_out",
)  # fmt: skip
PER_HEAD_STAGES = ("scores", "attn")  # (h, T, T)
SPLIT_STAGES = ("Q", "K", "V", "head_out")  # (T, h, d_k), shown as (T, h·d_k)


def explorer_matrix(trace: BlockTrace, stage: str) -> np.ndarray:
    """The stage as the panel draws it: (h, T, T) for scores/attn, otherwise a (T, columns) matrix."""
    _check_trace(trace)
    _check_stage(stage)
    value = getattr(trace, stage)
    if stage in SPLIT_STAGES:
        return ops.concat_heads(value)
    return value


# ---------------------------------------------------------------- the explorer's knobs and switches


@dataclass(frozen=True)
class KnobRange:
    """The values a knob's slider offers: min … max in steps of ``step`` (``log``: the slider moves log10)."""

    name: str
    min: float
    max: float
    step: float
    log: bool = False

    def contains(self, value: float) -> bool:
        return bool(np.isfinite(value)) and self.min <= value <= self.max


KNOB_RANGES: tuple[KnobRange, ...] = (
    KnobRange("bond0", 0.0, 4.0, 0.05),
    KnobRange("bond1", 0.0, 4.0, 0.05),
    KnobRange("bond2", 0.0, 4.0, 0.05),
    KnobRange("single_weight", 0.0, 2.0, 0.05),
    KnobRange("single_bias", -3.0, 1.0, 0.05),
    KnobRange("and_weight", 0.0, 2.0, 0.05),
    KnobRange("and_bias", -3.0, 1.0, 0.05),
    KnobRange("eps", 1e-8, 10.0, 0.25, log=True),
)
SWITCHES: tuple[str, ...] = ("scale", "causal", "positions")  # block.forward's switches, each True by default …
SWITCH_DEFAULTS = {"scale": True, "causal": False, "positions": True}  # … except the causal mask


def knob_range(name: str) -> KnobRange:
    for knob in KNOB_RANGES:
        if knob.name == name:
            return knob
    raise ValueError(f"knob must be one of {[k.name for k in KNOB_RANGES]}, got {name!r}")


# ---------------------------------------------------------------- intended relations and detectors


@dataclass(frozen=True)
class RelationOutcome:
    """One relation a bond intends in a sentence (query word → noun key, in the bond's head) and how it fares."""

    bond: int  # index into preset.BONDS
    head: int
    query_pos: int
    key_pos: int
    weight: float  # attn[head, query_pos, key_pos]
    winner_pos: int  # argmax of the attn row (the first, on a tie)
    runner_up_pos: int  # the best position other than key_pos
    runner_up_weight: float

    @property
    def wins(self) -> bool:
        return self.winner_pos == self.key_pos

    @property
    def margin(self) -> float:
        """The intended key's weight minus the best other key's (> 0 iff it wins outright)."""
        return self.weight - self.runner_up_weight


def word_category(token_id: int) -> int:
    """The category dimension (d0 … d7) of a vocabulary word, from the preset's lexicon."""
    return preset.LEXICON[preset.VOCAB[int(token_id)]][0]


def intended_relations(tokens) -> tuple[tuple[int, int, int], ...]:
    """(bond, query position, key position) for every pair a bond was made for: a query word of the bond's
    query category and a key word of its key category (a noun), ordered by query position, bond, key position.

    On the eight example sentences this gives exactly the relations PRESET.md lists for them.
    """
    categories = [word_category(t) for t in tokens]
    return tuple(
        (b, i, j)
        for i, ci in enumerate(categories)
        for b, bond in enumerate(preset.BONDS)
        if ci == bond.query_dim
        for j, cj in enumerate(categories)
        if cj == bond.key_dim and j != i
    )


def relation_outcomes(trace: BlockTrace) -> tuple[RelationOutcome, ...]:
    """Each intended relation of the trace's sentence with its weight, the row's winner and the runner-up."""
    _check_trace(trace)
    outcomes = []
    for b, i, j in intended_relations(trace.tokens):
        head = preset.BONDS[b].head
        row = trace.attn[head, i]
        others = row.copy()
        others[j] = -np.inf
        runner = int(np.argmax(others))
        outcomes.append(RelationOutcome(b, head, i, j, float(row[j]), int(np.argmax(row)), runner, float(row[runner])))
    return tuple(outcomes)


def firing_detectors(trace: BlockTrace) -> tuple[tuple[int, int, float], ...]:
    """(t, k, ffn_h[t, k]) for every detector that fires (ffn_h > FIRING_THRESHOLD), by position then unit."""
    _check_trace(trace)
    rows, cols = np.nonzero(trace.ffn_h > FIRING_THRESHOLD)  # C order: by position, then unit
    return tuple((int(t), int(k), float(trace.ffn_h[t, k])) for t, k in zip(rows, cols, strict=True))


# ---------------------------------------------------------------- what the page cites about the explorer

KERNEL_TOLERANCE = 1e-12
"""The kernel equals src within this, on every intermediate (tests/kernel/test_kernel.py asserts it)."""
KERNEL_RANDOM_CASES = 1000
"""How many seeded random inputs (words, knobs, switches, weights) tests/kernel compares besides the 8 sentences."""
EXAMPLE = "これ は 大きい 猫 です"
"""The page's own example: five words of the vocabulary that none of the eight sentences is."""


def explore(text: str, **settings: float | bool) -> BlockTrace:
    """The trace the explorer shows for ``text`` with these knobs (bond0, …, eps) and switches (scale, …)."""
    unknown = sorted(set(settings) - set(preset.KNOB_NAMES) - set(SWITCHES))
    if unknown:
        raise ValueError(f"unknown setting(s) {unknown}; knobs {list(preset.KNOB_NAMES)}, switches {list(SWITCHES)}")
    knobs = {k: v for k, v in settings.items() if k in preset.KNOB_NAMES}
    switches = {k: v for k, v in settings.items() if k in SWITCHES}
    return forward(preset.build_preset_with(**knobs), tokenize(text), **switches)


def outcome(text: str, relation: int, **settings: float | bool) -> RelationOutcome:
    """Relation number ``relation`` (in the order of :func:`intended_relations`) of ``text`` under the settings."""
    outcomes = relation_outcomes(explore(text, **settings))
    if isinstance(relation, bool) or not isinstance(relation, int) or not 0 <= relation < len(outcomes):
        raise ValueError(f"relation must be 0 … {len(outcomes) - 1} for {text!r}, got {relation!r}")
    return outcomes[relation]


def with_largest_eps() -> BlockTrace:
    """The page's example with ε at the top of its slider (what the page's last observation is about)."""
    return explore(EXAMPLE, eps=knob_range("eps").max)


# ---------------------------------------------------------------- derivations of every stage

FORMULAS: dict[str, str] = {
    **dv.FORMULAS,
    "X_tok": r"X_{\mathrm{tok}}[t,d] = W_E[x_t,d]",
    "X_pos": (
        r"W_P[t,d] = \begin{cases}\sin(t\,\omega_i) & (d = 2i)\\ \cos(t\,\omega_i) & (d = 2i+1)\end{cases},"
        r"\quad \omega_i = 10000^{-2i/d_{\mathrm{model}}}"
    ),
    "X": r"X[t,d] = X_{\mathrm{tok}}[t,d] + W_P[t,d]",
    "Q": r"Q[t,h,k] = \sum_d X[t,d]\,W_Q[d,\,h\,d_k + k]",
    "K": r"K[t,h,k] = \sum_d X[t,d]\,W_K[d,\,h\,d_k + k]",
    "V": r"V[t,h,k] = \sum_d X[t,d]\,W_V[d,\,h\,d_k + k]",
    "head_out": r"\mathrm{head\_out}[t,h,k] = \sum_j \mathrm{attn}[h,t,j]\,V[j,h,k]",
    "Y": (
        r"Y[t,d] = \sum_g \mathrm{concat}[t,g]\,W_O[g,d],"
        r"\quad \mathrm{concat}[t,\,h\,d_k + k] = \mathrm{head\_out}[t,h,k]"
    ),
    "residual1": r"\mathrm{residual1}[t,d] = X[t,d] + Y[t,d]",
    "ffn_pre": r"\mathrm{ffn\_pre}[t,k] = \sum_d \mathrm{ln1\_out}[t,d]\,W_1[d,k] + b_1[k]",
    "ffn_out": r"\mathrm{ffn\_out}[t,d] = \sum_k \mathrm{ffn\_h}[t,k]\,W_2[k,d] + b_2[d]",
    "residual2": r"\mathrm{residual2}[t,d] = \mathrm{ln1\_out}[t,d] + \mathrm{ffn\_out}[t,d]",
    # the switched-off variants
    "scores_unscaled": r"\mathrm{scores}[h,i,j] = \sum_k Q[i,h,k]\,K[j,h,k]",
    "attn_causal": (
        r"\mathrm{attn}[h,i,j] = \frac{\exp(\mathrm{scores}[h,i,j] + M_{ij} - m)}"
        r"{\sum_{j'} \exp(\mathrm{scores}[h,i,j'] + M_{ij'} - m)},\quad M_{ij} = \begin{cases}0 & (j \le i)\\"
        r" -\infty & (j > i)\end{cases},\quad m = \max_{j' \le i} \mathrm{scores}[h,i,j']"
    ),
    "X_pos_off": r"X_{\mathrm{pos}}[t,d] = 0 \quad (W_P \text{ なし})",
}


def derive_cell(
    trace: BlockTrace,
    weights: BlockWeights,
    stage: str,
    index: tuple[int, ...],
    *,
    scale: bool = True,
    causal: bool = False,
    positions: bool = True,
) -> dv.Derivation:
    """The derivation of ``trace.<stage>[index]`` (the trace's own index order) for the block run with these
    switches. The five stages of :mod:`transformer_math.derivations` come from there unchanged when the
    switches are the notes' (√d_k on, no mask); the others are recomputed here the same way: the non-zero
    terms, the intermediates, and the value from them.
    """
    _check_trace(trace)
    _check_stage(stage)
    shape = getattr(trace, stage).shape
    if not isinstance(index, (tuple, list)) or len(index) != len(shape):
        raise ValueError(f"index for {stage} must be a tuple of {len(shape)} integers, got {index!r}")
    index = tuple(_index(f"index[{n}]", v, size) for n, (v, size) in enumerate(zip(index, shape, strict=True)))
    if stage == "scores" and not scale:
        return _derive_unscaled_score(trace, *index)
    if stage == "attn" and causal:
        return _derive_causal_attn(trace, *index)
    if stage in dv.STAGES:
        return dv.derive(trace, stage, index, weights)
    return _DERIVE[stage](trace, weights, index, positions)


def _products(stage, index, a_name, a, a_idx, b_name, b, b_idx, n) -> tuple[tuple[dv.Term, ...], int]:
    """The non-zero products a[a_idx(m)]·b[b_idx(m)], m = 0 … n−1, as terms, and how many were exactly 0."""
    terms, n_zero = [], 0
    for m in range(n):
        x, y = float(a[a_idx(m)]), float(b[b_idx(m)])
        if x * y == 0.0:
            n_zero += 1
            continue
        fa = dv.Factor(f"{a_name}[{_join(a_idx(m))}]", x)
        fb = dv.Factor(f"{b_name}[{_join(b_idx(m))}]", y)
        terms.append(dv.Term(f"{fa.label} × {fb.label}", (fa, fb), x * y))
    return tuple(terms), n_zero


def _join(idx) -> str:
    return ",".join(str(i) for i in (idx if isinstance(idx, tuple) else (idx,)))


_SUM_LATEX = {
    "Q": r"\sum_d X[t,d]\,W_Q[d,g]", "K": r"\sum_d X[t,d]\,W_K[d,g]", "V": r"\sum_d X[t,d]\,W_V[d,g]",
    "head_out": r"\sum_j \mathrm{attn}[h,t,j]\,V[j,h,k]", "Y": r"\sum_g \mathrm{concat}[t,g]\,W_O[g,d]",
    "ffn_pre": r"\sum_d \mathrm{ln1\_out}[t,d]\,W_1[d,k]", "ffn_out": r"\sum_k \mathrm{ffn\_h}[t,k]\,W_2[k,d]",
}  # fmt: skip
_BIAS_LATEX = {"ffn_pre": r"b_1[k]", "ffn_out": r"b_2[d]"}


def _sum_of_products(stage, index, a_name, a, a_idx, b_name, b, b_idx, n, dot, bias=None) -> dv.Derivation:
    # The full dot product (zeros included) keeps the trace's own rounding, as derivations.derive_score does.
    terms, n_zero = _products(stage, index, a_name, a, a_idx, b_name, b, b_idx, n)
    inter = [dv.Quantity("sum", _SUM_LATEX[stage], float(dot))]
    value = float(dot)
    if bias is not None:
        inter.append(dv.Quantity("bias", _BIAS_LATEX[stage], float(bias)))
        value = float(dot) + float(bias)
    return dv.Derivation(stage, index, FORMULAS[stage], terms, n_zero, tuple(inter), value)


def _addends(stage, index, parts: tuple[tuple[str, float], ...]) -> dv.Derivation:
    """A cell that is the sum of named parts (X = X_tok + X_pos, residual1 = X + Y, …); zero parts left out."""
    terms = tuple(dv.Term(label, (dv.Factor(label, v),), v) for label, v in parts if v != 0.0)
    value = 0.0
    for _, v in parts:
        value += v
    return dv.Derivation(stage, index, FORMULAS[stage], terms, len(parts) - len(terms), (), value)


def _derive_x_tok(trace, weights, index, positions):
    t, d = index
    token = int(trace.tokens[t])
    label = f"W_E[{token},{d}]"
    value = float(weights.W_E[token, d])
    terms = (dv.Term(label, (dv.Factor(label, value),), value),) if value != 0.0 else ()
    return dv.Derivation("X_tok", index, FORMULAS["X_tok"], terms, 1 - len(terms), (), value)


def _derive_x_pos(trace, weights, index, positions):
    t, d = index
    if not positions:
        return dv.Derivation("X_pos", index, FORMULAS["X_pos_off"], (), 0, (), 0.0)
    omega = float(ops.pe_angular_frequencies(weights.d_model)[d // 2])
    angle = t * omega
    value = float(np.sin(angle) if d % 2 == 0 else np.cos(angle))
    inter = (dv.Quantity("omega", r"\omega_i", omega), dv.Quantity("angle", r"t\,\omega_i", angle))
    return dv.Derivation("X_pos", index, FORMULAS["X_pos"], (), 0, inter, value)


def _derive_x(trace, weights, index, positions):
    t, d = index
    parts = ((f"X_tok[{t},{d}]", float(trace.X_tok[t, d])), (f"X_pos[{t},{d}]", float(trace.X_pos[t, d])))
    return _addends("X", index, parts)


def _derive_projection(name: str):
    matrix_name = f"W_{name}"

    def derive(trace, weights, index, positions):
        t, head, k = index
        d_k = trace.Q.shape[2]
        g = head * d_k + k
        W = getattr(weights, matrix_name)
        return _sum_of_products(name, index, "X", trace.X, lambda m: (t, m), matrix_name, W, lambda m: (m, g),
                                weights.d_model, trace.X[t, :] @ W[:, g])  # fmt: skip

    return derive


def _derive_head_out(trace, weights, index, positions):
    t, head, k = index
    T = trace.attn.shape[1]
    return _sum_of_products("head_out", index, "attn", trace.attn, lambda j: (head, t, j), "V", trace.V,
                            lambda j: (j, head, k), T, trace.attn[head, t, :] @ trace.V[:, head, k])  # fmt: skip


def _derive_y(trace, weights, index, positions):
    t, d = index
    W_O, concat = weights.W_O, trace.concat
    return _sum_of_products("Y", index, "concat", concat, lambda g: (t, g), "W_O", W_O, lambda g: (g, d),
                            concat.shape[1], concat[t, :] @ W_O[:, d])  # fmt: skip


def _derive_residual1(trace, weights, index, positions):
    t, d = index
    return _addends("residual1", index, ((f"X[{t},{d}]", float(trace.X[t, d])), (f"Y[{t},{d}]", float(trace.Y[t, d]))))


def _derive_ffn_pre(trace, weights, index, positions):
    t, k = index
    return _sum_of_products("ffn_pre", index, "ln1_out", trace.ln1_out, lambda d: (t, d), "W1", weights.W1,
                            lambda d: (d, k), weights.d_model, trace.ln1_out[t, :] @ weights.W1[:, k],
                            weights.b1[k])  # fmt: skip


def _derive_ffn_out(trace, weights, index, positions):
    t, d = index
    return _sum_of_products("ffn_out", index, "ffn_h", trace.ffn_h, lambda k: (t, k), "W2", weights.W2,
                            lambda k: (k, d), weights.d_ff, trace.ffn_h[t, :] @ weights.W2[:, d],
                            weights.b2[d])  # fmt: skip


def _derive_residual2(trace, weights, index, positions):
    t, d = index
    parts = ((f"ln1_out[{t},{d}]", float(trace.ln1_out[t, d])), (f"ffn_out[{t},{d}]", float(trace.ffn_out[t, d])))
    return _addends("residual2", index, parts)


_DERIVE = {
    "X_tok": _derive_x_tok, "X_pos": _derive_x_pos, "X": _derive_x,
    "Q": _derive_projection("Q"), "K": _derive_projection("K"), "V": _derive_projection("V"),
    "head_out": _derive_head_out, "Y": _derive_y, "residual1": _derive_residual1,
    "ffn_pre": _derive_ffn_pre, "ffn_out": _derive_ffn_out, "residual2": _derive_residual2,
}  # fmt: skip


def _derive_unscaled_score(trace: BlockTrace, head: int, i: int, j: int) -> dv.Derivation:
    """scores[head, i, j] without the division by √d_k: the sum of the products is the value."""
    scaled = dv.derive_score(trace, head, i, j)  # its terms and sum are the same; only the division goes
    dot = scaled.intermediate("sum")
    inter = tuple(q for q in scaled.intermediates if q.name in ("d_k", "sum"))
    return dv.Derivation("scores", (head, i, j), FORMULAS["scores_unscaled"], scaled.terms, scaled.n_zero_terms,
                         inter, dot)  # fmt: skip


def _derive_causal_attn(trace: BlockTrace, head: int, i: int, j: int) -> dv.Derivation:
    """attn[head, i, j] under the causal mask: only keys j' ≤ i enter the softmax; a masked cell is exactly 0."""
    row = trace.scores[head, i, : i + 1]  # the visible keys; scores are stored before the mask
    m = float(np.max(row))
    exps = np.exp(row - m)
    terms = tuple(
        dv.Term(f"exp(scores[{head},{i},{jj}] − m)", (dv.Factor(f"scores[{head},{i},{jj}]", float(row[jj])),), float(e))
        for jj, e in enumerate(exps)
    )
    total = float(np.sum(exps))
    numerator = float(exps[j]) if j <= i else 0.0
    inter = (
        dv.Quantity("max", r"m = \max_{j' \le i} \mathrm{scores}[h,i,j']", m),
        dv.Quantity("numerator", r"\exp(\mathrm{scores}[h,i,j] + M_{ij} - m)", numerator),
        dv.Quantity("sum", r"\sum_{j' \le i} \exp(\mathrm{scores}[h,i,j'] - m)", total),
    )
    n_masked = trace.scores.shape[2] - (i + 1)
    return dv.Derivation("attn", (head, i, j), FORMULAS["attn_causal"], terms, n_masked, inter, numerator / total)


# ---------------------------------------------------------------- argument checks


def _check_trace(trace: object) -> BlockTrace:
    if not isinstance(trace, BlockTrace):
        raise ValueError(f"trace must be a BlockTrace, got {type(trace).__name__}")
    return trace


def _check_stage(stage: object) -> str:
    if stage not in EXPLORER_STAGES:
        raise ValueError(f"stage must be one of {EXPLORER_STAGES}, got {stage!r}")
    return stage


def _index(name: str, value: object, size: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise ValueError(f"{name} must be an integer 0 … {size - 1}, got {value!r}")
    return int(value)


LABELS = {
    "KERNEL_RANDOM_CASES": "ブラウザの計算を確かめた乱数の入力の数",
    "KERNEL_TOLERANCE": "ブラウザの計算とほかのページの計算が一致する幅",
    "SDPA_N": "パネルのクエリとキーの数",
    "SDPA_MAX_D_K": "パネルの d_k の最大",
    "sdpa_states()": "パネルの全設定",
    "sdpa_state()": "d_k = {0}・√d_k で割る {1}・マスク {2} の設定",
    "sdpa_state().scores_std": "d_k = {0}・√d_k で割る {1}・マスク {2} のスコアの標準偏差",
    "sdpa_state().mean_row_max": "d_k = {0}・√d_k で割る {1}・マスク {2} の各行の最大の重みの平均",
    "sdpa_state().weights": "d_k = {0}・√d_k で割る {1}・マスク {2} の重み",
    "sdpa_max_row_sum_error()": "全設定の行和の 1 からのずれの最大",
    "sdpa_gradient()": "d_k = {0}・√d_k で割る {1} の勾配の測定",
    "sdpa_gradient().jacobian_norm": "d_k = {0}・√d_k で割る {1} の softmax のヤコビアンの大きさ",
    "sdpa_gradient().d_scores_rms": "d_k = {0}・√d_k で割る {1} のスコアに届く勾配の RMS",
    "PE_D_MODEL": "パネルの d_model",
    "PE_POSITIONS": "パネルの位置の数",
    "pe_table()": "パネルの位置エンコーディングの表",
    "EXAMPLE": "このページの例の文「これ は 大きい 猫 です」",
    "outcome()": "{0} の {i1} つ目の関係 (設定 {2})",
    "outcome().weight": "{0} の {i1} つ目の関係の重み (設定 {2})",
    "outcome().margin": "{0} の {i1} つ目の関係の次点との差 (設定 {2})",
    "outcome().wins": "{0} の {i1} つ目の関係が勝つ (設定 {2})",
    "explore()": "{0} の順伝播 (設定 {1})",
    "explore().ffn_h": "{0} の順伝播の ffn_h (設定 {1})",
    "explore().ln1_out": "{0} の順伝播の ln1_out (設定 {1})",
    "explore().residual1": "{0} の順伝播の residual1 (設定 {1})",
    "firing_detectors()": "{0} で発火している検出器",
    "knob_range()": "つまみ「{0}」の範囲",
    "knob_range().max": "つまみ「{0}」の最大",
    "with_largest_eps()": "ε を最大にした例の文の順伝播",
    "with_largest_eps().ln1_out": "ε を最大にした例の文の ln1_out",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
