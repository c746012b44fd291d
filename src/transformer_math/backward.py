"""The backward pass of the block: a loss on the preset's own task, then the chain rule stage by stage.

The loss: a masked-word objective, with the output layer tied to W_E. One word of a sentence is
hidden — its word embedding is replaced by zeros, so only its position W_P[t] enters the block — and the
block must name it from the rest of the sentence. The output layer is W_E
itself (tied): the logits of the hidden position p are z = ln2_out[p] · W_Eᵀ, one per word of the
vocabulary, and the loss is the cross-entropy L = −log softmax(z)[word at p].

Why this objective and not next-token prediction. The block has no causal mask: every position attends to
every other, the future included. Next-token prediction on it would leak the answer (position t can read word
t + 1 through attention and copy it), so the loss would teach copying, not language. Adding a causal mask
instead would change the block and forbid the relations the preset was built to show: これ → 花 looks
forward, from position 0 to position 3. Hiding the word is what a bidirectional encoder is trained with
(BERT's masked language model), and it asks exactly the question attention answers: which other words tell
you what is missing. Tying the output to W_E adds no parameter, keeps the logits in the embedding's own
meaning (a word scores high when ln2_out points along its row of W_E) and lets the gradient reach W_E from
both ends, which is worth seeing once. With one layer the loss reads only ln2_out[p]; the other positions
enter it only as the keys and values of p's attention row, so of attn, scores and Q only row p receives a
gradient (the training lab therefore reads what was learned from that row).

The chain rule, in the order the gradient flows: L ← z (cross-entropy) ← ln2_out (tied output) ← residual2
(LayerNorm 2: three terms) ← ln1_out via the skip path and via the FFN (W2, b2, GELU′, W1, b1) ← residual1
(LayerNorm 1) ← X via the skip path and via attention (W_O, the weighted sum, the softmax Jacobian, q·kᵀ/√d_k,
W_Q, W_K, W_V) ← W_E[tokens] (the input side of the tied embedding). Each stage is one small function below,
named for what it differentiates; ``backward`` chains them and returns every intermediate gradient in a
``BlockGradients`` whose names mirror ``BlockTrace`` (``d_scores`` is ∂L/∂scores, with the shape of
``scores``).

Conventions: row vectors (``X @ W``), float64.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache

import numpy as np

from . import ops
from .activations import gelu_derivative  # GELU′ of the tanh form (the activation's own module)
from .block import BlockTrace, BlockWeights, forward_from_embeddings
from .model import Encoder
from .preset import ENCODER

WEIGHT_NAMES: tuple[str, ...] = tuple(f.name for f in fields(BlockWeights) if f.name not in ("n_heads", "eps"))
"""Every trainable weight of the block, in the order of ``BlockWeights``."""


# ---------------------------------------------------------------------------------------------------------
# The loss: hide one word, name it from the others
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MaskedWordLoss:
    """The forward pass with word ``position`` hidden, and the loss of naming it."""

    tokens: np.ndarray  # (T,) the sentence as given
    position: int  # p, the hidden position
    trace: BlockTrace  # the block on X = W_E[tokens] with row p zeroed, + W_P
    logits: np.ndarray  # (vocab,)  z = ln2_out[p] · W_Eᵀ
    probs: np.ndarray  # (vocab,)  softmax(z)
    loss: float  # −log probs[tokens[p]]

    @property
    def target(self) -> int:
        """The hidden word's id."""
        return int(self.tokens[self.position])


def masked_embeddings(weights: BlockWeights, tokens: np.ndarray, position: int) -> tuple[np.ndarray, np.ndarray]:
    """(X_tok, X_pos), each (T, d_model): X_tok = W_E[tokens] with row ``position`` set to 0, X_pos = W_P.

    The vocabulary has no mask word, so hiding a word means removing its embedding: the block still sees
    that a word stands at position p (through W_P[p]) but not which.
    """
    X_tok = weights.W_E[tokens].copy()  # (T, d_model)
    X_tok[position] = 0.0
    return X_tok, ops.positional_encoding(len(tokens), weights.d_model)


def tied_logits(ln2_out_row: np.ndarray, W_E: np.ndarray) -> np.ndarray:
    """z = ln2_out[p] · W_Eᵀ: (d_model,) → (vocab,), the output layer tied to the embedding."""
    return W_E @ ln2_out_row


def cross_entropy(logits: np.ndarray, target: int) -> float:
    """L = −log softmax(z)[target] = log Σ_v e^{z_v} − z_target, computed stably (shifted by max z)."""
    shifted = logits - np.max(logits)
    return float(np.log(np.sum(np.exp(shifted))) - shifted[target])


def masked_word_loss(weights: BlockWeights, tokens: np.ndarray, position: int) -> MaskedWordLoss:
    """The block on a sentence with word ``position`` hidden, and the cross-entropy of naming that word."""
    check_weights(weights)
    tokens = check_sentence(tokens, weights.vocab_size)
    position = check_position(position, len(tokens))
    X_tok, X_pos = masked_embeddings(weights, tokens, position)
    trace = forward_from_embeddings(weights, tokens, X_tok, X_pos)
    logits = tied_logits(trace.ln2_out[position], weights.W_E)  # (vocab,)
    return MaskedWordLoss(
        tokens=tokens,
        position=position,
        trace=trace,
        logits=logits,
        probs=ops.softmax(logits),
        loss=cross_entropy(logits, int(tokens[position])),
    )


# ---------------------------------------------------------------------------------------------------------
# Stage by stage, from the loss back to the embedding
# ---------------------------------------------------------------------------------------------------------


def cross_entropy_backward(probs: np.ndarray, target: int) -> np.ndarray:
    """∂L/∂z = softmax(z) − onehot(target): (vocab,) → (vocab,). It sums to 0 over the vocabulary."""
    d_logits = probs.copy()
    d_logits[target] -= 1.0
    return d_logits


def tied_output_backward(
    d_logits: np.ndarray, ln2_out: np.ndarray, W_E: np.ndarray, position: int
) -> tuple[np.ndarray, np.ndarray]:
    """z = ln2_out[p] · W_Eᵀ ⇒ ∂L/∂ln2_out[p] = ∂L/∂z · W_E and ∂L/∂W_E (output side) = (∂L/∂z)ᵀ ⊗ ln2_out[p].

    Returns (d_ln2_out (T, d_model), zero except row p; d_W_E_output (vocab, d_model)).
    """
    d_ln2_out = np.zeros_like(ln2_out)
    d_ln2_out[position] = d_logits @ W_E  # (d_model,)
    return d_ln2_out, np.outer(d_logits, ln2_out[position])


@dataclass(frozen=True)
class LayerNormGradients:
    """y = γ ⊙ x̂ + β, x̂ = (x − μ)/σ, σ = √(var + ε), per row; ∂L/∂x split into its three terms.

    ĝ = ∂L/∂x̂ = ∂L/∂y ⊙ γ, and ∂L/∂x = direct + mean + variance with

    - direct = ĝ / σ (x moves x̂ directly),
    - mean = −mean(ĝ) / σ (x moves μ, which every x̂ subtracts),
    - variance = −x̂ · mean(ĝ ⊙ x̂) / σ (x moves σ, which every x̂ divides by).
    """

    d_x_hat: np.ndarray  # (T, d)  ĝ
    direct: np.ndarray  # (T, d)
    mean: np.ndarray  # (T, d)   constant along each row
    variance: np.ndarray  # (T, d)  proportional to x̂ along each row
    d_gamma: np.ndarray  # (d,)  Σ_t ∂L/∂y ⊙ x̂
    d_beta: np.ndarray  # (d,)   Σ_t ∂L/∂y

    @property
    def d_x(self) -> np.ndarray:
        """(T, d) ∂L/∂x = direct + mean + variance; each row sums to 0 (LayerNorm ignores a shift of x)."""
        return self.direct + self.mean + self.variance


def layer_norm_backward(x: np.ndarray, gamma: np.ndarray, eps: float, d_y: np.ndarray) -> LayerNormGradients:
    """LayerNorm's backward for input x (T, d) and ∂L/∂y (T, d); the biased variance, ε inside the root."""
    d = x.shape[-1]  # means as sums / d: np.mean's overhead is most of the cost at this size
    mu = x.sum(axis=-1, keepdims=True) / d  # (T, 1)
    sigma = np.sqrt(((x - mu) ** 2).sum(axis=-1, keepdims=True) / d + eps)  # (T, 1)
    x_hat = (x - mu) / sigma  # (T, d)
    d_x_hat = d_y * gamma
    return LayerNormGradients(
        d_x_hat=d_x_hat,
        direct=d_x_hat / sigma,
        mean=np.zeros_like(x) - d_x_hat.sum(axis=-1, keepdims=True) / d / sigma,
        variance=-x_hat * (d_x_hat * x_hat).sum(axis=-1, keepdims=True) / d / sigma,
        d_gamma=(d_y * x_hat).sum(axis=0),
        d_beta=d_y.sum(axis=0),
    )


def residual_backward(d_sum: np.ndarray, d_through_sublayer: np.ndarray) -> np.ndarray:
    """s = x + F(x) ⇒ ∂L/∂x = ∂L/∂s (the skip path, untouched) + ∂L/∂F · ∂F/∂x (through the sublayer)."""
    return d_sum + d_through_sublayer


def linear_backward(x: np.ndarray, W: np.ndarray, d_y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """y = x·W + b with x (T, m), W (m, n) ⇒ returns (∂L/∂x, ∂L/∂W, ∂L/∂b):

    ∂L/∂x = ∂L/∂y·Wᵀ (T, m),  ∂L/∂W = xᵀ·∂L/∂y (m, n),  ∂L/∂b = Σ_t ∂L/∂y (n,).
    """
    return d_y @ W.T, x.T @ d_y, d_y.sum(axis=0)


def activation_backward(ffn_pre: np.ndarray, d_ffn_h: np.ndarray) -> np.ndarray:
    """ffn_h = GELU(ffn_pre) ⇒ ∂L/∂ffn_pre = ∂L/∂ffn_h ⊙ GELU′(ffn_pre): (T, d_ff) → (T, d_ff)."""
    return d_ffn_h * gelu_derivative(ffn_pre)


@dataclass(frozen=True)
class FFNGradients:
    """Backward of ffn_out = GELU(x·W1 + b1)·W2 + b2."""

    d_ffn_h: np.ndarray  # (T, d_ff)    ∂L/∂ffn_out · W2ᵀ
    d_ffn_pre: np.ndarray  # (T, d_ff)  ∂L/∂ffn_h ⊙ GELU′(ffn_pre)
    d_x: np.ndarray  # (T, d_model)     ∂L/∂ffn_pre · W1ᵀ (the FFN's share of ∂L/∂x)
    d_W1: np.ndarray  # (d_model, d_ff)
    d_b1: np.ndarray  # (d_ff,)
    d_W2: np.ndarray  # (d_ff, d_model)
    d_b2: np.ndarray  # (d_model,)


def ffn_backward(
    x: np.ndarray, ffn_pre: np.ndarray, ffn_h: np.ndarray, W1: np.ndarray, W2: np.ndarray, d_ffn_out: np.ndarray
) -> FFNGradients:
    """The FFN in reverse: W2 and b2, then GELU′, then W1 and b1."""
    d_ffn_h, d_W2, d_b2 = linear_backward(ffn_h, W2, d_ffn_out)
    d_ffn_pre = activation_backward(ffn_pre, d_ffn_h)
    d_x, d_W1, d_b1 = linear_backward(x, W1, d_ffn_pre)
    return FFNGradients(d_ffn_h=d_ffn_h, d_ffn_pre=d_ffn_pre, d_x=d_x, d_W1=d_W1, d_b1=d_b1, d_W2=d_W2, d_b2=d_b2)


def weighted_sum_backward(attn: np.ndarray, V: np.ndarray, d_head_out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """head_out[i] = Σ_j attn[i, j]·V[j] per head ⇒ ∂L/∂attn[i, j] = ∂L/∂head_out[i] · V[j],
    ∂L/∂V[j] = Σ_i attn[i, j]·∂L/∂head_out[i].

    attn (h, T, T); V, d_head_out (T, h, d_k) → (d_attn (h, T, T), d_V (T, h, d_k)).
    """
    d_out = d_head_out.transpose(1, 0, 2)  # (h, T, d_k)
    d_attn = d_out @ V.transpose(1, 2, 0)  # (h, T, T)
    d_V = (attn.transpose(0, 2, 1) @ d_out).transpose(1, 0, 2)  # (T, h, d_k)
    return d_attn, d_V


def softmax_jacobian(a: np.ndarray) -> np.ndarray:
    """∂A_i/∂S_j = A_i(δ_ij − A_j) for each row a of softmax weights: (..., n) → (..., n, n).

    The diagonal A_i(1 − A_i) is how a weight follows its own score; the off-diagonal −A_i·A_j is how it
    yields to the others (the row must still sum to 1). Symmetric; every row sums to 0.
    """
    diagonal = a[..., :, None] * np.eye(a.shape[-1])
    return diagonal - a[..., :, None] * a[..., None, :]


def softmax_backward(attn: np.ndarray, d_attn: np.ndarray) -> np.ndarray:
    """∂L/∂S_j = Σ_i ∂L/∂A_i · A_i(δ_ij − A_j) per row, through the softmax Jacobian: (..., n) → (..., n)."""
    return np.einsum("...i,...ij->...j", d_attn, softmax_jacobian(attn))


def scores_backward(Q: np.ndarray, K: np.ndarray, d_scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """scores[i, j] = q_i·k_j/√d_k per head ⇒ ∂L/∂q_i = Σ_j ∂L/∂scores[i, j]·k_j/√d_k,
    ∂L/∂k_j = Σ_i ∂L/∂scores[i, j]·q_i/√d_k.

    Q, K (T, h, d_k); d_scores (h, T, T) → (d_Q, d_K), each (T, h, d_k). The 1/√d_k of the forward
    scales the gradient that reaches Q and K by the same factor.
    """
    scale = 1.0 / np.sqrt(Q.shape[-1])
    q, k = Q.transpose(1, 0, 2), K.transpose(1, 0, 2)  # (h, T, d_k)
    d_q = d_scores @ k * scale  # (h, T, d_k)
    d_k = d_scores.transpose(0, 2, 1) @ q * scale
    return d_q.transpose(1, 0, 2), d_k.transpose(1, 0, 2)


def embedding_backward(
    tokens: np.ndarray, d_X_tok: np.ndarray, vocab_size: int, hidden_position: int | None
) -> np.ndarray:
    """X_tok[t] = W_E[tokens[t]] ⇒ ∂L/∂W_E[v] = Σ_{t: tokens[t] = v} ∂L/∂X_tok[t] (input side), (vocab, d_model).

    The hidden position's row of X_tok is 0, not W_E[tokens[p]], so it adds nothing to W_E.
    """
    d_W_E = np.zeros((vocab_size, d_X_tok.shape[1]))
    keep = np.ones(len(tokens), dtype=bool)
    if hidden_position is not None:
        keep[hidden_position] = False
    np.add.at(d_W_E, tokens[keep], d_X_tok[keep])  # a word used twice collects both rows
    return d_W_E


# ---------------------------------------------------------------------------------------------------------
# Every gradient of one pass
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlockGradients:
    """∂L/∂(everything) for one masked-word loss. ``d_X`` has the shape of ``BlockTrace.X``, and so on.

    Where a value feeds two paths, both shares are kept beside the sum (``_skip`` and ``_ffn``/``_attn``),
    and each LayerNorm's ∂L/∂input beside its three terms, so a page can show each one.
    """

    loss: MaskedWordLoss
    d_logits: np.ndarray  # (vocab,)
    d_ln2_out: np.ndarray  # (T, d_model), zero except the hidden row
    d_residual2_direct: np.ndarray  # (T, d_model)  LayerNorm 2's three terms
    d_residual2_mean: np.ndarray
    d_residual2_variance: np.ndarray
    d_residual2: np.ndarray  # (T, d_model)  their sum
    d_ffn_out: np.ndarray  # (T, d_model)  = d_residual2
    d_ffn_h: np.ndarray  # (T, d_ff)
    d_ffn_pre: np.ndarray  # (T, d_ff)
    d_ln1_out_skip: np.ndarray  # (T, d_model)  = d_residual2, the skip path
    d_ln1_out_ffn: np.ndarray  # (T, d_model)   through the FFN
    d_ln1_out: np.ndarray  # (T, d_model)
    d_residual1_direct: np.ndarray  # (T, d_model)  LayerNorm 1's three terms
    d_residual1_mean: np.ndarray
    d_residual1_variance: np.ndarray
    d_residual1: np.ndarray  # (T, d_model)
    d_Y: np.ndarray  # (T, d_model)  = d_residual1
    d_concat: np.ndarray  # (T, h·d_k)
    d_head_out: np.ndarray  # (T, h, d_k)
    d_attn: np.ndarray  # (h, T, T)
    d_scores: np.ndarray  # (h, T, T)   each row sums to 0
    d_Q: np.ndarray  # (T, h, d_k)
    d_K: np.ndarray  # (T, h, d_k)
    d_V: np.ndarray  # (T, h, d_k)
    d_X_skip: np.ndarray  # (T, d_model)  = d_residual1, the skip path
    d_X_attn: np.ndarray  # (T, d_model)  through W_Q, W_K, W_V
    d_X: np.ndarray  # (T, d_model)
    d_X_tok: np.ndarray  # (T, d_model)  = d_X (W_P is fixed, it gets no gradient)
    d_W_E_output: np.ndarray  # (vocab, d_model)  the tied output layer's share
    d_W_E_input: np.ndarray  # (vocab, d_model)   the embedding lookup's share
    d_W_E: np.ndarray  # (vocab, d_model)
    d_W_Q: np.ndarray  # (d_model, h·d_k)
    d_W_K: np.ndarray
    d_W_V: np.ndarray
    d_W_O: np.ndarray  # (h·d_k, d_model)
    d_ln1_gamma: np.ndarray  # (d_model,)
    d_ln1_beta: np.ndarray
    d_W1: np.ndarray  # (d_model, d_ff)
    d_b1: np.ndarray  # (d_ff,)
    d_W2: np.ndarray  # (d_ff, d_model)
    d_b2: np.ndarray  # (d_model,)
    d_ln2_gamma: np.ndarray  # (d_model,)
    d_ln2_beta: np.ndarray

    def __post_init__(self) -> None:
        # Pages cite these arrays; one that wrote into them would change what the next page reads.
        for name in _GRADIENT_FIELDS:
            getattr(self, name).setflags(write=False)

    def weight_gradient(self, name: str) -> np.ndarray:
        """∂L/∂W for the weight of ``BlockWeights`` called ``name`` (``"W_Q"``, ``"ln1_gamma"``, …)."""
        if name not in WEIGHT_NAMES:
            raise ValueError(f"no weight named {name!r}: the block's weights are {', '.join(WEIGHT_NAMES)}")
        return getattr(self, f"d_{name}")

    def weight_gradients(self) -> dict[str, np.ndarray]:
        """{weight name: ∂L/∂weight} for every weight of the block, in the order of ``BlockWeights``."""
        return {name: self.weight_gradient(name) for name in WEIGHT_NAMES}


_GRADIENT_FIELDS = tuple(f.name for f in fields(BlockGradients) if f.name != "loss")


def gradient_names() -> tuple[str, ...]:
    """The names of every array of ``BlockGradients`` (all but ``loss``), in order."""
    return _GRADIENT_FIELDS


def backward(weights: BlockWeights, tokens: np.ndarray, position: int) -> BlockGradients:
    """Every gradient of the masked-word loss (word ``position`` of ``tokens`` hidden), stage by stage."""
    result = masked_word_loss(weights, tokens, position)
    tr, w, p = result.trace, weights, result.position

    d_logits = cross_entropy_backward(result.probs, result.target)  # (vocab,)
    d_ln2_out, d_W_E_output = tied_output_backward(d_logits, tr.ln2_out, w.W_E, p)

    ln2 = layer_norm_backward(tr.residual2, w.ln2_gamma, w.eps, d_ln2_out)
    d_residual2 = ln2.d_x  # flows unchanged into both ffn_out and the skip path to ln1_out
    ffn = ffn_backward(tr.ln1_out, tr.ffn_pre, tr.ffn_h, w.W1, w.W2, d_residual2)
    d_ln1_out = residual_backward(d_residual2, ffn.d_x)

    ln1 = layer_norm_backward(tr.residual1, w.ln1_gamma, w.eps, d_ln1_out)
    d_residual1 = ln1.d_x  # flows unchanged into both Y and the skip path to X
    d_concat, d_W_O, _ = linear_backward(tr.concat, w.W_O, d_residual1)  # Y = concat·W_O has no bias
    d_head_out = ops.split_heads(d_concat, w.n_heads)  # (T, h, d_k)
    d_attn, d_V = weighted_sum_backward(tr.attn, tr.V, d_head_out)
    d_scores = softmax_backward(tr.attn, d_attn)
    d_Q, d_K = scores_backward(tr.Q, tr.K, d_scores)

    projections = [linear_backward(tr.X, W, ops.concat_heads(d)) for W, d in ((w.W_Q, d_Q), (w.W_K, d_K), (w.W_V, d_V))]
    d_X_attn = sum(d_x for d_x, _, _ in projections)
    d_X = residual_backward(d_residual1, d_X_attn)
    d_W_E_input = embedding_backward(tr.tokens, d_X, w.vocab_size, p)

    return BlockGradients(
        loss=result, d_logits=d_logits, d_ln2_out=d_ln2_out,
        d_residual2_direct=ln2.direct, d_residual2_mean=ln2.mean, d_residual2_variance=ln2.variance,
        d_residual2=d_residual2, d_ffn_out=d_residual2, d_ffn_h=ffn.d_ffn_h, d_ffn_pre=ffn.d_ffn_pre,
        d_ln1_out_skip=d_residual2, d_ln1_out_ffn=ffn.d_x, d_ln1_out=d_ln1_out,
        d_residual1_direct=ln1.direct, d_residual1_mean=ln1.mean, d_residual1_variance=ln1.variance,
        d_residual1=d_residual1, d_Y=d_residual1, d_concat=d_concat, d_head_out=d_head_out,
        d_attn=d_attn, d_scores=d_scores, d_Q=d_Q, d_K=d_K, d_V=d_V,
        d_X_skip=d_residual1, d_X_attn=d_X_attn, d_X=d_X, d_X_tok=d_X,
        d_W_E_output=d_W_E_output, d_W_E_input=d_W_E_input, d_W_E=d_W_E_output + d_W_E_input,
        d_W_Q=projections[0][1], d_W_K=projections[1][1], d_W_V=projections[2][1], d_W_O=d_W_O,
        d_ln1_gamma=ln1.d_gamma, d_ln1_beta=ln1.d_beta, d_W1=ffn.d_W1, d_b1=ffn.d_b1,
        d_W2=ffn.d_W2, d_b2=ffn.d_b2, d_ln2_gamma=ln2.d_gamma, d_ln2_beta=ln2.d_beta,
    )  # fmt: skip


@cache
def preset_gradients(sentence_number: int, position: int, model: Encoder = ENCODER) -> BlockGradients:
    """Every gradient of ``model`` (the hand-crafted preset) on its example sentence ``sentence_number`` with
    word ``position`` hidden.

    Cached per model like its traces (pages cite it many times; its arrays are read-only).
    """
    return backward(model.weights, model.sentence(sentence_number).token_ids, position)


def gradient_norms(grads: BlockGradients) -> dict[str, float]:
    """‖∂L/∂·‖ (Frobenius) of each stage's gradient, from the loss back to X — how its size changes."""
    stages = (
        "d_ln2_out", "d_residual2", "d_ffn_h", "d_ffn_pre", "d_ln1_out", "d_residual1",
        "d_head_out", "d_attn", "d_scores", "d_Q", "d_K", "d_V", "d_X",
    )  # fmt: skip
    return {name: float(np.linalg.norm(getattr(grads, name))) for name in stages}


# ---------------------------------------------------------------------------------------------------------
# Input checks: what was wrong, and where
# ---------------------------------------------------------------------------------------------------------


def check_weights(weights: BlockWeights) -> None:
    """Every weight array finite (BlockWeights checks at construction; an array can be written into later)."""
    if not isinstance(weights, BlockWeights):
        raise ValueError(f"weights must be a BlockWeights, got {type(weights).__name__}")
    for name in WEIGHT_NAMES:
        value = np.asarray(getattr(weights, name))
        finite = np.isfinite(value)
        if not finite.all():
            index = tuple(int(i) for i in np.argwhere(~finite)[0])
            raise ValueError(f"weights.{name}{list(index)} = {value[index]} is not finite (shape {value.shape})")


def check_sentence(tokens: np.ndarray, vocab_size: int) -> np.ndarray:
    """Token ids of one sentence (T ≥ 1 words), each in the vocabulary."""
    arr = np.asarray(tokens)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(
            f"tokens must be one sentence: a non-empty 1-D sequence of word ids (T,), got shape {arr.shape}"
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"tokens must be integer word ids, got dtype {arr.dtype}")
    bad = np.flatnonzero((arr < 0) | (arr >= vocab_size))
    if bad.size:
        raise ValueError(f"tokens[{bad[0]}] = {arr[bad[0]]} is outside the vocabulary 0 … {vocab_size - 1}")
    return arr.astype(np.int64)


def check_position(position: int, T: int) -> int:
    """The hidden position: an integer 0 … T − 1."""
    is_int = isinstance(position, (int, np.integer)) and not isinstance(position, bool)
    if not is_int or not 0 <= position < T:
        raise ValueError(f"position must be an integer 0 … {T - 1} (the word to hide), got {position!r}")
    return int(position)


# ---------------------------------------------------------------------------------------------------------
# The √d_k argument, computed: how big is the softmax's gradient as d_k grows?
# ---------------------------------------------------------------------------------------------------------

SQRT_DK_SEED = 2017
"""Seed for the √d_k measurement (the Transformer paper appeared in 2017)."""
SQRT_DK_KEYS = 8
"""Keys per query row (a row of attention weights over 8 keys)."""
SQRT_DK_QUERIES = 2000
"""Query rows averaged over."""
SQRT_DK_SIZES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
"""The d_k swept: from one dimension to the original Transformer's d_model."""
SATURATED = 0.99
"""A row counts as saturated when its largest attention weight exceeds this."""


@dataclass(frozen=True)
class SoftmaxGradientSize:
    """For one d_k, with or without the 1/√d_k: how spread the scores are and how much gradient gets through.

    All are means over the query rows, each row a softmax over ``SQRT_DK_KEYS`` keys.
    """

    d_k: int
    scaled: bool
    score_std: float  # std of the scores (≈ √d_k unscaled, ≈ 1 scaled)
    max_weight: float  # mean of each row's largest attention weight (1 = one-hot)
    saturated_fraction: float  # share of rows whose largest weight exceeds SATURATED
    jacobian_norm: float  # mean spectral norm of ∂A/∂S = diag(A) − AAᵀ (at most 1/2; 0 when one-hot)
    jacobian_max_entry: float  # mean of max_i A_i(1 − A_i), its largest entry (at most 1/4)
    d_scores_rms: float  # RMS of ∂L/∂S = J·∂L/∂A for an upstream ∂L/∂A of unit-variance entries


@cache
def random_scores(d_k: int, n_keys: int, n_queries: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(q·k (n_queries, n_keys), an upstream ∂L/∂A (n_queries, n_keys)) for q, k and ∂L/∂A with N(0, 1) entries.

    Seeded per d_k, so adding a d_k to a sweep changes no other one; the same draw serves the scaled and the
    unscaled measurement. Read-only (cached).
    """
    rng = np.random.default_rng([seed, int(d_k)])
    q = rng.standard_normal((n_queries, d_k))
    k = rng.standard_normal((n_queries, n_keys, d_k))
    d_attn = rng.standard_normal((n_queries, n_keys))
    raw = np.einsum("qd,qkd->qk", q, k)
    raw.setflags(write=False)
    d_attn.setflags(write=False)
    return raw, d_attn


def softmax_gradient_size(
    d_k: int, scaled: bool, n_keys: int = SQRT_DK_KEYS, n_queries: int = SQRT_DK_QUERIES, seed: int = SQRT_DK_SEED
) -> SoftmaxGradientSize:
    """The sizes of one softmax row's scores, Jacobian and ∂L/∂S at this d_k, scores divided by √d_k or not."""
    if isinstance(d_k, bool) or not isinstance(d_k, (int, np.integer)) or d_k < 1:
        raise ValueError(f"d_k must be a positive integer, got {d_k!r}")
    if n_keys < 2 or n_queries < 1:
        raise ValueError(f"n_keys must be ≥ 2 and n_queries ≥ 1, got n_keys={n_keys!r}, n_queries={n_queries!r}")
    raw, d_attn = random_scores(int(d_k), n_keys, n_queries, seed)
    S = raw / np.sqrt(d_k) if scaled else raw  # (n_queries, n_keys)
    A = ops.softmax(S)
    J = softmax_jacobian(A)  # (n_queries, n_keys, n_keys)
    d_S = softmax_backward(A, d_attn)  # (n_queries, n_keys)
    return SoftmaxGradientSize(
        d_k=int(d_k),
        scaled=bool(scaled),
        score_std=float(S.std()),
        max_weight=float(A.max(axis=-1).mean()),
        saturated_fraction=float(np.mean(A.max(axis=-1) > SATURATED)),
        jacobian_norm=float(np.linalg.eigvalsh(J)[:, -1].mean()),  # J is symmetric and ⪰ 0: ‖J‖₂ = λ_max
        jacobian_max_entry=float((A * (1.0 - A)).max(axis=-1).mean()),
        d_scores_rms=float(np.sqrt(np.mean(d_S**2))),
    )


@dataclass(frozen=True)
class SqrtDkSweep:
    """``softmax_gradient_size`` over the d_k of ``SQRT_DK_SIZES``; every array is (len(d_k),)."""

    d_k: np.ndarray  # (n,) ints
    scaled: tuple[SoftmaxGradientSize, ...]  # one per d_k, scores divided by √d_k
    unscaled: tuple[SoftmaxGradientSize, ...]  # one per d_k, raw q·k

    def column(self, name: str, scaled: bool) -> np.ndarray:
        """One measure across d_k, e.g. ``column("jacobian_norm", scaled=False)`` → (n,)."""
        names = [f.name for f in fields(SoftmaxGradientSize) if f.name not in ("d_k", "scaled")]
        if name not in names:
            raise ValueError(f"no measure named {name!r}: choose one of {', '.join(names)}")
        return np.array([getattr(row, name) for row in (self.scaled if scaled else self.unscaled)])

    def at(self, d_k: int, scaled: bool) -> SoftmaxGradientSize:
        """The measurement at one swept d_k."""
        rows = self.scaled if scaled else self.unscaled
        for row in rows:
            if row.d_k == d_k:
                return row
        raise ValueError(f"d_k = {d_k!r} was not swept: the sweep has {', '.join(str(r.d_k) for r in rows)}")


@cache
def sqrt_dk_sweep(d_ks: tuple[int, ...] = SQRT_DK_SIZES, seed: int = SQRT_DK_SEED) -> SqrtDkSweep:
    """The softmax's gradient size at each d_k, with and without the 1/√d_k (same q, k, upstream for both).

    Cached: a page and a panel readout cite the same sweep.
    """
    if len(d_ks) == 0:
        raise ValueError("d_ks must name at least one d_k")
    d_k = np.array(d_ks, dtype=np.int64)
    d_k.setflags(write=False)
    return SqrtDkSweep(
        d_k=d_k,
        scaled=tuple(softmax_gradient_size(d, True, seed=seed) for d in d_ks),
        unscaled=tuple(softmax_gradient_size(d, False, seed=seed) for d in d_ks),
    )
