"""Computations behind the notes §5–§8: LayerNorm statistics and where each firing detector's input comes from.

The question this module answers: when an FFN detector fires (ffn_h > 0.5), is it the *meaning* of the words
(the token embedding W_E) or their *position* (the positional encoding W_P) that pushes it over its bias?

Two independent routes, both exact in what they claim:

1. **Linear attribution with the realised nonlinear scalars frozen.** Given the attention weights ``attn``
   and each token's LayerNorm scale √(σ²+ε) as they came out of the real forward pass, everything between
   X and ffn_pre is linear: Y = concat_h(attn_h · (X W_V)_h) · W_O, residual1 = X + Y, ln1_out = (residual1 −
   mean) / √(σ²+ε) (γ = 1, β = 0 in the preset; γ and β are handled anyway). Split X = X_tok + X_pos and
   push each part through the same linear map: ffn_pre = tok + pos + b1 holds to rounding error. The tok and
   pos parts are further split into "own row" (the token's own residual path) and "via attention" (Y).
   What this does *not* capture: that position also changes attn and σ themselves.
2. **Counterfactual: the same forward with W_P switched off.** This captures every path (attn and σ
   included) but is not additive. A detector that fires with W_P and not without it is position-driven in
   the strongest sense.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from . import ops, preset
from .block import BlockTrace, BlockWeights, forward, forward_from_embeddings

FIRING_THRESHOLD = 0.5
"""ffn_h above this counts as "the detector fires" (issue 5's criterion)."""

FLOAT64_EPS = float(np.finfo(np.float64).eps)
"""The spacing of float64 numbers near 1: the scale of the rounding differences §9 reports."""

CROSSCHECK_EPS_BOUND = 64
"""§9 promises numpy vs PyTorch differences ≤ this many machine epsilons; the §9 snippet asserts it at build time.

Measured 8 ε on the build machine (the exact multiple depends on CPU and BLAS): the bound leaves room for
other machines while staying far below the 1e-12 test tolerance and any formula error (§9: 0.098).
"""


# ----------------------------------------------------------------------------------------------- LayerNorm
@dataclass(frozen=True)
class LayerNormStats:
    """Per-token statistics of one LayerNorm: its input x (T, d) and output y (T, d)."""

    mean_in: np.ndarray  # (T,) μ_t
    std_in: np.ndarray  # (T,) σ_t (biased, without ε)
    scale: np.ndarray  # (T,) √(σ_t² + ε), what LayerNorm divides by
    mean_out: np.ndarray  # (T,) ≈ 0 when γ = 1, β = 0
    std_out: np.ndarray  # (T,) ≈ 1 (slightly below: ε sits in the denominator)


def layer_norm_stats(x: np.ndarray, y: np.ndarray, eps: float = preset.EPS) -> LayerNormStats:
    """μ, σ and √(σ²+ε) of LayerNorm's input x, and the mean/std of its output y. x, y: (T, d)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.ndim != 2 or x.shape != y.shape:
        raise ValueError(f"layer_norm_stats: x and y must be 2-D of one shape (T, d), got {x.shape} and {y.shape}")
    std_in = x.std(axis=1)
    return LayerNormStats(
        mean_in=x.mean(axis=1),
        std_in=std_in,
        scale=np.sqrt(std_in**2 + eps),
        mean_out=y.mean(axis=1),
        std_out=y.std(axis=1),
    )


def ln1_stats(trace: BlockTrace, eps: float = preset.EPS) -> LayerNormStats:
    """LayerNorm 1: residual1 → ln1_out."""
    return layer_norm_stats(trace.residual1, trace.ln1_out, eps)


def ln2_stats(trace: BlockTrace, eps: float = preset.EPS) -> LayerNormStats:
    """LayerNorm 2: residual2 → ln2_out."""
    return layer_norm_stats(trace.residual2, trace.ln2_out, eps)


# ------------------------------------------------------------------------------------- counterfactual forward
def forward_with_position_scale(weights: BlockWeights, tokens: np.ndarray, position_scale: float) -> BlockTrace:
    """The block forward with X = W_E[tokens] + position_scale · W_P; position_scale = 0 removes position.

    Reuses :func:`transformer_math.block.forward` for the token part and recomputes from X on, with the
    same ops, so that scale 1 reproduces the real trace exactly (tested).
    """
    if not np.isfinite(position_scale):
        raise ValueError(f"position_scale must be finite, got {position_scale!r}")
    base = forward(weights, tokens)
    X_pos = position_scale * base.X_pos
    return forward_from_embeddings(weights, base.tokens, base.X_tok, X_pos)


@cache
def trace_without_position(sentence_number: int) -> BlockTrace:
    """Sentence 1 … 8 through the preset block with W_P = 0 (the counterfactual of route 2)."""
    preset.sentence(sentence_number)
    tokens = preset.SENTENCES[sentence_number - 1].token_ids
    return forward_with_position_scale(preset.build_preset(), tokens, 0.0)


# ------------------------------------------------------------------------------------ linear attribution
def value_path(weights: BlockWeights, attn: np.ndarray, component: np.ndarray) -> np.ndarray:
    """The attention output Y that a part of X would produce with the attention weights held fixed.

    attn: (h, T, T), component: (T, d_model) → (T, d_model). Linear in ``component``; summed over the
    parts of X it gives the real Y.
    """
    h = weights.n_heads
    V = ops.split_heads(component @ weights.W_V, h).transpose(1, 0, 2)  # (h, T, d_k)
    return ops.concat_heads((attn @ V).transpose(1, 0, 2)) @ weights.W_O  # (T, d_model)


@dataclass(frozen=True)
class Ln1Parts:
    """ln1_out split by origin, with attn and each token's LayerNorm scale held at their real values.

    own_tok + attn_tok + own_pos + attn_pos + beta == ln1_out (to rounding). Each part is (T, d_model).
    """

    own_tok: np.ndarray  # from the token's own W_E row on the residual path
    attn_tok: np.ndarray  # from W_E rows gathered by attention (Y's token part)
    own_pos: np.ndarray  # from the token's own W_P row
    attn_pos: np.ndarray  # from W_P rows gathered by attention
    beta: np.ndarray  # (d_model,) LayerNorm 1's shift (0 in the preset)

    @property
    def tok(self) -> np.ndarray:
        return self.own_tok + self.attn_tok

    @property
    def pos(self) -> np.ndarray:
        return self.own_pos + self.attn_pos


def ln1_parts(weights: BlockWeights, trace: BlockTrace) -> Ln1Parts:
    """Split ln1_out into token / position parts, each on the own-row and the attention path."""
    scale = np.sqrt(trace.residual1.var(axis=1) + weights.eps)[:, None]  # (T, 1), held fixed

    def normalise(part: np.ndarray) -> np.ndarray:
        # LayerNorm without its nonlinearity: centring is linear, the divisor is the real one.
        return (part - part.mean(axis=1, keepdims=True)) / scale * weights.ln1_gamma

    return Ln1Parts(
        own_tok=normalise(trace.X_tok),
        attn_tok=normalise(value_path(weights, trace.attn, trace.X_tok)),
        own_pos=normalise(trace.X_pos),
        attn_pos=normalise(value_path(weights, trace.attn, trace.X_pos)),
        beta=weights.ln1_beta,
    )


@dataclass(frozen=True)
class DetectorTerm:
    """One input dimension d of a detector: W1[d, k] times ln1_out[t, d] = W1[d, k] · (tok + pos)."""

    d: int
    dim_name: str  # DIM_NAMES[d]
    weight: float  # W1[d, k]
    tok: float  # token part of ln1_out[t, d] (route 1)
    pos: float  # position part of ln1_out[t, d]

    @property
    def ln1_out(self) -> float:
        return self.tok + self.pos

    @property
    def contribution(self) -> float:
        return self.weight * (self.tok + self.pos)


@dataclass(frozen=True)
class DetectorAttribution:
    """Where one detector's pre-activation ffn_pre[t, k] comes from, by both routes."""

    sentence: int  # 1 … 8
    t: int  # token position
    word: str
    k: int  # hidden unit
    name: str  # NEURON_NAMES[k]
    ffn_pre: float
    ffn_h: float
    bias: float  # b1[k]
    own_tok: float  # route 1, four parts (+ beta_part) that sum with the bias to ffn_pre
    attn_tok: float
    own_pos: float
    attn_pos: float
    beta_part: float  # β·W1[:, k] (0 in the preset)
    pre_without_position: float  # route 2: ffn_pre[t, k] in the forward with W_P = 0
    h_without_position: float
    terms: tuple[DetectorTerm, ...]  # route 1 per input dimension d with W1[d, k] ≠ 0

    @property
    def tok(self) -> float:
        """Contribution of the token embedding W_E (own row + via attention)."""
        return self.own_tok + self.attn_tok

    @property
    def pos(self) -> float:
        """Contribution of the positional encoding W_P (own row + via attention)."""
        return self.own_pos + self.attn_pos

    @property
    def pos_share(self) -> float:
        """pos / (|tok| + |pos|): 1 = all position, 0 = all token, negative if position works against it."""
        return self.pos / (abs(self.tok) + abs(self.pos))

    @property
    def fires_without_position(self) -> bool:
        return self.h_without_position > FIRING_THRESHOLD

    @property
    def needs_position(self) -> bool:
        """It fires in the real forward but not in the one without W_P (route 2)."""
        return not self.fires_without_position

    @property
    def position_driven(self) -> bool:
        """It needs W_P (route 2) and W_P contributes more than W_E (route 1): position, not meaning."""
        return self.needs_position and self.pos > self.tok

    @property
    def verdict(self) -> str:
        """A short Japanese label for the tables: 意味 (fires without W_P), 位置 (position-driven), or
        意味＋位置 (needs W_P to cross the threshold, but W_E contributes more)."""
        if self.position_driven:
            return "位置"
        if self.needs_position:
            return "意味＋位置"
        return "意味"


def detector_attributions(sentence_number: int) -> tuple[DetectorAttribution, ...]:
    """Every firing (ffn_h > 0.5) detector of one sentence, ordered by position then unit."""
    preset.sentence(sentence_number)
    weights = preset.build_preset()
    sentence = preset.SENTENCES[sentence_number - 1]
    trace = forward(weights, sentence.token_ids)
    parts = ln1_parts(weights, trace)
    counterfactual = trace_without_position(sentence_number)
    rows = []
    for t, k in zip(*np.nonzero(trace.ffn_h > FIRING_THRESHOLD), strict=True):
        w = weights.W1[:, k]
        rows.append(
            DetectorAttribution(
                sentence=sentence_number, t=int(t), word=sentence.words[t], k=int(k), name=preset.NEURON_NAMES[k],
                ffn_pre=float(trace.ffn_pre[t, k]), ffn_h=float(trace.ffn_h[t, k]), bias=float(weights.b1[k]),
                own_tok=float(parts.own_tok[t] @ w), attn_tok=float(parts.attn_tok[t] @ w),
                own_pos=float(parts.own_pos[t] @ w), attn_pos=float(parts.attn_pos[t] @ w),
                beta_part=float(parts.beta @ w),
                pre_without_position=float(counterfactual.ffn_pre[t, k]),
                h_without_position=float(counterfactual.ffn_h[t, k]),
                terms=tuple(
                    DetectorTerm(
                        d=int(d), dim_name=preset.DIM_NAMES[d], weight=float(w[d]),
                        tok=float(parts.tok[t, d]), pos=float(parts.pos[t, d]),
                    )
                    for d in np.flatnonzero(w)
                ),
            )
        )  # fmt: skip
    return tuple(rows)


@cache
def all_detector_attributions() -> tuple[DetectorAttribution, ...]:
    """The firing detectors of all eight sentences, in sentence order."""
    return tuple(a for n in range(1, len(preset.SENTENCES) + 1) for a in detector_attributions(n))


def find(sentence_number: int, word: str, k: int) -> DetectorAttribution:
    """The attribution of detector h_k at ``word`` in sentence n (for checked numbers in prose)."""
    for a in detector_attributions(sentence_number):
        if a.word == word and a.k == k:
            return a
    raise ValueError(f"h{k} does not fire at {word!r} in sentence {sentence_number}")


def n_firing() -> int:
    """How many (sentence, token, detector) triples fire over the eight sentences."""
    return len(all_detector_attributions())


def n_position_driven() -> int:
    return sum(a.position_driven for a in all_detector_attributions())


def n_position_exceeds_token() -> int:
    """Firing triples where route 1 alone gives W_P more than W_E (whatever route 2 says)."""
    return sum(a.pos > a.tok for a in all_detector_attributions())


def n_needs_position() -> int:
    """Firing triples that do not fire without W_P."""
    return sum(a.needs_position for a in all_detector_attributions())


def n_firing_without_position() -> int:
    """Firing triples of the real forward that still fire with W_P = 0."""
    return sum(a.fires_without_position for a in all_detector_attributions())


def position_driven_units() -> dict[str, int]:
    """Detector name → how many of its firings are position-driven (only names with at least one)."""
    counts: dict[str, int] = {}
    for a in all_detector_attributions():
        if a.position_driven:
            counts[a.name] = counts.get(a.name, 0) + 1
    return counts


def firing_count(k: int) -> int:
    """How often detector h_k fires over the 8 × T token positions."""
    return sum(a.k == k for a in all_detector_attributions())


def position_driven_count(k: int) -> int:
    return sum(a.k == k and a.position_driven for a in all_detector_attributions())


def needs_position_count(k: int) -> int:
    return sum(a.k == k and a.needs_position for a in all_detector_attributions())


def unit_mean_pos_share(k: int) -> float:
    """Mean pos_share of detector h_k over its firings (nan if it never fires)."""
    shares = [a.pos_share for a in all_detector_attributions() if a.k == k]
    return float(np.mean(shares)) if shares else float("nan")


def pe_column_means() -> np.ndarray:
    """Mean of W_P[t, d] over the T positions, per dimension d: what position adds to every token alike."""
    return ops.positional_encoding(preset.T, preset.D_MODEL).mean(axis=0)


# ------------------------------------------------------------------- the AND detectors h12 … h15, looked at closely
def and_units() -> tuple[int, ...]:
    """The hidden units wired as AND detectors (名詞 ∧ one semantic feature)."""
    first = preset.N_SINGLE_DETECTORS
    return tuple(range(first, first + len(preset.AND_DETECTOR_FEATURES)))


def _require_and_unit(k: int) -> int:
    if k not in and_units():
        raise ValueError(f"k = {k!r} is not an AND detector; those are {and_units()}")
    return preset.AND_DETECTOR_FEATURES[k - preset.N_SINGLE_DETECTORS]


def word_has_feature(word: str, k: int) -> bool:
    """Does the word's own embedding carry the semantic feature that AND detector h_k looks for?"""
    feature = _require_and_unit(k)
    return bool(preset.build_embedding()[preset.WORD_ID[word], feature] > 0)


def firings_without_feature(k: int) -> int:
    """Firings of AND detector h_k on words whose own embedding lacks its feature."""
    _require_and_unit(k)
    return sum(a.k == k and not word_has_feature(a.word, k) for a in all_detector_attributions())


def feature_input_from_position(k: int) -> tuple[float, float]:
    """(min, max) over the firings of h_k of the position part of its feature input ln1_out[t, feature]."""
    feature = _require_and_unit(k)
    values = [term.pos for a in all_detector_attributions() if a.k == k for term in a.terms if term.d == feature]
    if not values:
        raise ValueError(f"h{k} never fires on the eight sentences")
    return min(values), max(values)


def noun_half_alone_fires(a: DetectorAttribution) -> bool:
    """Would the noun input alone (W1[d0, k]·ln1_out[t, d0] + b1[k]) make AND detector h_k fire?"""
    _require_and_unit(a.k)
    noun = next(term for term in a.terms if term.d == preset.DIM_CATEGORY["noun"])
    return float(ops.gelu(np.array(noun.contribution + a.bias))) > FIRING_THRESHOLD


def n_noun_half_alone_fires(k: int) -> int:
    """Firings of AND detector h_k where the noun input alone would already fire it (the AND is not an AND)."""
    return sum(noun_half_alone_fires(a) for a in all_detector_attributions() if a.k == k)


# --------------------------------------------------------------------------------- small facts the pages quote
def gelu_threshold(level: float = FIRING_THRESHOLD) -> float:
    """The pre-activation x > 0 with GELU(x) = level (GELU is increasing for x > 0), by bisection."""
    if not level > 0:
        raise ValueError(f"level must be positive, got {level!r}")
    lo, hi = 0.0, max(1.0, 2.0 * level)
    while float(ops.gelu(np.array(hi))) < level:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if float(ops.gelu(np.array(mid))) < level else (lo, mid)
    return 0.5 * (lo + hi)


def gelu_minimum() -> tuple[float, float]:
    """(x, GELU(x)) at GELU's minimum on the negative axis (ReLU's minimum is 0), on a grid of step 1e-5."""
    x = np.linspace(-3.0, 0.0, 300_001)
    i = int(np.argmin(ops.gelu(x)))
    return float(x[i]), float(ops.gelu(x[i]))


def _all_stats(which: str, field: str) -> np.ndarray:
    stats = ln1_stats if which == "ln1" else ln2_stats
    return np.concatenate([getattr(stats(_trace(n)), field) for n in range(1, len(preset.SENTENCES) + 1)])


def stat_range(which: str, field: str) -> tuple[float, float]:
    """(min, max) of one LayerNormStats field over all 8 × T tokens; which = "ln1" or "ln2"."""
    if which not in ("ln1", "ln2"):
        raise ValueError(f"which must be 'ln1' or 'ln2', got {which!r}")
    if field not in LayerNormStats.__dataclass_fields__:
        raise ValueError(f"field must be one of {list(LayerNormStats.__dataclass_fields__)}, got {field!r}")
    values = _all_stats(which, field)
    return float(values.min()), float(values.max())


def max_abs_mean_out(which: str) -> float:
    """The largest |mean| of a LayerNorm output row over all 8 × T tokens (0 up to rounding)."""
    lo, hi = stat_range(which, "mean_out")
    return max(abs(lo), abs(hi))


def layer_norm_of_Y_alone(trace: BlockTrace, eps: float = preset.EPS) -> np.ndarray:
    """What LayerNorm 1 would output without the residual connection: LN(Y) instead of LN(X + Y)."""
    return ops.layer_norm(trace.Y, eps=eps)


def own_category_value(trace: BlockTrace, t: int, with_residual: bool = True) -> float:
    """ln1_out[t, c] at token t's own category dimension c (with the residual) or LN(Y)[t, c] (without)."""
    if t not in range(len(trace.tokens)):
        raise ValueError(f"t must be 0 … {len(trace.tokens) - 1}, got {t!r}")
    category = preset.LEXICON[preset.VOCAB[int(trace.tokens[t])]][0]
    out = trace.ln1_out if with_residual else layer_norm_of_Y_alone(trace)
    return float(out[t, category])


def n_residual_keeps_own_category() -> int:
    """How many of the 8 × T tokens have a larger own-category value with the residual than without (§5)."""
    return sum(
        own_category_value(_trace(n), t) > own_category_value(_trace(n), t, with_residual=False)
        for n in range(1, len(preset.SENTENCES) + 1)
        for t in range(preset.T)
    )


def unused_hidden_max() -> float:
    """max |ffn_h| over the unused units h16 … h31 on all eight sentences (GELU(0) = 0)."""
    first_unused = preset.N_SINGLE_DETECTORS + len(preset.AND_DETECTOR_FEATURES)
    return max(float(np.abs(_trace(n).ffn_h[:, first_unused:]).max()) for n in range(1, len(preset.SENTENCES) + 1))


def permutation_difference(sentence_number: int, position_scale: float) -> float:
    """max |block(perm X) − perm block(X)| for the reversed word order, with W_P scaled by position_scale.

    0 (to rounding) without W_P: a block without position cannot tell word orders apart.
    """
    preset.sentence(sentence_number)
    weights = preset.build_preset()
    tokens = preset.SENTENCES[sentence_number - 1].token_ids
    perm = np.arange(len(tokens))[::-1]
    out = forward_with_position_scale(weights, tokens, position_scale).ln2_out
    out_perm = forward_with_position_scale(weights, tokens[perm], position_scale).ln2_out
    return float(np.abs(out_perm - out[perm]).max())


def _trace(n: int) -> BlockTrace:
    from . import preset_trace  # the package's cache; imported here to avoid a cycle at import time

    return preset_trace(n)


def ffn_out_min() -> float:
    """The most negative ffn_out over the eight sentences: GELU's negative dip leaks through W2."""
    return min(float(_trace(n).ffn_out.min()) for n in range(1, len(preset.SENTENCES) + 1))


def block_parameter_sizes() -> dict[str, int]:
    """Number of entries of every parameter array of the preset block (W_E excluded: it is the lookup table)."""
    weights = preset.build_preset()
    return {
        name: int(value.size)
        for name, value in vars(weights).items()
        if isinstance(value, np.ndarray) and name != "W_E"
    }


def block_parameter_count() -> int:
    return sum(block_parameter_sizes().values())


def block_nonzero_count() -> int:
    """How many of those entries the hand-made preset actually sets to something other than 0."""
    weights = preset.build_preset()
    return sum(int(np.count_nonzero(getattr(weights, name))) for name in block_parameter_sizes())


def unbiased_variance_difference() -> float:
    """max |ln1_out − LN with the unbiased variance (÷ (d − 1))| over the eight sentences.

    How large a difference one wrong formula makes, next to the rounding differences of §9.
    """
    worst = 0.0
    for n in range(1, len(preset.SENTENCES) + 1):
        r = _trace(n).residual1
        unbiased = (r - r.mean(axis=1, keepdims=True)) / np.sqrt(r.var(axis=1, ddof=1, keepdims=True) + preset.EPS)
        worst = max(worst, float(np.abs(unbiased - _trace(n).ln1_out).max()))
    return worst


def permutation_difference_max(position_scale: float) -> float:
    """:func:`permutation_difference` for the worst of the eight sentences (§8)."""
    return max(permutation_difference(n, position_scale) for n in range(1, len(preset.SENTENCES) + 1))


def derivation_max_difference() -> float:
    """Largest |derivation − forward value| over every cell of every stage of derivations, all eight sentences."""
    from . import derivations  # derivations imports the traces; imported here like _trace

    worst = 0.0
    for n in range(1, len(preset.SENTENCES) + 1):
        trace = _trace(n)
        for stage in derivations.STAGES:
            for der in derivations.derive_all(trace, stage):
                worst = max(worst, abs(der.value - derivations.trace_value(trace, der)))
    return float(worst)
