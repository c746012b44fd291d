"""Small computed experiments behind the textbook chapter pages (seed 003), numpy only.

Each function returns plain arrays or a frozen dataclass, so a page can cite a value as a checked number
(``experiments.MASK.row_sums_zeroed[0]``) and a snippet can draw it. Random inputs always come from a fixed
seed, so every number on the pages is reproducible. The module-level constants at the bottom are the
instances the pages cite; each is computed on first use (all of them together in well under a second).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from . import ops
from .preset import SENTENCES

SEED = 0
"""Seed of every random draw in this module."""

LARGE_NEGATIVE = -1e9
"""What implementations add instead of −∞ (the seed's example)."""


def _rng(seed: int = SEED) -> np.random.Generator:
    return np.random.default_rng(seed)


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


PADDING_T, PADDING_VALID = 6, 4
"""The padding example: T positions of which the first PADDING_VALID are real tokens."""


def padding_demo(T: int = PADDING_T, n_valid: int = PADDING_VALID, d_k: int = 8, seed: int = SEED) -> PaddingDemo:
    """Random x (T, d_k) whose last T − n_valid rows are padding; attention with q = k = v = x.

    The padding rows are then replaced by other random vectors: with the mask the outputs of the real rows
    do not move at all; without it they do.
    """
    if not 1 <= n_valid < T:
        raise ValueError(f"padding_demo: n_valid must be in 1 … T − 1 = {T - 1}, got {n_valid!r}")
    rng = _rng(seed)
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


SCALING_KEYS, SCALING_TRIALS = 8, 2000
"""Keys per query and queries drawn when the √d_k scaling is measured."""


def scaling_stats(d_k: int, n: int = SCALING_KEYS, trials: int = SCALING_TRIALS, seed: int = SEED) -> ScalingStats:
    """q, k with independent N(0, 1) components; rows of n keys per query, ``trials`` queries."""
    if d_k < 1:
        raise ValueError(f"scaling_stats: d_k must be ≥ 1, got {d_k!r}")
    rng = _rng(seed)
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


def run_attention(n: int, m: int, d_model: int, h: int, seed: int = SEED, execute: bool = True) -> AttentionRun:
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
    rng = _rng(seed)
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


# ---------------------------------------------------------------------------------------------------------
# Positional encoding
# ---------------------------------------------------------------------------------------------------------


def pe_rotation_error(T: int, d_model: int, offsets: tuple[int, ...] = (1, 2, 5, 10, 50)) -> float:
    """max over pos, offsets k and pairs i of |PE(pos + k) − R(ω_i k)·PE(pos)| for every (sin, cos) pair."""
    pe = ops.positional_encoding(T + max(offsets), d_model)
    omega = ops.pe_angular_frequencies(d_model)
    worst = 0.0
    for k in offsets:
        for i, w in enumerate(omega):
            R = ops.pe_rotation(w, k)
            pair = pe[:, 2 * i : 2 * i + 2]  # (T + max k, 2) = (sin ω pos, cos ω pos)
            predicted = pair[:T] @ R.T  # row vectors: R @ v for every pos
            worst = max(worst, float(np.max(np.abs(predicted - pair[k : k + T]))))
    return worst


def pe_offset_dot(T: int, d_model: int, k: int) -> np.ndarray:
    """PE(pos)·PE(pos + k) for pos = 0 … T − 1: the same number for every pos (= Σ_i cos ω_i k)."""
    pe = ops.positional_encoding(T + k, d_model)
    return np.einsum("td,td->t", pe[:T], pe[k : k + T])


def pe_offset_dot_formula(d_model: int, k: int) -> float:
    """Σ_i cos(ω_i k), from sin a sin b + cos a cos b = cos(a − b)."""
    return float(np.cos(ops.pe_angular_frequencies(d_model) * k).sum())


def pe_norms(T: int, d_model: int) -> np.ndarray:
    """‖PE(pos)‖ for pos = 0 … T − 1: √(d_model/2) for every pos, since each pair has sin² + cos² = 1."""
    return np.linalg.norm(ops.positional_encoding(T, d_model), axis=-1)


def learned_pe_parameters(max_len: int, d_model: int) -> int:
    """A learned position table has one d_model vector per position: max_len · d_model parameters."""
    return max_len * d_model


# ---------------------------------------------------------------------------------------------------------
# Embedding scale: why √d_model
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EmbeddingScale:
    d_model: int
    embedding_norm: float  # mean ‖row‖ of an embedding initialised with std d_model^(-1/2)
    scaled_norm: float  # the same after multiplying by √d_model
    pe_norm: float  # ‖PE(pos)‖ (the same for every pos)


EMBEDDING_VOCAB = 1000
"""Rows of the random embedding table whose mean norm the overview page quotes."""


def embedding_scale(d_model: int, vocab: int = EMBEDDING_VOCAB, seed: int = SEED) -> EmbeddingScale:
    """Norms of an embedding table initialised as N(0, 1/d_model) before and after the √d_model factor."""
    E = _rng(seed).standard_normal((vocab, d_model)) / np.sqrt(d_model)
    norm = float(np.linalg.norm(E, axis=-1).mean())
    return EmbeddingScale(d_model, norm, norm * float(np.sqrt(d_model)), float(pe_norms(1, d_model)[0]))


# ---------------------------------------------------------------------------------------------------------
# FFN: position-wise, ReLU against GELU
# ---------------------------------------------------------------------------------------------------------


def ffn_position_wise_gap(T: int = 7, d_model: int = 16, d_ff: int = 64, seed: int = SEED) -> float:
    """max |FFN(X)[t] − FFN(X[t])| over t: applying the FFN to the matrix = applying it row by row."""
    rng = _rng(seed)
    X = rng.standard_normal((T, d_model))
    W1, W2 = rng.standard_normal((d_model, d_ff)), rng.standard_normal((d_ff, d_model))
    b1, b2 = rng.standard_normal(d_ff), rng.standard_normal(d_model)
    whole = ops.ffn(X, W1, b1, W2, b2, ops.relu)[2]
    rows = np.stack([ops.ffn(X[t : t + 1], W1, b1, W2, b2, ops.relu)[2][0] for t in range(T)])
    return float(np.max(np.abs(whole - rows)))


def gelu_derivative(x: np.ndarray) -> np.ndarray:
    """d/dx of the tanh-form GELU, analytically."""
    x = np.asarray(x, dtype=np.float64)
    c = np.sqrt(2.0 / np.pi)
    u = c * (x + ops.GELU_CUBIC_COEFF * x**3)
    t = np.tanh(u)
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t**2) * c * (1.0 + 3.0 * ops.GELU_CUBIC_COEFF * x**2)


@dataclass(frozen=True)
class ActivationComparison:
    gelu_min: float  # smallest value of GELU
    gelu_argmin: float  # where it is reached
    relu_zero_fraction: float  # share of exact zeros of ReLU on N(0, 1) inputs
    gelu_zero_fraction: float  # the same for GELU
    gelu_negative_fraction: float  # share of negative GELU outputs on N(0, 1) inputs


ACTIVATION_SAMPLES = 100_000
"""N(0, 1) inputs on which the share of exact zeros of ReLU and GELU is counted."""


def compare_activations(samples: int = ACTIVATION_SAMPLES, seed: int = SEED) -> ActivationComparison:
    """GELU's minimum (Newton on its derivative) and how often each activation outputs 0 on N(0, 1)."""
    x = -0.75
    for _ in range(50):  # Newton on GELU'(x) = 0, second derivative by central difference
        h = 1e-5
        second = (gelu_derivative(x + h) - gelu_derivative(x - h)) / (2 * h)
        x = float(x - gelu_derivative(x) / second)
    z = _rng(seed).standard_normal(samples)
    return ActivationComparison(
        gelu_min=float(ops.gelu(x)),
        gelu_argmin=x,
        relu_zero_fraction=float(np.mean(ops.relu(z) == 0.0)),
        gelu_zero_fraction=float(np.mean(ops.gelu(z) == 0.0)),
        gelu_negative_fraction=float(np.mean(ops.gelu(z) < 0.0)),
    )


# ---------------------------------------------------------------------------------------------------------
# Post-LN against Pre-LN: a stack of randomly initialised blocks
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StackWeights:
    """N blocks of random weights (attention without biases, FFN with ReLU; LayerNorm γ = 1, β = 0)."""

    W_Q: np.ndarray  # (N, d, d)
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray
    W1: np.ndarray  # (N, d, d_ff)
    W2: np.ndarray  # (N, d_ff, d)
    h: int

    @property
    def n_layers(self) -> int:
        return self.W_Q.shape[0]


def random_stack(n_layers: int, d_model: int, h: int, d_ff: int, seed: int = SEED) -> StackWeights:
    """Xavier-like initialisation: every matrix has entries N(0, 1/fan_in)."""
    if n_layers < 1 or d_model % h:
        raise ValueError(f"random_stack: need n_layers ≥ 1 and h | d_model, got {n_layers!r}, h={h}, d_model={d_model}")
    rng = _rng(seed)

    def draw(fan_in: int, fan_out: int) -> np.ndarray:
        return rng.standard_normal((n_layers, fan_in, fan_out)) / np.sqrt(fan_in)

    return StackWeights(
        W_Q=draw(d_model, d_model), W_K=draw(d_model, d_model), W_V=draw(d_model, d_model),
        W_O=draw(d_model, d_model), W1=draw(d_model, d_ff), W2=draw(d_ff, d_model), h=h,
    )  # fmt: skip


def _self_attention(x: np.ndarray, W: StackWeights, layer: int) -> np.ndarray:
    """Batched self-attention. x: (..., T, d) → (..., T, d)."""
    *lead, T, d = x.shape
    h, d_k = W.h, d // W.h

    def heads(a: np.ndarray) -> np.ndarray:  # (..., T, d) → (..., h, T, d_k)
        return np.swapaxes(a.reshape(*lead, T, h, d_k), -2, -3)

    q, k, v = (heads(x @ M[layer]) for M in (W.W_Q, W.W_K, W.W_V))
    out, _, _ = ops.scaled_dot_product_attention(q, k, v)
    return np.swapaxes(out, -2, -3).reshape(*lead, T, d) @ W.W_O[layer]


def _ffn(x: np.ndarray, W: StackWeights, layer: int) -> np.ndarray:
    return ops.relu(x @ W.W1[layer]) @ W.W2[layer]


WIRINGS = ("post", "pre")


def _readout(out: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Scalar loss per batch element: Σ_t,d out·r (a fixed random linear read-out)."""
    return np.einsum("...td,td->...", out, r)


@dataclass(frozen=True)
class StackPass:
    """One forward pass through the stack, keeping what the FFN weight gradient needs."""

    stream: list[np.ndarray]  # residual stream after each block (Pre-LN: before the final LayerNorm)
    mid: list[np.ndarray]  # residual stream after each block's attention sublayer
    ffn_hidden: list[np.ndarray]  # ReLU activations of each block's FFN, (T, d_ff)
    ffn_out: list[np.ndarray]  # each block's FFN output, (T, d)
    output: np.ndarray  # what the read-out sees (Pre-LN: after the final LayerNorm)


def forward_stack(x: np.ndarray, W: StackWeights, wiring: str) -> StackPass:
    """Post-LN: x ← LN(x + F(x)) per sublayer. Pre-LN: x ← x + F(LN(x)) per sublayer, then a final LN."""
    if wiring not in WIRINGS:
        raise ValueError(f"forward_stack: wiring must be one of {WIRINGS}, got {wiring!r}")
    stream, mid, hidden, ffn_out = [], [], [], []
    for layer in range(W.n_layers):
        if wiring == "post":
            x = ops.layer_norm(x + _self_attention(x, W, layer))
            a = x
        else:
            x = x + _self_attention(ops.layer_norm(x), W, layer)
            a = ops.layer_norm(x)
        mid.append(x)
        hidden.append(ops.relu(a @ W.W1[layer]))
        ffn_out.append(hidden[-1] @ W.W2[layer])
        x = ops.layer_norm(x + ffn_out[-1]) if wiring == "post" else x + ffn_out[-1]
        stream.append(x)
    output = x if wiring == "post" else ops.layer_norm(x)
    return StackPass(stream, mid, hidden, ffn_out, output)


def _continue_from_ffn(sum_: np.ndarray, W: StackWeights, wiring: str, layer: int) -> np.ndarray:
    """Given mid + ffn_out of block ``layer`` (batched), finish that block and run the rest; return the output."""
    x = ops.layer_norm(sum_) if wiring == "post" else sum_
    for later in range(layer + 1, W.n_layers):
        if wiring == "post":
            x = ops.layer_norm(x + _self_attention(x, W, later))
            x = ops.layer_norm(x + _ffn(x, W, later))
        else:
            x = x + _self_attention(ops.layer_norm(x), W, later)
            x = x + _ffn(ops.layer_norm(x), W, later)
    return x if wiring == "post" else ops.layer_norm(x)


def numeric_ffn_output_gradients(
    x0: np.ndarray, W: StackWeights, wiring: str, r: np.ndarray, eps: float = 1e-6
) -> list[np.ndarray]:
    """δ_l = ∂loss/∂(FFN output of block l), (T, d) per layer, by central differences (slow; the check route).

    All T·d perturbations of one layer run as one batch through the rest of the stack.
    """
    run = forward_stack(x0, W, wiring)
    T, d = x0.shape
    basis = eps * np.eye(T * d).reshape(T * d, T, d)
    deltas = []
    for layer in range(W.n_layers):
        base = run.mid[layer] + run.ffn_out[layer]
        plus = _readout(_continue_from_ffn(base + basis, W, wiring, layer), r)
        minus = _readout(_continue_from_ffn(base - basis, W, wiring, layer), r)
        deltas.append(((plus - minus) / (2 * eps)).reshape(T, d))
    return deltas


# Backward passes (reverse mode by hand): each takes the forward input and ∂loss/∂output, returns ∂loss/∂input.


def _layer_norm_backward(x: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """y = (x − μ)/σ per row: ∂loss/∂x = (g − mean(g) − y·mean(g·y)) / σ."""
    mu = x.mean(axis=-1, keepdims=True)
    sigma = np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + ops.LAYER_NORM_EPS)
    y = (x - mu) / sigma
    return (grad - grad.mean(axis=-1, keepdims=True) - y * (grad * y).mean(axis=-1, keepdims=True)) / sigma


def _self_attention_backward(x: np.ndarray, W: StackWeights, layer: int, grad: np.ndarray) -> np.ndarray:
    """Reverse of :func:`_self_attention` for one sequence x (T, d)."""
    T, d = x.shape
    h, d_k = W.h, d // W.h

    def heads(a: np.ndarray) -> np.ndarray:  # (T, d) → (h, T, d_k)
        return a.reshape(T, h, d_k).transpose(1, 0, 2)

    def merge(a: np.ndarray) -> np.ndarray:  # (h, T, d_k) → (T, d)
        return a.transpose(1, 0, 2).reshape(T, d)

    q, k, v = (heads(x @ M[layer]) for M in (W.W_Q, W.W_K, W.W_V))
    _, _, attn = ops.scaled_dot_product_attention(q, k, v)  # (h, T, T)
    d_heads = heads(grad @ W.W_O[layer].T)  # ∂/∂(per-head outputs)
    d_attn = d_heads @ v.transpose(0, 2, 1)
    d_v = attn.transpose(0, 2, 1) @ d_heads
    d_scores = attn * (d_attn - (d_attn * attn).sum(axis=-1, keepdims=True)) / np.sqrt(d_k)  # softmax Jacobian
    d_q, d_k_ = d_scores @ k, d_scores.transpose(0, 2, 1) @ q
    return merge(d_q) @ W.W_Q[layer].T + merge(d_k_) @ W.W_K[layer].T + merge(d_v) @ W.W_V[layer].T


def _ffn_backward(a: np.ndarray, W: StackWeights, layer: int, grad: np.ndarray) -> np.ndarray:
    """Reverse of ReLU(a·W1)·W2: ReLU passes the gradient only where its input was positive."""
    return ((grad @ W.W2[layer].T) * (a @ W.W1[layer] > 0)) @ W.W1[layer].T


def ffn_output_gradients(x0: np.ndarray, W: StackWeights, wiring: str, r: np.ndarray) -> list[np.ndarray]:
    """δ_l = ∂loss/∂(FFN output of block l), (T, d) per layer, by one backward pass (the chain rule by hand).

    loss = Σ output·r. Tests check it against :func:`numeric_ffn_output_gradients` and torch's autograd.
    """
    run = forward_stack(x0, W, wiring)
    inputs = [x0, *run.stream[:-1]]  # the stream entering each block
    grad = r if wiring == "post" else _layer_norm_backward(run.stream[-1], r)  # ∂loss/∂(last stream)
    deltas: list[np.ndarray] = []
    for layer in reversed(range(W.n_layers)):
        x, mid = inputs[layer], run.mid[layer]
        if wiring == "post":  # mid = LN(s1), s1 = x + attn(x); stream = LN(s2), s2 = mid + ffn(mid)
            delta = _layer_norm_backward(mid + run.ffn_out[layer], grad)  # ∂loss/∂s2 = ∂loss/∂ffn_out
            grad_mid = delta + _ffn_backward(mid, W, layer, delta)
            grad_s1 = _layer_norm_backward(x + _self_attention(x, W, layer), grad_mid)
            grad = grad_s1 + _self_attention_backward(x, W, layer, grad_s1)
        else:  # mid = x + attn(LN(x)); stream = mid + ffn(LN(mid))
            delta = grad
            grad_mid = grad + _layer_norm_backward(mid, _ffn_backward(ops.layer_norm(mid), W, layer, grad))
            grad = grad_mid + _layer_norm_backward(x, _self_attention_backward(ops.layer_norm(x), W, layer, grad_mid))
        deltas.append(delta)
    return deltas[::-1]


def ffn_weight_gradient_norms(x0: np.ndarray, W: StackWeights, wiring: str, r: np.ndarray) -> np.ndarray:
    """‖∂loss/∂W2_l‖_F per layer: the chain rule gives ∂loss/∂W2_l = hiddenᵀ · δ_l exactly, for ffn_out = hidden·W2."""
    run = forward_stack(x0, W, wiring)
    deltas = ffn_output_gradients(x0, W, wiring, r)
    return np.array([float(np.linalg.norm(h.T @ g)) for h, g in zip(run.ffn_hidden, deltas, strict=True)])


@dataclass(frozen=True)
class LNComparison:
    """Per block l = 1 … N and wiring ("post", "pre"), over ``n_seeds`` random stacks (seeds 0 … n_seeds − 1).

    activation_rms: RMS of the residual stream after block l (seed 0).
    relative_update: ‖x_l − x_(l−1)‖ / ‖x_(l−1)‖, how much block l changes the stream (seed 0).
    update_rms: RMS of x_l − x_(l−1), the size of what block l adds (seed 0).
    grad_norm: ‖∂loss/∂W2_l‖_F divided by its mean over the blocks, averaged over the seeds, so only the
    profile across depth is compared (the two wirings have different overall scales).
    grad_spread: the standard deviation of that normalised profile over the seeds.
    """

    n_layers: int
    n_seeds: int
    activation_rms: dict[str, np.ndarray]
    relative_update: dict[str, np.ndarray]
    update_rms: dict[str, np.ndarray]
    grad_norm: dict[str, np.ndarray]
    grad_spread: dict[str, np.ndarray]

    def grad_ratio(self, wiring: str) -> float:
        """Normalised gradient of the last block over that of the first (1: every block at one pace)."""
        g = self.grad_norm[wiring]
        return float(g[-1] / g[0])


LN_D_MODEL, LN_HEADS, LN_D_FF, LN_TOKENS, LN_SEEDS = 32, 4, 128, 8, 4
"""Sizes of the Post-LN/Pre-LN experiment: small enough to run in milliseconds, with d_ff = 4·d_model as in
the original; LN_SEEDS random stacks give the spread of the gradient profile."""


def compare_ln_placement(
    n_layers: int = 6,
    d_model: int = LN_D_MODEL,
    h: int = LN_HEADS,
    d_ff: int = LN_D_FF,
    T: int = LN_TOKENS,
    n_seeds: int = LN_SEEDS,
) -> LNComparison:
    """Same random weights, same input, same read-out per seed; only the place of the LayerNorm differs."""
    rms: dict[str, np.ndarray] = {}
    update: dict[str, np.ndarray] = {}
    update_rms: dict[str, np.ndarray] = {}
    profiles: dict[str, list[np.ndarray]] = {w: [] for w in WIRINGS}
    for seed in range(n_seeds):
        W = random_stack(n_layers, d_model, h, d_ff, seed)
        rng = _rng(seed + 1000)
        x0 = rng.standard_normal((T, d_model))
        r = rng.standard_normal((T, d_model))
        for w in WIRINGS:
            if seed == 0:
                stream = [x0, *forward_stack(x0, W, w).stream]
                rms[w] = np.array([float(np.sqrt(np.mean(s**2))) for s in stream[1:]])
                update[w] = np.array(
                    [float(np.linalg.norm(b - a) / np.linalg.norm(a)) for a, b in itertools.pairwise(stream)]
                )
                update_rms[w] = np.array([float(np.sqrt(np.mean((b - a) ** 2))) for a, b in itertools.pairwise(stream)])
            g = ffn_weight_gradient_norms(x0, W, w, r)
            profiles[w].append(g / g.mean())
    grads = {w: np.mean(p, axis=0) for w, p in profiles.items()}
    spread = {w: np.std(p, axis=0) for w, p in profiles.items()}
    return LNComparison(n_layers, n_seeds, rms, update, update_rms, grads, spread)


# ---------------------------------------------------------------------------------------------------------
# The instances the pages cite
# ---------------------------------------------------------------------------------------------------------


def _preset_scores(sentence: int, head: int) -> np.ndarray:
    from . import preset_trace  # late import: the package __init__ is still loading when this module is

    return preset_trace(sentence).scores[head]


MASK_SENTENCE = 1
"""The pages show the causal mask on sentence 1's head-0 scores of the preset block."""
MASK_WORDS: tuple[str, ...] = SENTENCES[MASK_SENTENCE - 1].words

HEAD_COST_LENGTHS = (16, 128, 512)
"""Sequence lengths n of the one-head-against-h-heads cost table."""
CROSS_N, CROSS_M = 3, 5
"""Decoder positions (queries) and encoder positions (keys, values) of the cross-attention example."""
PE_CHECK_T = 128
"""Positions over which the rotation identity is checked on the page."""
PE_OFFSETS = (1, 2, 5, 10, 50)
"""Offsets k of the rotation check."""
PE_SPAN = 1000
"""Positions 0 … PE_SPAN − 1 over which the page measures ‖PE(pos)‖ and PE(pos)·PE(pos + k)."""
PE_DOT_POSITIONS = (0, 37, 400)
"""Starting positions of the three PE(pos)·PE(pos + k) curves drawn on the page."""
LN_LAYERS = 6
"""Blocks in the Post-LN/Pre-LN experiment: N of the original Transformer."""


def _base():
    from .configs import TRANSFORMER_BASE

    return TRANSFORMER_BASE


_LAZY = {
    "MASK": lambda: compare_mask_placement(_preset_scores(MASK_SENTENCE, 0)),
    "PADDING": padding_demo,
    "SCALING": lambda: {d_k: scaling_stats(d_k) for d_k in (1, 8, _base().d_k)},
    "CROSS": lambda: run_attention(CROSS_N, CROSS_M, _base().d_model, _base().n_heads),
    "HEAD_COST": lambda: {
        (n, h): run_attention(n, n, _base().d_model, h, execute=False)
        for n in HEAD_COST_LENGTHS
        for h in (1, _base().n_heads)
    },
    "PE_ROTATION_ERROR": lambda: pe_rotation_error(PE_CHECK_T, _base().d_model, PE_OFFSETS),
    "EMBEDDING": lambda: embedding_scale(_base().d_model),
    "ACTIVATIONS": compare_activations,
    "FFN_POSITION_WISE_GAP": ffn_position_wise_gap,
    "LN": lambda: compare_ln_placement(LN_LAYERS),
}
_cache: dict[str, object] = {}


def __getattr__(name: str) -> object:
    """The instances the pages cite (``experiments.MASK``, ``experiments.LN`` …), computed on first use.

    Lazy so that importing the module (and the citable namespace) stays fast; each is computed once.
    """
    if name not in _LAZY:
        raise AttributeError(f"module 'transformer_math.experiments' has no attribute {name!r}")
    if name not in _cache:
        _cache[name] = _LAZY[name]()
    return _cache[name]
