"""Every gradient of the decoder's next-word loss, by the chain rule written out (the encoder's backward, per block).

The loss is ``decoder_model.sequence_loss``: teacher forcing over a whole sequence, L = Σ_t −log probs[t, x_{t+1}]
(summed over a batch too). The gradient flows back through the tied output (logits = out · W_Eᵀ), then through
each block from the last to the first, as in the notes' order reversed: LayerNorm 2, the FFN (W2, GELU′, W1),
LayerNorm 1, W_O, the weighted sum, the softmax (masked entries have weight 0 and pass no gradient), q·kᵀ/√d_k
and W_Q, W_K, W_V; block b's ∂L/∂X is block b − 1's ∂L/∂ln2_out. W_E collects a share at each end.

Everything works on one sequence (T,) or a batch (B, T); weight gradients sum over the batch and positions.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from . import decoder_model as dec
from .activations import gelu_derivative


@dataclass(frozen=True)
class BlockGradients:
    """∂L/∂(each intermediate and weight) of one block; ``d_X`` is what flows into the block below."""

    d_ln2_out: np.ndarray  # (T, d_model)
    d_residual2: np.ndarray  # (T, d_model)  = ∂L/∂ffn_out
    d_ffn_h: np.ndarray  # (T, d_ff)
    d_ffn_pre: np.ndarray  # (T, d_ff)
    d_ln1_out: np.ndarray  # (T, d_model)  skip path + through the FFN
    d_residual1: np.ndarray  # (T, d_model)  = ∂L/∂Y
    d_concat: np.ndarray  # (T, h·d_k)
    d_head_out: np.ndarray  # (T, h, d_k)
    d_attn: np.ndarray  # (h, T, T)
    d_scores: np.ndarray  # (h, T, T)   0 above the diagonal
    d_Q: np.ndarray  # (T, h, d_k)
    d_K: np.ndarray  # (T, h, d_k)
    d_V: np.ndarray  # (T, h, d_k)
    d_X: np.ndarray  # (T, d_model)  skip path + through W_Q, W_K, W_V
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


@dataclass(frozen=True)
class DecoderGradients:
    """The loss, ∂L/∂logits, each block's gradients and W_E's two shares."""

    loss: dec.SequenceLoss
    d_logits: np.ndarray  # (T, vocab)  probs − onehot(targets)
    blocks: tuple[BlockGradients, ...]
    d_W_E_output: np.ndarray  # (vocab, d_model)  the tied output layer's share
    d_W_E_input: np.ndarray  # (vocab, d_model)   the embedding lookup's share

    @property
    def d_W_E(self) -> np.ndarray:
        return self.d_W_E_output + self.d_W_E_input

    def weight_gradients(self) -> dict[str, np.ndarray]:
        """{name: ∂L/∂weight} under the names of ``Decoder.arrays`` (W_P is fixed: it has none)."""
        out = {"W_E": self.d_W_E}
        for b, grads in enumerate(self.blocks):
            out.update({f"blocks[{b}].{name}": getattr(grads, f"d_{name}") for name in dec.BLOCK_WEIGHT_NAMES})
        return out


def _sum_outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Σ over every leading axis and position of a[…, t, i]·b[…, t, j] → (i, j): a weight's gradient."""
    return a.reshape(-1, a.shape[-1]).T @ b.reshape(-1, b.shape[-1])


def _sum_rows(a: np.ndarray) -> np.ndarray:
    return a.reshape(-1, a.shape[-1]).sum(axis=0)


def layer_norm_backward(
    x: np.ndarray, gamma: np.ndarray, eps: float, d_y: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """y = γ ⊙ (x − μ)/σ + β per row ⇒ (∂L/∂x, ∂L/∂γ, ∂L/∂β); x, d_y (..., d)."""
    mu = x.mean(axis=-1, keepdims=True)
    sigma = np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) / sigma
    g = d_y * gamma  # ∂L/∂x̂
    d_x = (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) / sigma
    return d_x, _sum_rows(d_y * x_hat), _sum_rows(d_y)


def block_backward(
    block: dec.DecoderBlock, tr: dec.DecoderBlockTrace, n_heads: int, eps: float, d_ln2_out: np.ndarray
) -> BlockGradients:
    """One block in reverse, from ∂L/∂ln2_out to ∂L/∂X and every weight's gradient."""
    d_residual2, d_ln2_gamma, d_ln2_beta = layer_norm_backward(tr.residual2, block.ln2_gamma, eps, d_ln2_out)
    d_ffn_h = d_residual2 @ block.W2.T  # ffn_out = ffn_h·W2 + b2
    d_ffn_pre = d_ffn_h * gelu_derivative(tr.ffn_pre)
    d_ln1_out = d_residual2 + d_ffn_pre @ block.W1.T  # the skip path + through the FFN
    d_residual1, d_ln1_gamma, d_ln1_beta = layer_norm_backward(tr.residual1, block.ln1_gamma, eps, d_ln1_out)
    d_concat = d_residual1 @ block.W_O.T  # Y = concat·W_O
    d_head_out = dec.split_heads(d_concat, n_heads)  # (..., T, h, d_k)
    d_out, v, q, k = (dec.heads_first(a) for a in (d_head_out, tr.V, tr.Q, tr.K))  # (..., h, T, d_k)
    d_attn = d_out @ np.swapaxes(v, -1, -2)  # head_out = attn·V
    d_v = np.swapaxes(tr.attn, -1, -2) @ d_out
    d_scores = tr.attn * (d_attn - (d_attn * tr.attn).sum(axis=-1, keepdims=True))  # the softmax's Jacobian
    scale = 1.0 / np.sqrt(q.shape[-1])
    d_q = d_scores @ k * scale  # scores = q·kᵀ/√d_k
    d_k = np.swapaxes(d_scores, -1, -2) @ q * scale
    d_Q, d_K, d_V = (dec.heads_first(a) for a in (d_q, d_k, d_v))  # back to (..., T, h, d_k)
    flat = {name: dec.merge_heads(a) for name, a in (("Q", d_Q), ("K", d_K), ("V", d_V))}
    d_X = d_residual1 + flat["Q"] @ block.W_Q.T + flat["K"] @ block.W_K.T + flat["V"] @ block.W_V.T
    return BlockGradients(
        d_ln2_out=d_ln2_out, d_residual2=d_residual2, d_ffn_h=d_ffn_h, d_ffn_pre=d_ffn_pre, d_ln1_out=d_ln1_out,
        d_residual1=d_residual1, d_concat=d_concat, d_head_out=d_head_out, d_attn=d_attn, d_scores=d_scores,
        d_Q=d_Q, d_K=d_K, d_V=d_V, d_X=d_X,
        d_W_Q=_sum_outer(tr.X, flat["Q"]), d_W_K=_sum_outer(tr.X, flat["K"]), d_W_V=_sum_outer(tr.X, flat["V"]),
        d_W_O=_sum_outer(tr.concat, d_residual1), d_ln1_gamma=d_ln1_gamma, d_ln1_beta=d_ln1_beta,
        d_W1=_sum_outer(tr.ln1_out, d_ffn_pre), d_b1=_sum_rows(d_ffn_pre),
        d_W2=_sum_outer(tr.ffn_h, d_residual2), d_b2=_sum_rows(d_residual2),
        d_ln2_gamma=d_ln2_gamma, d_ln2_beta=d_ln2_beta,
    )  # fmt: skip


def backward(model: dec.Decoder, tokens) -> DecoderGradients:
    """Every gradient of ``decoder_model.sequence_loss(model, tokens)`` (one sequence (T,) or a batch (B, T))."""
    result = dec.sequence_loss(model, tokens)
    tr = result.trace
    d_logits = tr.probs.copy()  # ∂L/∂z = softmax(z) − onehot(target), row by row
    target = result.targets[..., None]
    np.put_along_axis(d_logits, target, np.take_along_axis(d_logits, target, -1) - 1.0, -1)
    d_W_E_output = _sum_outer(d_logits, tr.out)  # logits = out·W_Eᵀ ⇒ ∂L/∂W_E[v] = Σ_t ∂L/∂z[t, v]·out[t]
    grad = d_logits @ model.W_E  # ∂L/∂out
    per_block = []
    for block, block_trace in zip(reversed(model.blocks), reversed(tr.blocks), strict=True):
        per_block.append(block_backward(block, block_trace, model.n_heads, model.eps, grad))
        grad = per_block[-1].d_X
    d_W_E_input = np.zeros_like(model.W_E)
    np.add.at(d_W_E_input, tr.tokens.reshape(-1), grad.reshape(-1, grad.shape[-1]))  # a word used twice adds twice
    grads = DecoderGradients(
        loss=result, d_logits=d_logits, blocks=tuple(reversed(per_block)),
        d_W_E_output=d_W_E_output, d_W_E_input=d_W_E_input,
    )  # fmt: skip
    for block in grads.blocks:
        for f in fields(block):
            getattr(block, f.name).setflags(write=False)
    return grads
