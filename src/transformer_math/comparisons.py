"""Helpers for the chapter's second half and the scale notes, beside :mod:`counting` (which owns the exact counts).

Here: the block's weights term by term (the scale notes count that way), what that count leaves out, the
sequence length where self-attention becomes cheaper than a recurrent layer, and the path length of a local
window found by propagating reachability layer by layer (an independent route to the O(n/r) of the textbook).

>>> sum(block_weight_terms(512, 2048).values())
3145728
>>> crossover_n(512)
512
"""

from __future__ import annotations

import math
from functools import cache
from types import MappingProxyType

import numpy as np

# --- the scale notes' sizes (seed 000); their rough counts live in counting.ROUGH_* ---

NOTES_N = 512
"""The notes' perceptron: 512 tokens …"""
NOTES_D = 512
"""… of 512 dimensions each."""
NOTES_CONV_K = 5
"""The kernel width the notes pick for the 1-D convolution."""
CONVS2S_K = 3
"""ConvS2S's kernel width, which the notes mention for contrast."""


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def block_weight_terms(d_model: int, d_ff: int) -> dict[str, int]:
    """The weight matrices of one encoder block, term by term (no biases, no LayerNorm): the notes' way of counting."""
    d = _positive_int(d_model, "d_model")
    f = _positive_int(d_ff, "d_ff")
    return {"W_Q": d * d, "W_K": d * d, "W_V": d * d, "W_O": d * d, "W_1": d * f, "W_2": f * d}


def block_small_terms(d_model: int, d_ff: int) -> dict[str, int]:
    """What the weights-only count leaves out: the biases and the two LayerNorms' γ and β."""
    d = _positive_int(d_model, "d_model")
    f = _positive_int(d_ff, "d_ff")
    return {"b_Q, b_K, b_V, b_O": 4 * d, "b_1": f, "b_2": d, "LayerNorm γ, β": 2 * 2 * d}


# --- where self-attention becomes cheaper than a recurrent layer ----------------------------------------


def crossover_n(d: int) -> int:
    """The sequence length where self-attention's n²·d equals a recurrent layer's n·d²: n = d."""
    d = _positive_int(d, "d")
    # n²·d < n·d²  ⇔  n < d: solved by comparison on integers, not by algebra alone
    n = 1
    while n * n * d < n * d * d:
        n += 1
    return n


# --- maximum path length: how many layers until position 0 reaches position n − 1 ---------------------------


def window_reach_layers(n: int, r: int) -> int:
    """Layers of a centred local window (each position sees the r positions i − (r−1)/2 … i + (r−1)/2, r odd)
    until information from the first position has reached the last one.

    Computed by propagating reachability one layer at a time, not from the closed form ⌈(n−1) / ((r−1)/2)⌉,
    so a test can compare the two.
    """
    n = _positive_int(n, "n")
    r = _positive_int(r, "r")
    if r < 3 or r % 2 == 0:
        raise ValueError(f"r must be an odd window of at least 3 (centred on the position), got {r}")
    half = (r - 1) // 2
    idx = np.arange(n)
    adjacency = np.abs(idx[None, :] - idx[:, None]) <= half  # [i, j]: i and j share a window
    reach = np.zeros(n, dtype=bool)
    reach[0] = True
    layers = 0
    while not reach[-1]:
        reach = adjacency[reach].any(axis=0)
        layers += 1
    return layers


def log_base(x: float, base: float) -> float:
    """log_base(x) for prose such as log₅ 512."""
    if x <= 0 or base <= 0 or base == 1:
        raise ValueError(f"log_base needs x > 0 and base > 0, base ≠ 1; got x={x!r}, base={base!r}")
    return math.log(x) / math.log(base)


# --- training (Vaswani et al. 2017, §5.2 and §5.4) ----------------------------------------------------------

TRANSFORMER_BASE_TRAIN_STEPS = 100_000
"""§5.2: the base models were trained for 100,000 steps (about 12 hours on 8 P100 GPUs)."""
DROPOUT_SEED = 5
"""Seed of the dropout demonstration (any fixed seed; fixed so the page's numbers stay put)."""


def entropy(p: np.ndarray) -> float:
    """−Σ p log p in nats (0 log 0 = 0): the smallest cross-entropy any prediction can reach for target p."""
    p = np.asarray(p, dtype=np.float64)
    if p.ndim != 1 or np.any(p < 0) or not np.isclose(p.sum(), 1.0):
        raise ValueError(f"p must be a 1-D probability vector (non-negative, sum 1), got shape {p.shape}")
    nonzero = p[p > 0]
    return float(-(nonzero * np.log(nonzero)).sum())


def dropout(x: np.ndarray, p: float, rng: np.random.Generator | int) -> np.ndarray:
    """Inverted dropout: zero each entry with probability p, scale the survivors by 1/(1 − p).

    The scaling keeps the expected value of every entry, so nothing changes at inference (no dropout there).
    """
    if not 0.0 <= p < 1.0:
        raise ValueError(f"p must be in [0, 1), got {p!r}")
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    keep = generator.random(np.shape(x)) >= p
    return np.where(keep, np.asarray(x, dtype=np.float64) / (1.0 - p), 0.0)


@cache
def dropout_demo(p: float, shape: tuple[int, int] = (512, 512), seed: int = DROPOUT_SEED) -> MappingProxyType:
    """Dropout on an all-ones array: the share of zeros and the mean afterwards (expected p and 1).

    Cached (pages quote it several times) and returned read-only, so no caller can change what another reads.
    """
    out = dropout(np.ones(shape), p, seed)
    return MappingProxyType(
        {"zero_fraction": float(np.mean(out == 0.0)), "mean": float(out.mean()), "size": int(out.size)}
    )


def adam_updates(grads: np.ndarray, lr, beta1: float = 0.9, beta2: float = 0.98, eps: float = 1e-9) -> np.ndarray:
    """Parameter changes Δθ_t = θ_t − θ_{t−1} of Adam (bias-corrected, ε outside the root) for gradients
    ``grads`` (T, P): T steps of P parameters. ``lr``: a number or one learning rate per step (T,).

    The defaults are the original Transformer's β1, β2, ε (configs.TRANSFORMER_BASE).
    """
    g = np.asarray(grads, dtype=np.float64)
    if g.ndim != 2 or not np.all(np.isfinite(g)):
        raise ValueError(f"grads must be a finite 2-D array (steps, parameters), got shape {g.shape}")
    rates = np.broadcast_to(np.asarray(lr, dtype=np.float64), (g.shape[0],))
    m = np.zeros(g.shape[1])
    v = np.zeros(g.shape[1])
    out = np.empty_like(g)
    for t in range(1, g.shape[0] + 1):
        m = beta1 * m + (1 - beta1) * g[t - 1]
        v = beta2 * v + (1 - beta2) * g[t - 1] ** 2
        m_hat = m / (1 - beta1**t)
        v_hat = v / (1 - beta2**t)
        out[t - 1] = -rates[t - 1] * m_hat / (np.sqrt(v_hat) + eps)
    return out


WARMUP_DEMO_GRADIENTS = (1e-6, 1e-3, 1.0)
"""Three parameters whose first gradients differ by a factor of a million (the warmup demonstration)."""


def first_adam_step(lr: float, gradients=WARMUP_DEMO_GRADIENTS) -> np.ndarray:
    """|Δθ| of the first Adam step for each gradient in ``gradients``: about ``lr`` whatever the gradient's size."""
    return np.abs(adam_updates(np.asarray([gradients], dtype=np.float64), lr)[0])


# --- BERT's masked LM, simulated --------------------------------------------------------------------------

MLM_SEED = 2018
"""Seed for the masked-LM simulation (BERT appeared in 2018)."""
MLM_REPEATS = 250
"""The eight preset sentences repeated this many times: 8 · 5 · 250 = 10,000 tokens."""


def mlm_corpus(repeats: int = MLM_REPEATS) -> np.ndarray:
    """The preset's eight sentences, concatenated ``repeats`` times, as token ids (8·5·repeats,)."""
    from .preset import SENTENCES

    repeats = _positive_int(repeats, "repeats")
    one_pass = np.concatenate([np.asarray(s.token_ids) for s in SENTENCES])
    return np.tile(one_pass, repeats)


@cache
def mlm_simulation(repeats: int = MLM_REPEATS, seed: int = MLM_SEED):
    """BERT's 15 % / 80-10-10 corruption on :func:`mlm_corpus`; [MASK] is one extra id after the vocabulary.

    Cached, with read-only arrays: a page quotes several counts of the same simulation.
    """
    from .masking import mlm_mask
    from .preset import VOCAB

    mask_id = len(VOCAB)
    result = mlm_mask(mlm_corpus(repeats), mask_id=mask_id, vocab_size=len(VOCAB) + 1, rng=seed)
    for array in (result.input_ids, result.labels, result.action):
        array.setflags(write=False)
    return result


# --- the scale notes: where the attention core overtakes the rest of the block -----------------------------


def first_n_where_core_exceeds(d_model: int, d_ff: int, other: str) -> int:
    """Smallest n where scores + weighted sum (2·n²·d) are at least ``other`` of the same block.

    ``other``: "projections" (Q, K, V and O: 4·n·d²) or "ffn" (2·n·d·d_ff). Found by stepping n, so a test
    can compare it with the algebra (n = 2·d and n = d_ff).
    """
    from .counting import attention_multiplies, ffn_multiplies

    if other not in ("projections", "ffn"):
        raise ValueError(f"other must be 'projections' or 'ffn', got {other!r}")
    _positive_int(d_model, "d_model")
    _positive_int(d_ff, "d_ff")
    n = 1
    while True:
        m = attention_multiplies(n, n, d_model)
        core = m["scores"] + m["weighted_sum"]
        if other == "ffn":
            rest = ffn_multiplies(n, d_model, d_ff)
        else:
            rest = m["q_projection"] + m["k_projection"] + m["v_projection"] + m["o_projection"]
        if core >= rest:
            return n
        n += 1


# --- Pre-LN: the dot product is dragged by norms until LayerNorm equalises them ----------------------------


def dot_and_cos_pairs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every pair i < j of the rows (T, d): the dot product and the cosine, each shaped (T·(T−1)/2,)."""
    a = np.asarray(rows, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] < 2:
        raise ValueError(f"rows must be 2-D with at least two rows, got shape {a.shape}")
    norms = np.linalg.norm(a, axis=1)
    if np.any(norms == 0):
        raise ValueError("rows must be non-zero: the cosine of a zero vector is undefined")
    i, j = np.triu_indices(a.shape[0], k=1)
    dots = np.einsum("pd,pd->p", a[i], a[j])
    return dots, dots / (norms[i] * norms[j])


def preset_dot_cos(stage: str) -> tuple[np.ndarray, np.ndarray]:
    """dot_and_cos_pairs of ``stage`` ("X" or "ln1_out") over the eight preset sentences, concatenated.

    For ln1_out the dot product is divided by d_model, so that with rows of norm √d_model it equals the cosine.
    """
    from . import preset_trace
    from .preset import SENTENCES

    if stage not in ("X", "ln1_out"):
        raise ValueError(f"stage must be 'X' or 'ln1_out', got {stage!r}")
    dots, coss = [], []
    for n in range(1, len(SENTENCES) + 1):
        rows = getattr(preset_trace(n), stage)
        d, c = dot_and_cos_pairs(rows)
        dots.append(d / rows.shape[1] if stage == "ln1_out" else d)
        coss.append(c)
    return np.concatenate(dots), np.concatenate(coss)


def rank_disagreements(dots: np.ndarray, coss: np.ndarray) -> int:
    """Pairs of pairs that the dot product and the cosine order differently (discordant pairs)."""
    dd = np.sign(dots[:, None] - dots[None, :])
    dc = np.sign(coss[:, None] - coss[None, :])
    return int(np.sum(np.triu(dd * dc < 0, k=1)))


def preset_rank_disagreements(stage: str) -> int:
    """rank_disagreements of the dot product and the cosine over the preset's token pairs at ``stage``."""
    return rank_disagreements(*preset_dot_cos(stage))
