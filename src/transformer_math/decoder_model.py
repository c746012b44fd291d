"""A decoder as a model value: blocks of the notes stacked under a causal mask, the output tied to W_E.

A ``Decoder`` (a ``model.Model``, like the encoder) holds everything the model is: its vocabulary (for the
preset, the notes' 16 words, ``<bos>`` and ``<eos>``), the embedding W_E (vocab × d_model), the positional
encoding W_P (n_positions × d_model, the notes' sinusoids), its blocks (each a ``DecoderBlock`` with the notes'
weights, W_V and W_O included), the number of heads h and LayerNorm's ε. ``forward`` runs it on token ids::

    X = W_E[tokens] + W_P[:T]                         (T, d_model)
    block b (b = 0, 1), Post-LN as in the notes §8, with the causal mask M added to the scores:
        attn = softmax(Q·Kᵀ/√d_k + M),  M[i, j] = −∞ for j > i
        ln1_out = LN(X + Y),  ln2_out = LN(ln1_out + FFN(ln1_out))  → the next block's X
    logits = ln2_out(last block) · W_Eᵀ                 (T, vocab)   the output layer tied to the embedding
    probs = softmax(logits)                           (T, vocab)   row t: the next word after tokens[0 … t]

Every function also takes a batch of equally long sequences (B, T): arrays then gain a leading batch axis
(training runs all sentences at once). Traces are read-only, like the encoder's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from . import ops
from .model import Model

BOS = "<bos>"
EOS = "<eos>"

BLOCK_WEIGHT_NAMES: tuple[str, ...] = (
    "W_Q", "W_K", "W_V", "W_O", "ln1_gamma", "ln1_beta", "W1", "b1", "W2", "b2", "ln2_gamma", "ln2_beta",
)  # fmt: skip
"""The weights of one block, in the order of the notes' forward pass."""


@dataclass(frozen=True)
class DecoderBlock:
    """One Post-LN block's weights. Matrices act on row vectors (``X @ W``)."""

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


@dataclass(frozen=True, eq=False, kw_only=True)
class Decoder(Model):
    """A causal decoder as a model value: what every model has (name, vocabulary, T and the example sentences, each
    <bos> … <eos> of length T, with one cached trace per sentence) and its weights: the embedding, the positions
    (``W_P`` fixes the longest input, ``n_positions``), the blocks, h and ε."""

    W_E: np.ndarray  # (vocab, d_model)  also the output layer (tied)
    W_P: np.ndarray  # (n_positions, d_model)
    blocks: tuple[DecoderBlock, ...]
    n_heads: int
    eps: float = ops.LAYER_NORM_EPS

    def __post_init__(self) -> None:
        object.__setattr__(self, "vocab", tuple(self.vocab))
        object.__setattr__(self, "blocks", tuple(self.blocks))
        super().__post_init__()
        self._check()

    def forward(self, tokens: Sequence[int] | np.ndarray) -> DecoderTrace:
        """``forward(self, tokens)``: what ``trace(n)`` caches for each example sentence."""
        return forward(self, tokens)

    # sizes ---------------------------------------------------------------------------------------------------
    @property
    def d_model(self) -> int:
        return self.W_E.shape[1]

    @property
    def n_positions(self) -> int:
        """The longest input the model takes (the rows of W_P)."""
        return self.W_P.shape[0]

    @property
    def h(self) -> int:
        """The number of heads."""
        return int(self.n_heads)

    @property
    def n_blocks(self) -> int:
        return len(self.blocks)

    @property
    def d_k(self) -> int:
        return self.blocks[0].W_Q.shape[1] // self.n_heads

    @property
    def d_ff(self) -> int:
        return self.blocks[0].W1.shape[1]

    # words ---------------------------------------------------------------------------------------------------
    @property
    def bos(self) -> int:
        return self.vocab.index(BOS)

    @property
    def eos(self) -> int:
        return self.vocab.index(EOS)

    def id_of(self, word: str, position: int | None = None) -> int:
        """The id of ``word``; an unknown word is a ValueError naming it (and its position, if given)."""
        if word in self.word_id:
            return self.word_id[word]
        where = "" if position is None else f" at position {position}"
        raise ValueError(f"unknown word {word!r}{where}; the vocabulary is {' '.join(self.vocab)}")

    def ids(self, words: str | Sequence[str] | Sequence[int] | np.ndarray) -> np.ndarray:
        """Token ids (T,) of space-separated words, a sequence of words or a sequence of ids, each checked."""
        items = words.split() if isinstance(words, str) else list(words)
        ids = []
        for position, item in enumerate(items):
            if isinstance(item, str):
                ids.append(self.id_of(item, position))
            elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                if not 0 <= item < self.vocab_size:
                    raise ValueError(f"token id {item} at position {position} is outside 0 … {self.vocab_size - 1}")
                ids.append(int(item))
            else:
                raise ValueError(f"token at position {position} is {item!r}, neither a word nor an integer id")
        return np.array(ids, dtype=np.int64)

    def words(self, ids: Sequence[int] | np.ndarray) -> tuple[str, ...]:
        return tuple(self.vocab[int(i)] for i in ids)

    def text(self, ids: Sequence[int] | np.ndarray) -> str:
        return " ".join(self.words(ids))

    # checks --------------------------------------------------------------------------------------------------
    def _check(self) -> None:
        if len(set(self.vocab)) != len(self.vocab) or BOS not in self.vocab or EOS not in self.vocab:
            raise ValueError(f"vocab must hold distinct words including {BOS} and {EOS}, got {self.vocab}")
        if np.ndim(self.W_E) != 2 or self.W_E.shape[0] != len(self.vocab):
            raise ValueError(f"W_E must be (vocab = {len(self.vocab)}, d_model), got shape {np.shape(self.W_E)}")
        d = self.W_E.shape[1]
        if np.ndim(self.W_P) != 2 or self.W_P.shape[1] != d or self.W_P.shape[0] < 1:
            raise ValueError(f"W_P must be (n_positions, d_model = {d}), got shape {np.shape(self.W_P)}")
        if not self.blocks:
            raise ValueError("a decoder needs at least one block")
        hd = self.blocks[0].W_Q.shape[1] if np.ndim(self.blocks[0].W_Q) == 2 else -1
        if isinstance(self.n_heads, bool) or not isinstance(self.n_heads, (int, np.integer)) or self.n_heads < 1:
            raise ValueError(f"n_heads must be a positive integer, got {self.n_heads!r}")
        if hd % self.n_heads:
            raise ValueError(f"n_heads = {self.n_heads} must divide the width h·d_k = {hd} of W_Q")
        d_ff = self.blocks[0].W1.shape[1] if np.ndim(self.blocks[0].W1) == 2 else -1
        expected = {
            "W_Q": (d, hd), "W_K": (d, hd), "W_V": (d, hd), "W_O": (hd, d), "ln1_gamma": (d,), "ln1_beta": (d,),
            "W1": (d, d_ff), "b1": (d_ff,), "W2": (d_ff, d), "b2": (d,), "ln2_gamma": (d,), "ln2_beta": (d,),
        }  # fmt: skip
        arrays = [("W_E", self.W_E), ("W_P", self.W_P)]
        for b, block in enumerate(self.blocks):
            for name, shape in expected.items():
                value = getattr(block, name)
                if np.shape(value) != shape:
                    raise ValueError(f"blocks[{b}].{name} must have shape {shape}, got {np.shape(value)}")
                arrays.append((f"blocks[{b}].{name}", value))
        for name, value in arrays:
            value = np.asarray(value)
            if not np.issubdtype(value.dtype, np.number) or not np.all(np.isfinite(value)):
                raise ValueError(f"{name} must be finite numbers (shape {value.shape})")
        if not (self.eps > 0 and np.isfinite(self.eps)):
            raise ValueError(f"eps must be a positive finite number, got {self.eps!r}")

    def arrays(self) -> dict[str, np.ndarray]:
        """Every weight by name: ``W_E``, ``W_P`` and ``blocks[b].W_Q`` … in order."""
        out = {"W_E": self.W_E, "W_P": self.W_P}
        for b, block in enumerate(self.blocks):
            out.update({f"blocks[{b}].{name}": getattr(block, name) for name in BLOCK_WEIGHT_NAMES})
        return out


def freeze(model: Decoder) -> Decoder:
    """The same model with every array read-only (a cached preset that no reader can change for another)."""
    for value in model.arrays().values():
        value.setflags(write=False)
    return model


# ---------------------------------------------------------------------------------------------------------
# The forward pass
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DecoderBlockTrace:
    """Every intermediate of one block, named as in the notes; a batch adds a leading axis to each."""

    X: np.ndarray  # (T, d_model)   the block's input
    Q: np.ndarray  # (T, h, d_k)
    K: np.ndarray  # (T, h, d_k)
    V: np.ndarray  # (T, h, d_k)
    scores: np.ndarray  # (h, T, T)   q·k/√d_k before the mask
    attn: np.ndarray  # (h, T, T)      softmax(scores + M): 0 above the diagonal
    head_out: np.ndarray  # (T, h, d_k)  Σ_j attn·V
    concat: np.ndarray  # (T, h·d_k)
    Y: np.ndarray  # (T, d_model)   concat · W_O
    residual1: np.ndarray  # (T, d_model)
    ln1_out: np.ndarray  # (T, d_model)
    ffn_pre: np.ndarray  # (T, d_ff)
    ffn_h: np.ndarray  # (T, d_ff)
    ffn_out: np.ndarray  # (T, d_model)
    residual2: np.ndarray  # (T, d_model)
    ln2_out: np.ndarray  # (T, d_model)   the next block's X

    @property
    def masked_scores(self) -> np.ndarray:
        """scores + M: −∞ where a position would look ahead (j > i)."""
        return self.scores + ops.causal_mask(self.scores.shape[-1])


@dataclass(frozen=True)
class DecoderTrace:
    """The decoder on token ids: the embedding, each block, the tied logits and the next-word probabilities."""

    tokens: np.ndarray  # (T,) ids
    X_tok: np.ndarray  # (T, d_model)  W_E[tokens]
    X_pos: np.ndarray  # (T, d_model)  W_P[:T]
    blocks: tuple[DecoderBlockTrace, ...]
    logits: np.ndarray  # (T, vocab)   ln2_out(last) · W_Eᵀ
    probs: np.ndarray  # (T, vocab)    softmax(logits): row t is the next word after tokens[0 … t]

    def __post_init__(self) -> None:
        # cached traces are read by many pages: none may change what the next one reads
        for array in (self.tokens, self.X_tok, self.X_pos, self.logits, self.probs):
            array.setflags(write=False)
        for block in self.blocks:
            for f in fields(block):
                getattr(block, f.name).setflags(write=False)

    @property
    def X(self) -> np.ndarray:
        return self.blocks[0].X

    @property
    def out(self) -> np.ndarray:
        """The last block's ln2_out, which the tied output layer reads."""
        return self.blocks[-1].ln2_out


def split_heads(x: np.ndarray, h: int) -> np.ndarray:
    """(..., T, h·d_k) → (..., T, h, d_k): column g = a·d_k + k goes to head a, index k."""
    return x.reshape(*x.shape[:-1], h, x.shape[-1] // h)


def merge_heads(x: np.ndarray) -> np.ndarray:
    """(..., T, h, d_k) → (..., T, h·d_k), the inverse of :func:`split_heads`."""
    return x.reshape(*x.shape[:-2], x.shape[-2] * x.shape[-1])


def heads_first(x: np.ndarray) -> np.ndarray:
    """(..., T, h, d_k) → (..., h, T, d_k)."""
    return np.swapaxes(x, -2, -3)


# --8<-- [start:block_forward]
def block_forward(block: DecoderBlock, X: np.ndarray, n_heads: int, eps: float) -> DecoderBlockTrace:
    """One Post-LN block with the causal mask: X (..., T, d_model) → every intermediate."""
    T = X.shape[-2]
    Q = split_heads(X @ block.W_Q, n_heads)  # (..., T, h, d_k)
    K = split_heads(X @ block.W_K, n_heads)
    V = split_heads(X @ block.W_V, n_heads)
    M = ops.causal_mask(T)  # (T, T): 0 on and below the diagonal, −∞ above
    per_head, scores, attn = ops.scaled_dot_product_attention(heads_first(Q), heads_first(K), heads_first(V), M)
    head_out = heads_first(per_head)  # (..., T, h, d_k)
    concat = merge_heads(head_out)  # (..., T, h·d_k)
    Y = concat @ block.W_O  # (..., T, d_model)
    residual1 = X + Y
    ln1_out = ops.layer_norm(residual1, block.ln1_gamma, block.ln1_beta, eps)
    ffn_pre, ffn_h, ffn_out = ops.ffn(ln1_out, block.W1, block.b1, block.W2, block.b2)  # GELU, tanh form
    residual2 = ln1_out + ffn_out
    ln2_out = ops.layer_norm(residual2, block.ln2_gamma, block.ln2_beta, eps)
    return DecoderBlockTrace(
        X=X, Q=Q, K=K, V=V, scores=scores, attn=attn, head_out=head_out, concat=concat, Y=Y,
        residual1=residual1, ln1_out=ln1_out, ffn_pre=ffn_pre, ffn_h=ffn_h, ffn_out=ffn_out,
        residual2=residual2, ln2_out=ln2_out,
    )  # fmt: skip
    # --8<-- [end:block_forward]


def check_tokens(model: Decoder, tokens: Sequence[int] | np.ndarray, name: str = "tokens") -> np.ndarray:
    """Ids (T,) or a batch (B, T), 1 ≤ T ≤ n_positions, each in the vocabulary; else a ValueError naming ``name``."""
    arr = np.asarray(tokens)
    if arr.ndim not in (1, 2) or arr.shape[-1] == 0:
        raise ValueError(f"{name} must be a non-empty sequence of ids (T,) or a batch (B, T), got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name} must be integer ids, got dtype {arr.dtype}")
    if arr.shape[-1] > model.n_positions:
        raise ValueError(f"{name} holds {arr.shape[-1]} tokens, more than the model's {model.n_positions} positions")
    bad = np.argwhere((arr < 0) | (arr >= model.vocab_size))
    if bad.size:
        index = tuple(int(i) for i in bad[0])
        raise ValueError(f"{name}{list(index)} = {arr[index]} is outside the vocabulary 0 … {model.vocab_size - 1}")
    return arr.astype(np.int64)


# --8<-- [start:forward]
def forward(model: Decoder, tokens: Sequence[int] | np.ndarray) -> DecoderTrace:
    """The decoder on ids (T,) (or a batch (B, T)): each block under the causal mask, then the tied output."""
    tokens = check_tokens(model, tokens)
    T = tokens.shape[-1]
    X_tok = model.W_E[tokens]  # (..., T, d_model)
    X_pos = np.broadcast_to(model.W_P[:T], X_tok.shape).copy()  # (..., T, d_model)
    X = X_tok + X_pos
    traces = []
    for block in model.blocks:
        traces.append(block_forward(block, X, model.n_heads, model.eps))
        X = traces[-1].ln2_out  # block b's output is block b + 1's input
    logits = X @ model.W_E.T  # (..., T, vocab)
    return DecoderTrace(
        tokens=tokens, X_tok=X_tok, X_pos=X_pos, blocks=tuple(traces), logits=logits, probs=ops.softmax(logits)
    )
    # --8<-- [end:forward]


# ---------------------------------------------------------------------------------------------------------
# The loss with teacher forcing
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SequenceLoss:
    """Next-word cross-entropy over a whole sequence in one pass: input tokens[:-1], targets tokens[1:]."""

    trace: DecoderTrace  # the decoder on the inputs
    targets: np.ndarray  # (T − 1,) (or (B, T − 1)) the word each position must predict
    step_losses: np.ndarray  # (T − 1,)  −log probs[t, targets[t]]

    @property
    def loss(self) -> float:
        """The sum of the per-position losses (over the batch too)."""
        return float(self.step_losses.sum())


def cross_entropy_rows(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """−log softmax(z)[target] per row, computed stably: logits (..., V), targets (...) → (...)."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_total = np.log(np.exp(shifted).sum(axis=-1))
    return log_total - np.take_along_axis(shifted, targets[..., None], axis=-1)[..., 0]


def sequence_loss(model: Decoder, tokens: Sequence[int] | np.ndarray) -> SequenceLoss:
    """Teacher forcing: the model reads tokens[:-1] in one pass; position t is scored on tokens[t + 1]."""
    tokens = check_tokens(model, tokens)
    if tokens.shape[-1] < 2:
        raise ValueError(f"tokens must hold at least 2 ids (an input and its next word), got {tokens.shape[-1]}")
    trace = forward(model, tokens[..., :-1])
    targets = tokens[..., 1:]
    losses = cross_entropy_rows(trace.logits, targets)
    losses.setflags(write=False)
    return SequenceLoss(trace=trace, targets=targets, step_losses=losses)


def step_by_step_losses(model: Decoder, tokens: Sequence[int] | np.ndarray) -> np.ndarray:
    """(T − 1,): step t runs the model again on tokens[:t + 1] alone and scores its last row on tokens[t + 1]."""
    tokens = check_tokens(model, tokens)
    if tokens.ndim != 1 or tokens.shape[0] < 2:
        raise ValueError(f"tokens must be one sequence of at least 2 ids, got shape {tokens.shape}")
    out = np.empty(len(tokens) - 1)
    for t in range(len(tokens) - 1):
        last = forward(model, tokens[: t + 1]).logits[-1]
        out[t] = cross_entropy_rows(last, np.array(tokens[t + 1]))
    return out
