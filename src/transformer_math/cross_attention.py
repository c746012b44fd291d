"""Cross-attention (source-target attention): queries from the decoder, keys and values from the encoder's output.

In the original Transformer's decoder layer the second sublayer attends over the encoder's final output, the
*memory* (m, d_model); its queries come from the decoder's own stream (n, d_model)::

    Q = X_dec · W_Q   (n, h·d_k)      K = memory · W_K   (m, h·d_k)      V = memory · W_V   (m, h·d_k)
    scores = Q Kᵀ / √d_k  per head  (h, n, m)      attn = softmax(scores)  (no causal mask: the source is
    known in full)      Y = Concat(attn · V) · W_O   (n, d_model)

The output has the queries' length n, so it adds onto the decoder's residual stream; each row of attn is a
distribution over the m source positions. K and V depend on the memory only, so a generating decoder computes
them once for the whole output. ``worked_example`` runs this between the two presets: the encoder preset's
ln2_out of one sentence is the memory, the decoder preset's first-block ln1_out for a prompt gives the queries.
Neither preset has a cross-attention sublayer, so the example's weights are a seeded random draw (N(0, 1/d)):
what the example shows is where each matrix comes from and the shapes, not a learned alignment.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache

import numpy as np

from . import decoder_model as dec
from . import decoder_preset as dp
from . import ops
from .model import Encoder
from .preset import ENCODER

SEED = 7
"""Seed of the example's cross-attention weights."""
ENCODER_SENTENCE = 1
"""The source: the encoder preset's sentence 1 (これ は 美しい 花 です), m = 5 positions."""
DECODER_PROMPT = ("<bos>", "これ", "は")
"""The target side so far: n = 3 positions."""


@dataclass(frozen=True)
class CrossAttentionWeights:
    W_Q: np.ndarray  # (d_model, h·d_k)  applied to the decoder's stream
    W_K: np.ndarray  # (d_model, h·d_k)  applied to the memory
    W_V: np.ndarray  # (d_model, h·d_k)  applied to the memory
    W_O: np.ndarray  # (h·d_k, d_model)
    n_heads: int

    def __post_init__(self) -> None:
        d, hd = self.W_Q.shape
        for name in ("W_K", "W_V"):
            if getattr(self, name).shape != (d, hd):
                raise ValueError(f"{name} must have W_Q's shape {(d, hd)}, got {getattr(self, name).shape}")
        if self.W_O.shape != (hd, d):
            raise ValueError(f"W_O must have shape {(hd, d)}, got {self.W_O.shape}")
        h = self.n_heads
        if isinstance(h, bool) or not isinstance(h, (int, np.integer)) or h < 1 or hd % h:
            raise ValueError(f"n_heads must be a positive integer dividing h·d_k = {hd}, got {self.n_heads!r}")


@dataclass(frozen=True)
class CrossAttentionTrace:
    X_dec: np.ndarray  # (n, d_model)  the decoder side
    memory: np.ndarray  # (m, d_model)  the encoder's output
    Q: np.ndarray  # (n, h, d_k)
    K: np.ndarray  # (m, h, d_k)
    V: np.ndarray  # (m, h, d_k)
    scores: np.ndarray  # (h, n, m)
    attn: np.ndarray  # (h, n, m)  each row sums to 1 over the m source positions
    head_out: np.ndarray  # (n, h, d_k)
    concat: np.ndarray  # (n, h·d_k)
    Y: np.ndarray  # (n, d_model)

    def __post_init__(self) -> None:
        for f in fields(self):
            getattr(self, f.name).setflags(write=False)

    def shapes(self) -> dict[str, tuple[int, ...]]:
        return {f.name: getattr(self, f.name).shape for f in fields(self)}


# --8<-- [start:cross_attention]
def cross_attention(X_dec: np.ndarray, memory: np.ndarray, weights: CrossAttentionWeights) -> CrossAttentionTrace:
    """Multi-head attention with queries from ``X_dec`` (n, d) and keys and values from ``memory`` (m, d)."""
    X_dec, memory = _rows(X_dec, "X_dec", weights), _rows(memory, "memory", weights)
    h = weights.n_heads
    Q = dec.split_heads(X_dec @ weights.W_Q, h)  # (n, h, d_k)
    K = dec.split_heads(memory @ weights.W_K, h)  # (m, h, d_k)
    V = dec.split_heads(memory @ weights.W_V, h)  # (m, h, d_k)
    per_head, scores, attn = ops.scaled_dot_product_attention(
        dec.heads_first(Q), dec.heads_first(K), dec.heads_first(V)
    )  # (h, n, d_k), (h, n, m), (h, n, m): no mask
    head_out = dec.heads_first(per_head)  # (n, h, d_k)
    concat = dec.merge_heads(head_out)  # (n, h·d_k)
    Y = concat @ weights.W_O  # (n, d_model)
    return CrossAttentionTrace(X_dec, memory, Q, K, V, scores, attn, head_out, concat, Y)
    # --8<-- [end:cross_attention]


def _rows(x: np.ndarray, name: str, weights: CrossAttentionWeights) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    d = weights.W_Q.shape[0]
    if x.ndim != 2 or x.shape[1] != d or x.shape[0] < 1:
        raise ValueError(f"{name} must be (rows ≥ 1, d_model = {d}), got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be finite")
    return x


def random_weights(d_model: int, n_heads: int, seed: int) -> CrossAttentionWeights:
    """W_Q, W_K, W_V, W_O drawn N(0, 1/d_model) from ``seed`` (untrained)."""
    rng = np.random.default_rng(seed)
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(4))
    return CrossAttentionWeights(W_Q, W_K, W_V, W_O, n_heads)


@dataclass(frozen=True)
class WorkedExample:
    source: tuple[str, ...]  # the encoder's words (m)
    target: tuple[str, ...]  # the decoder's words so far (n)
    weights: CrossAttentionWeights
    trace: CrossAttentionTrace


@cache
def worked_example(encoder: Encoder = ENCODER) -> WorkedExample:
    """The encoder's ln2_out (sentence 1) as memory, the decoder preset's block-1 ln1_out as queries."""
    memory = encoder.trace(ENCODER_SENTENCE).ln2_out  # (m, d_model)
    model = dp.decoder_preset()
    X_dec = dec.forward(model, model.ids(DECODER_PROMPT)).blocks[0].ln1_out  # (n, d_model)
    weights = random_weights(model.d_model, model.n_heads, SEED)
    for f in fields(weights):
        value = getattr(weights, f.name)
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    return WorkedExample(
        source=encoder.sentence(ENCODER_SENTENCE).words, target=DECODER_PROMPT, weights=weights,
        trace=cross_attention(X_dec, memory, weights),
    )  # fmt: skip
