"""The independent reference for the backward pass: the masked-word loss in PyTorch (float64), torch.autograd.

``transformer_math.backward`` derives every gradient by hand, stage by stage; here the same loss is written
with PyTorch's own ops (``F.embedding``, ``F.layer_norm``, ``F.gelu(approximate="tanh")``, ``torch.softmax``,
``F.cross_entropy``), the positional encoding and the hiding of the word are recomputed, and autograd does
the rest. It shares nothing with transformer_math but the weights and the token ids (and the hidden
position). Where the forward value feeds two paths (the skip path and a sublayer), each path gets its own
identity node so that autograd reports both shares, as ``BlockGradients`` keeps them.

torch is imported lazily, as in ``torch_crosscheck``: the math layer stays numpy-only.
"""

from __future__ import annotations

import math
from dataclasses import fields

import numpy as np

from transformer_math import SENTENCES, BlockWeights, preset_weights
from transformer_math import backward as bw
from transformer_site import torch_crosscheck

TOLERANCE = torch_crosscheck.TOLERANCE  # one bound for the forward and the backward check


def torch_gradients(weights: BlockWeights, tokens: np.ndarray, position: int) -> dict[str, np.ndarray]:
    """∂L/∂(every intermediate and weight) by autograd, under the names of ``BlockGradients``, as numpy arrays.

    Besides the gradients it returns ``"loss"`` (a 0-d array). LayerNorm's three terms are not separate
    nodes of PyTorch's graph, so they are absent: their sum ``d_residual1``/``d_residual2`` is compared.
    """
    import torch
    import torch.nn.functional as F

    names = [f.name for f in fields(weights) if isinstance(getattr(weights, f.name), np.ndarray)]
    W = {n: torch.tensor(np.asarray(getattr(weights, n), dtype=np.float64), requires_grad=True) for n in names}
    ids = torch.tensor(np.asarray(tokens, dtype=np.int64))
    T, d, h = ids.shape[0], weights.d_model, weights.n_heads
    d_k = W["W_Q"].shape[1] // h
    kept: dict[str, torch.Tensor] = {}

    def keep(name: str, value: torch.Tensor) -> torch.Tensor:
        value.retain_grad()
        kept[name] = value
        return value

    def branch(value: torch.Tensor) -> torch.Tensor:  # a fresh identity node: its grad is one path's share
        return value * 1.0

    W_E_input, W_E_output = keep("W_E_input", branch(W["W_E"])), keep("W_E_output", branch(W["W_E"]))
    visible = torch.ones(T, 1, dtype=torch.float64)
    visible[position] = 0.0
    X_tok = keep("X_tok", F.embedding(ids, W_E_input) * visible)
    t = torch.arange(T, dtype=torch.float64)[:, None]
    inv_freq = torch.pow(torch.tensor(10000.0, dtype=torch.float64), -torch.arange(0, d, 2, dtype=torch.float64) / d)
    X_pos = torch.stack([torch.sin(t * inv_freq), torch.cos(t * inv_freq)], dim=-1).reshape(T, d)
    X = keep("X", X_tok + X_pos)
    X_skip, X_attn = keep("X_skip", branch(X)), keep("X_attn", branch(X))

    Q = keep("Q", (X_attn @ W["W_Q"]).view(T, h, d_k))
    K = keep("K", (X_attn @ W["W_K"]).view(T, h, d_k))
    V = keep("V", (X_attn @ W["W_V"]).view(T, h, d_k))
    q, k, v = (a.transpose(0, 1) for a in (Q, K, V))  # (h, T, d_k)
    scores = keep("scores", q @ k.transpose(-2, -1) / math.sqrt(d_k))
    attn = keep("attn", torch.softmax(scores, dim=-1))
    head_out = keep("head_out", (attn @ v).transpose(0, 1))  # (T, h, d_k)
    concat = keep("concat", head_out.reshape(T, h * d_k))
    Y = keep("Y", concat @ W["W_O"])
    residual1 = keep("residual1", X_skip + Y)
    ln1_out = keep("ln1_out", F.layer_norm(residual1, (d,), W["ln1_gamma"], W["ln1_beta"], weights.eps))
    ln1_skip, ln1_ffn = keep("ln1_out_skip", branch(ln1_out)), keep("ln1_out_ffn", branch(ln1_out))
    ffn_pre = keep("ffn_pre", F.linear(ln1_ffn, W["W1"].T, W["b1"]))
    ffn_h = keep("ffn_h", F.gelu(ffn_pre, approximate="tanh"))
    ffn_out = keep("ffn_out", F.linear(ffn_h, W["W2"].T, W["b2"]))
    residual2 = keep("residual2", ln1_skip + ffn_out)
    ln2_out = keep("ln2_out", F.layer_norm(residual2, (d,), W["ln2_gamma"], W["ln2_beta"], weights.eps))
    logits = keep("logits", ln2_out[position] @ W_E_output.T)
    loss = F.cross_entropy(logits[None, :], ids[position : position + 1])
    loss.backward()

    grads = {f"d_{name}": value.grad for name, value in (*kept.items(), *W.items())}
    result = {name: g.detach().numpy().copy() for name, g in grads.items()}
    result["loss"] = np.asarray(loss.item())
    return result


def torch_layer_norm_terms(x: np.ndarray, gamma: np.ndarray, eps: float, d_y: np.ndarray) -> dict[str, np.ndarray]:
    """LayerNorm's three terms of ∂L/∂x by autograd, each by letting only one road from x carry a gradient.

    x̂ = (x − μ)/σ reaches y through x itself, through μ and through σ. Detaching the other two leaves one:
    ``direct`` (μ, σ held), ``mean`` (only μ moves), ``variance`` (only σ moves). L = Σ y ⊙ ∂L/∂y.
    Returns {"direct", "mean", "variance", "total"}, each (T, d).
    """
    import torch

    g = torch.tensor(np.asarray(gamma, dtype=np.float64))
    upstream = torch.tensor(np.asarray(d_y, dtype=np.float64))  # a copy: the trace is read-only

    def grad(road: str) -> np.ndarray:
        x_t = torch.tensor(np.asarray(x, dtype=np.float64), requires_grad=True)
        held = x_t.detach()
        mu = x_t.mean(-1, keepdim=True) if road in ("mean", "total") else held.mean(-1, keepdim=True)
        source = x_t if road in ("variance", "total") else held
        sigma = torch.sqrt(source.var(-1, unbiased=False, keepdim=True) + eps)
        if road not in ("variance", "total"):
            sigma = sigma.detach()
        numerator = (x_t if road in ("direct", "total") else held) - mu
        ((numerator / sigma * g) * upstream).sum().backward()
        return x_t.grad.numpy().copy()

    return {road: grad(road) for road in ("direct", "mean", "variance", "total")}


def compared_names() -> tuple[str, ...]:
    """The gradients of ``BlockGradients`` that autograd also reports (all but LayerNorm's three terms)."""
    terms = ("_direct", "_mean", "_variance")
    return tuple(n for n in bw.gradient_names() if not n.endswith(terms))


def differences(ours: bw.BlockGradients, reference: dict[str, np.ndarray]) -> dict[str, float]:
    """max |ours − autograd| for every compared gradient, and ``"loss"`` (a missing or misshaped one raises)."""
    result = {"loss": abs(ours.loss.loss - float(reference["loss"]))}
    for name in compared_names():
        mine, theirs = getattr(ours, name), reference[name]
        if mine.shape != theirs.shape:
            raise ValueError(f"{name}: our shape {mine.shape} differs from autograd's {theirs.shape}")
        result[name] = float(np.max(np.abs(mine - theirs)))
    return result


def preset_differences() -> dict[tuple[int, int], dict[str, float]]:
    """For each sentence 1 … 8 and each hidden position: max |ours − autograd| per gradient."""
    weights = preset_weights()
    return {
        (s.number, p): differences(bw.backward(weights, s.token_ids, p), torch_gradients(weights, s.token_ids, p))
        for s in SENTENCES
        for p in range(len(s.words))
    }


def largest_difference() -> float:
    """The largest difference over every sentence, hidden position and gradient of the preset."""
    return max(max(d.values()) for d in preset_differences().values())
