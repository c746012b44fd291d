"""One Post-LN Transformer block, forward only, returning every intermediate of the notes §8."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

import numpy as np

from . import ops

Dropout = Callable[[str, np.ndarray], np.ndarray]
"""Training-mode dropout at a named place of the block: (the intermediate's name, its value) → what goes on."""


def _no_dropout(site: str, x: np.ndarray) -> np.ndarray:
    return x


@dataclass(frozen=True)
class BlockWeights:
    """All parameters of one block. Matrices act on row vectors (``X @ W``)."""

    W_E: np.ndarray  # (vocab, d_model)
    W_Q: np.ndarray  # (d_model, h·d_k)
    W_K: np.ndarray  # (d_model, h·d_k)
    W_V: np.ndarray  # (d_model, h·d_k)
    W_O: np.ndarray  # (h·d_k, d_model)
    ln1_gamma: np.ndarray  # (d_model,)
    ln1_beta: np.ndarray  # (d_model,)
    W1: np.ndarray  # (d_model, d_ff)
    b1: np.ndarray  # (d_ff,)
    W2: np.ndarray  # (d_ff, d_model)
    b2: np.ndarray  # (d_model,)
    ln2_gamma: np.ndarray  # (d_model,)
    ln2_beta: np.ndarray  # (d_model,)
    n_heads: int
    eps: float = ops.LAYER_NORM_EPS

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                _require_finite(value, f.name)
        self._check_shapes()

    @property
    def vocab_size(self) -> int:
        return self.W_E.shape[0]

    @property
    def d_model(self) -> int:
        return self.W_E.shape[1]

    @property
    def d_ff(self) -> int:
        return self.W1.shape[1]

    @property
    def d_k(self) -> int:
        return self.W_Q.shape[1] // self.n_heads

    def _check_shapes(self) -> None:
        if self.W_E.ndim != 2:
            raise ValueError(f"W_E must be 2-D (vocab, d_model), got shape {self.W_E.shape}")
        d, hd = self.d_model, self.W_Q.shape[1] if self.W_Q.ndim == 2 else -1
        if not isinstance(self.n_heads, (int, np.integer)) or self.n_heads < 1 or hd % self.n_heads:
            raise ValueError(f"n_heads = {self.n_heads!r} must be a positive integer dividing W_Q's width {hd}")
        d_ff = self.W1.shape[1] if self.W1.ndim == 2 else -1
        expected = {
            "W_Q": (d, hd), "W_K": (d, hd), "W_V": (d, hd), "W_O": (hd, d),
            "ln1_gamma": (d,), "ln1_beta": (d,), "W1": (d, d_ff), "b1": (d_ff,),
            "W2": (d_ff, d), "b2": (d,), "ln2_gamma": (d,), "ln2_beta": (d,),
        }  # fmt: skip
        for name, shape in expected.items():
            actual = getattr(self, name).shape
            if actual != shape:
                raise ValueError(f"{name} must have shape {shape} (d_model={d}, h·d_k={hd}, d_ff={d_ff}), got {actual}")
        if not (self.eps > 0 and np.isfinite(self.eps)):
            raise ValueError(f"eps must be a positive finite number, got {self.eps!r}")


@dataclass(frozen=True)
class BlockTrace:
    """Every intermediate of one forward pass. t = token, g = global column, k = index within a head."""

    tokens: np.ndarray  # (T,) ids
    X_tok: np.ndarray  # (T, d_model)  W_E[tokens]
    X_pos: np.ndarray  # (T, d_model)  W_P
    X: np.ndarray  # (T, d_model)  X_tok + X_pos
    Q: np.ndarray  # (T, h, d_k)
    K: np.ndarray  # (T, h, d_k)
    V: np.ndarray  # (T, h, d_k)
    scores: np.ndarray  # (h, T, T)   q·k/√d_k
    attn: np.ndarray  # (h, T, T)   softmax over the last axis
    head_out: np.ndarray  # (T, h, d_k)  Σ_j attn·V
    concat: np.ndarray  # (T, h·d_k)
    Y: np.ndarray  # (T, d_model)  concat @ W_O
    residual1: np.ndarray  # (T, d_model)
    ln1_out: np.ndarray  # (T, d_model)
    ffn_pre: np.ndarray  # (T, d_ff)
    ffn_h: np.ndarray  # (T, d_ff)
    ffn_out: np.ndarray  # (T, d_model)
    residual2: np.ndarray  # (T, d_model)
    ln2_out: np.ndarray  # (T, d_model)

    def __post_init__(self) -> None:
        # preset_trace() caches one trace per sentence for every page: a snippet that wrote into an
        # array would silently change the numbers of all later pages, so the arrays are read-only.
        for f in fields(self):
            getattr(self, f.name).setflags(write=False)

    @property
    def W_P(self) -> np.ndarray:
        return self.X_pos

    @property
    def Q_full(self) -> np.ndarray:
        return ops.concat_heads(self.Q)

    @property
    def K_full(self) -> np.ndarray:
        return ops.concat_heads(self.K)

    @property
    def V_full(self) -> np.ndarray:
        return ops.concat_heads(self.V)

    @property
    def out(self) -> np.ndarray:
        """The notes' name for the per-head outputs."""
        return self.head_out

    @property
    def mu1(self) -> np.ndarray:
        """Per-token mean of residual1, (T,)."""
        return self.residual1.mean(axis=1)

    @property
    def sigma1(self) -> np.ndarray:
        """Per-token √(biased variance) of residual1, (T,) — without ε."""
        return self.residual1.std(axis=1)

    @property
    def mu2(self) -> np.ndarray:
        return self.residual2.mean(axis=1)

    @property
    def sigma2(self) -> np.ndarray:
        return self.residual2.std(axis=1)


def forward(
    weights: BlockWeights,
    tokens: np.ndarray,
    *,
    scale: bool = True,
    causal: bool = False,
    positions: bool = True,
    dropout: Dropout | None = None,
) -> BlockTrace:
    """Run one Post-LN block on token ids (T,) and return every intermediate.

    The switches of the explorer, each defaulting to the block of the notes: ``scale`` divides scores by √d_k;
    ``causal`` adds the causal mask before the softmax (``scores`` stays the unmasked q·k); ``positions=False``
    leaves W_P out (X = W_E[tokens], the ablation the notes use; ``X_pos`` is then zero). ``dropout``: the
    block as trained (``regularization.forward_train``); None, the block at inference, as everywhere else.
    """
    tokens = _validate_tokens(tokens, weights.vocab_size)
    _require_flag(positions, "positions")
    X_tok = weights.W_E[tokens]
    T, d_model = len(tokens), weights.d_model
    X_pos = ops.positional_encoding(T, d_model) if positions else np.zeros((T, d_model))
    return forward_from_embeddings(weights, tokens, X_tok, X_pos, scale=scale, causal=causal, dropout=dropout)


# --8<-- [start:forward_from_embeddings]
def forward_from_embeddings(
    weights: BlockWeights,
    tokens: np.ndarray,
    X_tok: np.ndarray,
    X_pos: np.ndarray,
    *,
    scale: bool = True,
    causal: bool = False,
    dropout: Dropout | None = None,
) -> BlockTrace:
    """The block on given embedding parts X = X_tok + X_pos, both (T, d_model); ``scale``, ``causal``,
    ``dropout`` as in forward (with dropout, ``X``, ``Y`` and ``ffn_out`` are what the block adds: dropped out).

    ``forward`` passes W_E[tokens] and W_P; an ablation passes altered parts (e.g. W_P scaled to 0).
    """
    tokens = _validate_tokens(tokens, weights.vocab_size)
    _require_flag(scale, "scale")
    _require_flag(causal, "causal")
    for name, part in (("X_tok", X_tok), ("X_pos", X_pos)):
        expected = (len(tokens), weights.d_model)
        if np.shape(part) != expected:
            raise ValueError(f"{name} must have shape {expected} (T, d_model), got {np.shape(part)}")
        _require_finite(np.asarray(part, dtype=np.float64), name)
    h = weights.n_heads
    drop = dropout if dropout is not None else _no_dropout
    X = drop("X", X_tok + X_pos)  # (T, d_model)

    Q = ops.split_heads(X @ weights.W_Q, h)  # (T, h, d_k)
    K = ops.split_heads(X @ weights.W_K, h)
    V = ops.split_heads(X @ weights.W_V, h)
    mask = ops.causal_mask(len(tokens)) if causal else None  # (T, T), broadcast over the heads
    per_head_out, scores, attn = ops.scaled_dot_product_attention(
        Q.transpose(1, 0, 2), K.transpose(1, 0, 2), V.transpose(1, 0, 2), mask=mask, scale=bool(scale)
    )  # (h, T, d_k), (h, T, T), (h, T, T)
    head_out = per_head_out.transpose(1, 0, 2)  # (T, h, d_k)
    concat = ops.concat_heads(head_out)  # (T, h·d_k)
    Y = drop("Y", concat @ weights.W_O)  # (T, d_model)

    residual1 = X + Y
    ln1_out = ops.layer_norm(residual1, weights.ln1_gamma, weights.ln1_beta, weights.eps)
    ffn_pre, ffn_h, ffn_out = ops.ffn(
        ln1_out, weights.W1, weights.b1, weights.W2, weights.b2
    )  # (T, d_ff) ×2, (T, d_model)
    ffn_out = drop("ffn_out", ffn_out)
    residual2 = ln1_out + ffn_out
    ln2_out = ops.layer_norm(residual2, weights.ln2_gamma, weights.ln2_beta, weights.eps)
    return BlockTrace(
        tokens=tokens, X_tok=X_tok, X_pos=X_pos, X=X, Q=Q, K=K, V=V, scores=scores, attn=attn,
        head_out=head_out, concat=concat, Y=Y, residual1=residual1, ln1_out=ln1_out,
        ffn_pre=ffn_pre, ffn_h=ffn_h, ffn_out=ffn_out, residual2=residual2, ln2_out=ln2_out,
    )  # fmt: skip


# --8<-- [end:forward_from_embeddings]


def _validate_tokens(tokens: np.ndarray, vocab_size: int) -> np.ndarray:
    arr = np.asarray(tokens)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"tokens must be a non-empty 1-D sequence of ids (T,), got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"tokens must be integer ids, got dtype {arr.dtype}")
    bad = np.flatnonzero((arr < 0) | (arr >= vocab_size))
    if bad.size:
        raise ValueError(f"tokens[{bad[0]}] = {arr[bad[0]]} is outside the vocabulary 0 … {vocab_size - 1}")
    return arr.astype(np.int64)


def _require_flag(value: object, name: str) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")


def _require_finite(value: np.ndarray, name: str) -> None:
    if not np.issubdtype(value.dtype, np.number):
        raise ValueError(f"{name} must be numeric, got dtype {value.dtype}")
    bad = np.argwhere(~np.isfinite(value))
    if bad.size:
        index = tuple(int(i) for i in bad[0])
        raise ValueError(f"{name}{list(index)} = {value[index]} is not finite (shape {value.shape})")
