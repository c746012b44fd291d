"""The 「動かしてみる」 page (docs/tryit/index.md): what its three panels show, computed from the math layer.

* Scaled dot-product attention over a fixed, seeded set of q and k, for d_k = 1 … 64, with and without the
  division by √d_k and with and without the causal mask (every state precomputed: ``sdpa_grid``), and for each
  d_k and scale the size of the softmax's Jacobian and of the gradient reaching the scores
  (``sdpa_gradient``, from ``backward.sqrt_dk_sweep``).
* The sinusoidal positional encoding for d_model = 64, i = 0 … 31, pos = 0 … 127.
* The sentence explorer: the preset block on any five words of the vocabulary, with the preset's knobs and the
  block's switches, computed in the browser by the kernel (docs/assets/javascripts/kernel.js) that the tests
  hold equal to ``transformer_math`` (the forward pass, the derivation of every cell of every stage, the
  relations the bonds intend and the detectors that fire: ``derivations`` and ``relations``). This module
  says which stages, knobs and switches the explorer offers, and what the page cites about it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from transformer_math import ENCODER, SENTENCES, backward, forward, ops, tokenize
from transformer_math.block import BlockTrace
from transformer_math.derivations import CELL_STAGES
from transformer_math.relations import RelationOutcome, relation_outcomes
from transformer_math.relations import firing_detectors as firing_detectors  # the page cites tryit.firing_detectors

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

EXPLORER_STAGES: tuple[str, ...] = CELL_STAGES  # every intermediate with a derivation, in the order of the pass
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


# ---------------------------------------------------------------- what the page cites about the explorer

KERNEL_TOLERANCE = 1e-12
"""The kernel equals src within this, on every intermediate (tests/kernel/test_kernel.py asserts it)."""
KERNEL_RANDOM_CASES = 1000
"""How many seeded random inputs (words, knobs, switches, weights) tests/kernel compares besides the 8 sentences."""
EXAMPLE = "これ は 大きい 猫 です"
"""The page's own example: five words of the vocabulary that none of the eight sentences is."""


def explore(text: str, **settings: float | bool) -> BlockTrace:
    """The trace the explorer shows for ``text`` with these knobs (bond0, …, eps) and switches (scale, …)."""
    names = ENCODER.knob_names
    unknown = sorted(set(settings) - set(names) - set(SWITCHES))
    if unknown:
        raise ValueError(f"unknown setting(s) {unknown}; knobs {list(names)}, switches {list(SWITCHES)}")
    knobs = {k: v for k, v in settings.items() if k in names}
    switches = {k: v for k, v in settings.items() if k in SWITCHES}
    return forward(ENCODER.weights_with(**knobs), tokenize(text), **switches)


def outcome(text: str, relation: int, **settings: float | bool) -> RelationOutcome:
    """Relation number ``relation`` (in the order of ``relations.intended_relations``) of ``text`` under the
    settings."""
    outcomes = relation_outcomes(explore(text, **settings))
    if isinstance(relation, bool) or not isinstance(relation, int) or not 0 <= relation < len(outcomes):
        raise ValueError(f"relation must be 0 … {len(outcomes) - 1} for {text!r}, got {relation!r}")
    return outcomes[relation]


def all_tie_with_bond_off(bond: int) -> bool:
    """Do the relations bond ``bond`` intends in the eight sentences (there are some) all tie once its strength
    is 0?"""
    if bond not in range(len(ENCODER.bonds)):
        raise ValueError(f"bond must be 0 … {len(ENCODER.bonds) - 1}, got {bond!r}")
    off = {f"bond{bond}": 0.0}
    outcomes = [o for s in SENTENCES for o in relation_outcomes(explore(s.text, **off)) if o.bond == bond]
    return bool(outcomes) and all(o.ties for o in outcomes)


def with_largest_eps() -> BlockTrace:
    """The page's example with ε at the top of its slider (what the page's last observation is about)."""
    return explore(EXAMPLE, eps=knob_range("eps").max)


# ---------------------------------------------------------------- argument checks


def _check_trace(trace: object) -> BlockTrace:
    if not isinstance(trace, BlockTrace):
        raise ValueError(f"trace must be a BlockTrace, got {type(trace).__name__}")
    return trace


def _check_stage(stage: object) -> str:
    if stage not in EXPLORER_STAGES:
        raise ValueError(f"stage must be one of {EXPLORER_STAGES}, got {stage!r}")
    return stage


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
    "all_tie_with_bond_off()": "結合 {0} を 0 にすると、例文のその結合の関係がどれも引き分けになる",
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
