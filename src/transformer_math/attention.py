"""Attention as the chapter measures it: where the mask goes, padding, the √d_k scaling, and the cost of heads.

Each function takes the sizes and the seed of its random draw, and returns plain arrays or a frozen dataclass;
the pages choose the instances (``transformer_pages.chapter.attention_kinds``). Shapes: scores and weights
(T, T) or (h, n, m); q, k, v rows are positions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import ops

LARGE_NEGATIVE = -1e9
"""What implementations add instead of −∞ (the seed's example)."""


# ---------------------------------------------------------------------------------------------------------
# Masks: before the softmax, not after
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MaskComparison:
    """One score matrix (T, T) masked three ways."""

    scores: np.ndarray  # (T, T) the scores before any mask
    masked_before: np.ndarray  # softmax(scores + M): the correct weights
    zeroed_after: np.ndarray  # softmax(scores), then j > i set to 0
    renormalised_after: np.ndarray  # zeroed_after divided by its row sums
    large_negative: np.ndarray  # softmax(scores + M) with −1e9 in place of −∞

    @property
    def row_sums_before(self) -> np.ndarray:
        return self.masked_before.sum(axis=-1)

    @property
    def row_sums_zeroed(self) -> np.ndarray:
        return self.zeroed_after.sum(axis=-1)

    @property
    def renormalise_gap(self) -> float:
        """max |renormalised_after − masked_before|: zero-then-renormalise equals masking before."""
        return float(np.max(np.abs(self.renormalised_after - self.masked_before)))

    @property
    def large_negative_gap(self) -> float:
        """max |weights with −1e9 − weights with −∞|."""
        return float(np.max(np.abs(self.large_negative - self.masked_before)))

    @property
    def future_weight(self) -> np.ndarray:
        """Per row, the weight the unmasked softmax gave to positions j > i (what zeroing throws away)."""
        unmasked = ops.softmax(self.scores)
        return np.triu(unmasked, k=1).sum(axis=-1)


def compare_mask_placement(scores: np.ndarray) -> MaskComparison:
    """Apply a causal mask to a square score matrix before and after the softmax."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or scores.shape[0] != scores.shape[1]:
        raise ValueError(f"compare_mask_placement: scores must be square (T, T), got shape {scores.shape}")
    T = scores.shape[0]
    M = ops.causal_mask(T)
    masked_before = ops.softmax(scores + M)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    zeroed_after = np.where(future, 0.0, ops.softmax(scores))
    renormalised = zeroed_after / zeroed_after.sum(axis=-1, keepdims=True)
    large_negative = ops.softmax(scores + np.where(future, LARGE_NEGATIVE, 0.0))
    return MaskComparison(scores, masked_before, zeroed_after, renormalised, large_negative)


@dataclass(frozen=True)
class PaddingDemo:
    """Self-attention over T positions of which only the first ``n_valid`` are real tokens."""

    valid: np.ndarray  # (T,) bool
    weights: np.ndarray  # (T, T) with the padding mask
    weights_unmasked: np.ndarray  # (T, T) without it
    out_change_masked: float  # max change of the real rows' output when the padding vectors change
    out_change_unmasked: float  # the same without the mask

    @property
    def weight_on_padding(self) -> float:
        """Largest weight any query gives to a padding key (0 with the mask)."""
        return float(self.weights[:, ~self.valid].max())

    @property
    def weight_on_padding_unmasked(self) -> np.ndarray:
        """Per query, total weight given to padding keys without the mask."""
        return self.weights_unmasked[:, ~self.valid].sum(axis=-1)


def padding_demo(T: int, n_valid: int, d_k: int, seed: int) -> PaddingDemo:
    """Random x (T, d_k) whose last T − n_valid rows are padding; attention with q = k = v = x.

    The padding rows are then replaced by other random vectors: with the mask the outputs of the real rows
    do not move at all; without it they do.
    """
    if not 1 <= n_valid < T:
        raise ValueError(f"padding_demo: n_valid must be in 1 … T − 1 = {T - 1}, got {n_valid!r}")
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, d_k))
    x_other = x.copy()
    x_other[n_valid:] = rng.standard_normal((T - n_valid, d_k))  # different padding content
    valid = np.arange(T) < n_valid
    mask = ops.padding_mask(valid)

    def attend(inputs: np.ndarray, m: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        out, _, w = ops.scaled_dot_product_attention(inputs, inputs, inputs, m)
        return out, w

    out_a, weights = attend(x, mask)
    out_b, _ = attend(x_other, mask)
    out_c, weights_unmasked = attend(x, None)
    out_d, _ = attend(x_other, None)
    real = slice(0, n_valid)
    return PaddingDemo(
        valid=valid,
        weights=weights,
        weights_unmasked=weights_unmasked,
        out_change_masked=float(np.max(np.abs(out_a[real] - out_b[real]))),
        out_change_unmasked=float(np.max(np.abs(out_c[real] - out_d[real]))),
    )


# ---------------------------------------------------------------------------------------------------------
# The √d_k scaling, measured
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScalingStats:
    d_k: int
    score_std_unscaled: float  # std of q·k over many random pairs (≈ √d_k)
    score_std_scaled: float  # std of q·k/√d_k (≈ 1)
    max_weight_unscaled: float  # mean over rows of the largest softmax weight, unscaled
    max_weight_scaled: float  # the same, scaled


def scaling_stats(d_k: int, n: int, trials: int, seed: int) -> ScalingStats:
    """q, k with independent N(0, 1) components; rows of n keys per query, ``trials`` queries."""
    if d_k < 1:
        raise ValueError(f"scaling_stats: d_k must be ≥ 1, got {d_k!r}")
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n, d_k))
    raw = (q @ k.transpose(0, 2, 1))[:, 0, :]  # (trials, n)
    scaled = raw / np.sqrt(d_k)
    return ScalingStats(
        d_k=d_k,
        score_std_unscaled=float(raw.std()),
        score_std_scaled=float(scaled.std()),
        max_weight_unscaled=float(ops.softmax(raw).max(axis=-1).mean()),
        max_weight_scaled=float(ops.softmax(scaled).max(axis=-1).mean()),
    )


# ---------------------------------------------------------------------------------------------------------
# Cross-attention shapes and the cost of heads
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttentionRun:
    """Shapes of one multi-head attention actually run, and the multiply-adds its products did."""

    shapes: dict[str, tuple[int, ...]]
    macs: dict[str, int]  # multiply-adds per product, counted from the operand shapes
    softmax_entries: int  # number of scores that go through exp
    attn: np.ndarray  # (h, n, m) the attention weights of every head

    @property
    def total_macs(self) -> int:
        return sum(self.macs.values())

    @property
    def projection_macs(self) -> int:
        """The four products with W^Q, W^K, W^V, W^O."""
        return sum(v for k, v in self.macs.items() if "W^" in k)

    @property
    def mixing_macs(self) -> int:
        """Q·Kᵀ and A·V, the products that grow with n·m."""
        return self.macs["Q K^T"] + self.macs["A V"]


def run_attention(n: int, m: int, d_model: int, h: int, seed: int, execute: bool = True) -> AttentionRun:
    """Multi-head attention with random weights: n queries from X_dec (n, d_model), m keys/values from X_enc.

    With n = m and X_dec = X_enc this is self-attention. Multiply-adds are counted from the operand shapes
    of the products that are really executed (a (a×b)·(b×c) product costs a·b·c), independently of the
    closed forms in :mod:`counting`. ``execute=False`` is a dry run: the same code path with every shape
    checked and every product counted, but each product returns zeros of its result shape instead of doing
    the arithmetic (the counts of n = 512 then cost milliseconds, not seconds; tests check that both
    modes count the same).
    """
    if d_model % h:
        raise ValueError(f"run_attention: h = {h} must divide d_model = {d_model}")
    rng = np.random.default_rng(seed)
    d_k = d_model // h
    draw = rng.standard_normal if execute else np.zeros
    X_dec = draw((n, d_model))
    X_enc = X_dec if m == n else draw((m, d_model))
    W_Q, W_K, W_V, W_O = (draw((d_model, d_model)) / np.sqrt(d_model) for _ in range(4))
    macs: dict[str, int] = {}

    def matmul(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.shape[-1] != b.shape[-2]:
            raise ValueError(f"run_attention: {name}: operand shapes {a.shape} and {b.shape} do not chain")
        macs[name] = macs.get(name, 0) + int(np.prod(a.shape[:-1])) * a.shape[-1] * b.shape[-1]
        if execute:
            return a @ b
        return np.zeros((*np.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1]))

    Q = ops.split_heads(matmul("Q = X_dec W^Q", X_dec, W_Q), h).transpose(1, 0, 2)  # (h, n, d_k)
    K = ops.split_heads(matmul("K = X_enc W^K", X_enc, W_K), h).transpose(1, 0, 2)  # (h, m, d_k)
    V = ops.split_heads(matmul("V = X_enc W^V", X_enc, W_V), h).transpose(1, 0, 2)  # (h, m, d_v)
    scores = matmul("Q K^T", Q, K.transpose(0, 2, 1)) / np.sqrt(d_k)  # (h, n, m)
    attn = ops.softmax(scores) if execute else scores  # a dry run only needs the shape (h, n, m)
    heads = matmul("A V", attn, V)  # (h, n, d_v)
    concat = ops.concat_heads(heads.transpose(1, 0, 2))  # (n, h·d_v)
    out = matmul("Concat W^O", concat, W_O)  # (n, d_model)
    shapes = {
        "X_dec": X_dec.shape, "X_enc": X_enc.shape, "Q": Q.shape, "K": K.shape, "V": V.shape,
        "scores": scores.shape, "heads": heads.shape, "concat": concat.shape, "out": out.shape,
    }  # fmt: skip
    return AttentionRun(shapes=shapes, macs=macs, softmax_entries=int(scores.size), attn=attn)
