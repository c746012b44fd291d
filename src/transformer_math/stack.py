"""Post-LN against Pre-LN in a stack of randomly initialised blocks: activations, updates and gradients by depth.

A small self-contained stack (attention without biases, a ReLU FFN, LayerNorm with γ = 1, β = 0), its forward
pass, its backward pass by the chain rule written out, and central differences as the check route. Every input
(n_layers, sizes, seeds) comes from the caller; the chapter's instance lives in
``transformer_pages.chapter.add_norm``. Shapes: x (T, d), weights stacked per layer (N, d_in, d_out).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from . import ops


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


def random_stack(n_layers: int, d_model: int, h: int, d_ff: int, seed: int) -> StackWeights:
    """Xavier-like initialisation: every matrix has entries N(0, 1/fan_in)."""
    if n_layers < 1 or d_model % h:
        raise ValueError(f"random_stack: need n_layers ≥ 1 and h | d_model, got {n_layers!r}, h={h}, d_model={d_model}")
    rng = np.random.default_rng(seed)

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


# --8<-- [start:forward_stack]
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
    # --8<-- [end:forward_stack]


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


def compare_ln_placement(n_layers: int, d_model: int, h: int, d_ff: int, T: int, n_seeds: int) -> LNComparison:
    """Same random weights, same input, same read-out per seed; only the place of the LayerNorm differs."""
    rms: dict[str, np.ndarray] = {}
    update: dict[str, np.ndarray] = {}
    update_rms: dict[str, np.ndarray] = {}
    profiles: dict[str, list[np.ndarray]] = {w: [] for w in WIRINGS}
    for seed in range(n_seeds):
        W = random_stack(n_layers, d_model, h, d_ff, seed)
        rng = np.random.default_rng(seed + 1000)
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
