"""Every state the site's interactive panels can reach, computed here so the browser only selects and draws.

Three panels (seed 003 「動かしてみる」 and the simulator's click-to-derive):

* scaled dot-product attention over a fixed, seeded set of q and k, for d_k = 1 … 64, with and without the
  division by √d_k and with and without the causal mask;
* the sinusoidal positional encoding for d_model = 64, i = 0 … 31, pos = 0 … 127;
* the sentence explorer: every stage of the preset block for the eight sentences, with the derivation of
  every cell of scores, attn, ln1_out, ffn_h and ln2_out (see :mod:`derivations`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import ops
from .block import BlockTrace

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


@lru_cache(maxsize=1)
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


def sdpa_states() -> list[SdpaState]:
    """Every reachable state, ordered d_k-major, then scale (False, True), then causal (False, True)."""
    return [
        sdpa_state(d_k, scale, causal)
        for d_k in range(1, SDPA_MAX_D_K + 1)
        for scale in (False, True)
        for causal in (False, True)
    ]


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


# ---------------------------------------------------------------- sentence explorer

# Stage name → (how the panel titles its axes). Q, K, V, head_out are shown as (T, h·d_k).
EXPLORER_STAGES: tuple[str, ...] = (
    "X_tok", "X_pos", "X", "Q", "K", "V", "scores", "attn", "head_out", "Y",
    "residual1", "ln1_out", "ffn_pre", "ffn_h", "ffn_out", "residual2", "ln2_out",
)  # fmt: skip
PER_HEAD_STAGES = ("scores", "attn")  # (h, T, T)
SPLIT_STAGES = ("Q", "K", "V", "head_out")  # (T, h, d_k) → (T, h·d_k)


def explorer_matrix(trace: BlockTrace, stage: str) -> np.ndarray:
    """The stage as the panel draws it: (h, T, T) for scores/attn, otherwise a (T, columns) matrix."""
    if not isinstance(trace, BlockTrace):
        raise ValueError(f"trace must be a BlockTrace, got {type(trace).__name__}")
    if stage not in EXPLORER_STAGES:
        raise ValueError(f"stage must be one of {EXPLORER_STAGES}, got {stage!r}")
    value = getattr(trace, stage)
    if stage in SPLIT_STAGES:
        return ops.concat_heads(value)
    return value
