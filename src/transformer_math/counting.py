"""Exact parameter counts and multiply counts of Transformer layers and published models.

Parameters: every weight and bias, counted from the shapes (never typed in). Matrices act on row
vectors, so a linear layer d_in → d_out has d_in·d_out weights and d_out biases.

Multiplies: the number of scalar multiplications of a forward pass (each is one multiply–add, i.e.
about ``MULTIPLY_ADD_FLOPS`` = 2 FLOPs). The per-layer costs of Vaswani et al. 2017, Table 1 are the
leading terms: self-attention n²·d, recurrent n·d², convolutional k·n·d², restricted self-attention r·n·d.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .block import BlockWeights
from .configs import BertConfig, GPTConfig, TransformerConfig

MULTIPLY_ADD_FLOPS = 2

# The scale notes' rough counts: "block ≈ 2Mi, perceptron ≈ 64Gi, ratio 32·1024". Kept as data so a page
# can set them beside the exact counts below.
ROUGH_BLOCK_ESTIMATE = 2 * 2**20
ROUGH_PERCEPTRON_ESTIMATE = 64 * 2**30
ROUGH_RATIO = 32 * 1024


def _positive(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


# ---------------------------------------------------------------------------------------------------
# Parameter counts of the parts
# ---------------------------------------------------------------------------------------------------


def linear_params(d_in: int, d_out: int, bias: bool = True) -> int:
    """d_in·d_out weights (+ d_out biases)."""
    _positive("d_in", d_in)
    _positive("d_out", d_out)
    return d_in * d_out + (d_out if bias else 0)


def layer_norm_params(d_model: int) -> int:
    """γ and β, one of each per feature: 2·d_model."""
    return 2 * _positive("d_model", d_model)


def attention_params(d_model: int, n_heads: int = 1, d_k: int | None = None, bias: bool = True) -> int:
    """Multi-head attention: W_Q, W_K, W_V (d_model × h·d_k) and W_O (h·d_k × d_model).

    With the usual d_k = d_model / h this is 4·d_model² weights (+ 4·d_model biases), whatever h is:
    splitting into heads cuts the width per head, not the total.
    """
    _positive("d_model", d_model)
    _positive("n_heads", n_heads)
    width = n_heads * (d_k if d_k is not None else d_model // n_heads)
    return 3 * linear_params(d_model, width, bias) + linear_params(width, d_model, bias)


def ffn_params(d_model: int, d_ff: int, bias: bool = True) -> int:
    """Position-wise FFN: W1 (d_model × d_ff), W2 (d_ff × d_model) and their biases."""
    _positive("d_model", d_model)
    _positive("d_ff", d_ff)
    return linear_params(d_model, d_ff, bias) + linear_params(d_ff, d_model, bias)


def block_params(d_model: int, d_ff: int, bias: bool = True, layer_norm: bool = True) -> int:
    """One encoder block: self-attention + FFN (+ two LayerNorms).

    Weights only (bias=False, layer_norm=False): 4·d_model² + 2·d_model·d_ff; for 512/2048 that is
    4·512² + 2·512·2048 = 3,145,728.
    """
    total = attention_params(d_model, bias=bias) + ffn_params(d_model, d_ff, bias)
    return total + (2 * layer_norm_params(d_model) if layer_norm else 0)


def block_weight_terms(d_model: int, d_ff: int) -> dict[str, int]:
    """The weight matrices of one encoder block, one term each (no biases, no LayerNorm); they sum to
    ``block_params(d_model, d_ff, bias=False, layer_norm=False)``."""
    d, f = _positive("d_model", d_model), _positive("d_ff", d_ff)
    square = linear_params(d, d, bias=False)
    return {"W_Q": square, "W_K": square, "W_V": square, "W_O": square,
            "W_1": linear_params(d, f, bias=False), "W_2": linear_params(f, d, bias=False)}  # fmt: skip


def block_small_terms(d_model: int, d_ff: int) -> dict[str, int]:
    """What the weights-only count leaves out: the biases and the two LayerNorms' γ and β."""
    d, f = _positive("d_model", d_model), _positive("d_ff", d_ff)
    return {"b_Q, b_K, b_V, b_O": 4 * d, "b_1": f, "b_2": d, "LayerNorm γ, β": 2 * layer_norm_params(d)}


def learned_position_params(max_len: int, d_model: int) -> int:
    """A learned position table has one d_model vector per position: max_len · d_model parameters."""
    return _positive("max_len", max_len) * _positive("d_model", d_model)


def weight_sizes(weights: BlockWeights, embedding: bool = True) -> dict[str, int]:
    """Entries of every parameter array of ``weights``, counted from the arrays (W_E left out if not ``embedding``)."""
    return {
        name: int(value.size)
        for name, value in vars(weights).items()
        if isinstance(value, np.ndarray) and (embedding or name != "W_E")
    }


def nonzero_entries(weights: BlockWeights, embedding: bool = True) -> dict[str, int]:
    """How many entries of each parameter array are not 0 (a hand-set preset leaves most of them 0)."""
    return {name: int(np.count_nonzero(getattr(weights, name))) for name in weight_sizes(weights, embedding)}


def decoder_block_params(d_model: int, d_ff: int, bias: bool = True, layer_norm: bool = True) -> int:
    """One decoder block of the original Transformer: masked self-attention, cross-attention, FFN, 3 LNs."""
    total = 2 * attention_params(d_model, bias=bias) + ffn_params(d_model, d_ff, bias)
    return total + (3 * layer_norm_params(d_model) if layer_norm else 0)


def encoder_stack_params(d_model: int, d_ff: int, n_layers: int, bias: bool = True, layer_norm: bool = True) -> int:
    """N identical encoder blocks (no embeddings)."""
    return _positive("n_layers", n_layers) * block_params(d_model, d_ff, bias, layer_norm)


# ---------------------------------------------------------------------------------------------------
# Whole models
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParamCount:
    """A model's parameters by part; ``total`` is their sum."""

    name: str
    parts: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.parts)

    def __getitem__(self, part: str) -> int:
        for name, n in self.parts:
            if name == part:
                return n
        raise KeyError(f"{self.name} has no part {part!r}; parts: {[name for name, _ in self.parts]}")


def transformer_params(cfg: TransformerConfig) -> ParamCount:
    """The encoder–decoder Transformer: one shared embedding (also the pre-softmax layer), N encoder
    and N decoder blocks. Sinusoidal positions have no parameters.

    This counts the architecture as §3 describes it; Table 3 gives 65×10⁶ for "base" without a
    breakdown (the ~1.9M gap is far more than, e.g., final LayerNorms would add).
    """
    d, d_ff, n = cfg.d_model, cfg.d_ff, cfg.n_layers
    embeddings = cfg.vocab_size * d * (1 if cfg.shared_embeddings else 3)
    return ParamCount(
        cfg.name,
        (
            ("embeddings", embeddings),
            ("encoder", n * block_params(d, d_ff)),
            ("decoder", n * decoder_block_params(d, d_ff)),
        ),
    )


def bert_params(cfg: BertConfig) -> ParamCount:
    """BERT: embeddings (word + position + segment + LayerNorm), L encoder layers, pooler.

    The reference checkpoints total 109,482,240 (base) and 335,141,888 (large).
    """
    H = cfg.hidden_size
    embeddings = (cfg.vocab_size + cfg.max_position_embeddings + cfg.type_vocab_size) * H + layer_norm_params(H)
    layers = cfg.num_layers * block_params(H, cfg.intermediate_size)
    pooler = linear_params(H, H) if cfg.pooler else 0
    return ParamCount(cfg.name, (("embeddings", embeddings), ("layers", layers), ("pooler", pooler)))


def gpt_params(cfg: GPTConfig) -> ParamCount:
    """A GPT-family decoder: token + learned position embeddings, n_layers blocks (self-attention,
    FFN, two LNs; no cross-attention), optionally a final LayerNorm, and an output layer that reuses
    the token embedding when tied (so it adds nothing)."""
    d = cfg.d_model
    embeddings = (cfg.vocab_size + cfg.n_ctx) * d
    layers = cfg.n_layers * block_params(d, cfg.d_ff)
    final_ln = layer_norm_params(d) if cfg.final_layer_norm else 0
    head = 0 if cfg.tied_embeddings else cfg.vocab_size * d
    return ParamCount(
        cfg.name,
        (("embeddings", embeddings), ("layers", layers), ("final_layer_norm", final_ln), ("lm_head", head)),
    )


# ---------------------------------------------------------------------------------------------------
# The fully connected perceptron over a whole sequence, against one block
# ---------------------------------------------------------------------------------------------------


def perceptron_params(n_tokens: int = 512, d_model: int = 512, bias: bool = False) -> int:
    """One fully connected layer from all n·d inputs to all n·d outputs: (n·d)² weights.

    Each of the n·d outputs looks at every one of the n·d inputs; for 512 × 512 that is 512⁴.
    """
    width = _positive("n_tokens", n_tokens) * _positive("d_model", d_model)
    return width * width + (width if bias else 0)


def perceptron_to_block_ratio(n_tokens: int = 512, d_model: int = 512, d_ff: int = 2048) -> float:
    """(n·d)² / (4·d² + 2·d·d_ff), weights only: how many blocks one full layer costs."""
    return perceptron_params(n_tokens, d_model) / block_params(d_model, d_ff, bias=False, layer_norm=False)


# ---------------------------------------------------------------------------------------------------
# Multiply counts (one forward pass, one sequence)
# ---------------------------------------------------------------------------------------------------


def projection_multiplies(n_vectors: int, d_model: int, d_out: int | None = None) -> int:
    """n vectors times one d_model × d_out matrix: n·d_model·d_out (n·d² when d_out = d_model).

    Self-attention projects all n queries (n·d²); cross-attention for one new query projects one
    vector (d²), while its n keys and values still cost n·d² each.
    """
    return _positive("n_vectors", n_vectors) * _positive("d_model", d_model) * (d_out or d_model)


def attention_multiplies(n_queries: int, n_keys: int, d_model: int) -> dict[str, int]:
    """Multi-head attention, by step. The head split changes none of the totals (h heads × d/h each).

    q/k/v/o projections: rows·d²; scores Q·Kᵀ: n_q·n_k·d; weighted sum attn·V: n_q·n_k·d.
    """
    _positive("n_queries", n_queries)
    _positive("n_keys", n_keys)
    _positive("d_model", d_model)
    return {
        "q_projection": projection_multiplies(n_queries, d_model),
        "k_projection": projection_multiplies(n_keys, d_model),
        "v_projection": projection_multiplies(n_keys, d_model),
        "scores": n_queries * n_keys * d_model,
        "weighted_sum": n_queries * n_keys * d_model,
        "o_projection": projection_multiplies(n_queries, d_model),
    }


def ffn_multiplies(n: int, d_model: int, d_ff: int) -> int:
    """Two position-wise matrices for each of n tokens: 2·n·d_model·d_ff."""
    return 2 * _positive("n", n) * _positive("d_model", d_model) * _positive("d_ff", d_ff)


def self_attention_multiplies(n: int, d: int) -> int:
    """Leading term of a self-attention layer (Table 1): the n×n scores, n²·d."""
    return _positive("n", n) ** 2 * _positive("d", d)


def recurrent_multiplies(n: int, d: int) -> int:
    """A recurrent layer: one d×d matrix per step, n steps: n·d²."""
    return _positive("n", n) * _positive("d", d) ** 2


def convolutional_multiplies(n: int, d: int, k: int) -> int:
    """A 1-D convolution of kernel width k: k matrices d×d per position, n positions: k·n·d²."""
    return _positive("k", k) * _positive("n", n) * _positive("d", d) ** 2


def restricted_attention_multiplies(n: int, d: int, r: int) -> int:
    """Self-attention restricted to a window of r neighbours: r·n·d."""
    return _positive("r", r) * _positive("n", n) * _positive("d", d)


@dataclass(frozen=True)
class LayerComplexity:
    """One row of Vaswani et al. 2017, Table 1, with the orders as LaTeX and as numbers (constants = 1)."""

    kind: str
    complexity: str
    sequential: str
    max_path: str

    def multiplies(self, n: int, d: int, k: int = 3, r: int = 16) -> int:
        return {
            "self_attention": lambda: self_attention_multiplies(n, d),
            "recurrent": lambda: recurrent_multiplies(n, d),
            "convolutional": lambda: convolutional_multiplies(n, d, k),
            "restricted": lambda: restricted_attention_multiplies(n, d, r),
        }[self.kind]()

    def sequential_operations(self, n: int) -> int:
        """Steps that must run one after another: n for a recurrence, 1 otherwise."""
        return _positive("n", n) if self.kind == "recurrent" else 1

    def max_path_length(self, n: int, k: int = 3, r: int = 16) -> int:
        """Layers needed before any two of n positions interact (constants set to 1).

        Convolution: ⌈log_k n⌉ with dilated kernels, as in Table 1; restricted attention: ⌈n/r⌉.
        """
        _positive("n", n)
        if self.kind == "self_attention":
            return 1
        if self.kind == "recurrent":
            return n
        if self.kind == "convolutional":
            if _positive("k", k) < 2:
                raise ValueError(f"k must be at least 2 for a dilated stack, got {k!r}")
            layers, reach = 1, k  # integer loop: math.log(9, 3) is 2.0000000000000004
            while reach < n:
                layers, reach = layers + 1, reach * k
            return layers
        return math.ceil(n / _positive("r", r))


LAYER_COMPLEXITY: tuple[LayerComplexity, ...] = (
    LayerComplexity("self_attention", r"O(n^2 \cdot d)", "O(1)", "O(1)"),
    LayerComplexity("recurrent", r"O(n \cdot d^2)", "O(n)", "O(n)"),
    LayerComplexity("convolutional", r"O(k \cdot n \cdot d^2)", "O(1)", r"O(\log_k n)"),
    LayerComplexity("restricted", r"O(r \cdot n \cdot d)", "O(1)", "O(n/r)"),
)


def layer_complexity(kind: str) -> LayerComplexity:
    for row in LAYER_COMPLEXITY:
        if row.kind == kind:
            return row
    raise ValueError(f"kind must be one of {[row.kind for row in LAYER_COMPLEXITY]}, got {kind!r}")


# ---------------------------------------------------------------------------------------------------
# Where one cost overtakes another
# ---------------------------------------------------------------------------------------------------


def crossover_n(d: int) -> int:
    """The sequence length where self-attention's n²·d reaches a recurrent layer's n·d²: n = d.

    Found by comparing the integer counts for n = 1, 2, …, so a test can hold it to the algebra.
    """
    n = 1
    while self_attention_multiplies(n, d) < recurrent_multiplies(n, d):
        n += 1
    return n


def first_n_where_core_exceeds(d_model: int, d_ff: int, other: str) -> int:
    """Smallest n where scores + weighted sum (2·n²·d) are at least ``other`` of the same block.

    ``other``: "projections" (Q, K, V and O: 4·n·d²) or "ffn" (2·n·d·d_ff). Found by stepping n, so a test
    can compare it with the algebra (n = 2·d and n = d_ff).
    """
    if other not in ("projections", "ffn"):
        raise ValueError(f"other must be 'projections' or 'ffn', got {other!r}")
    _positive("d_model", d_model)
    _positive("d_ff", d_ff)
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


def window_reach_layers(n: int, r: int) -> int:
    """Layers of a centred local window (each position sees i − (r−1)/2 … i + (r−1)/2, r odd) until the first
    of n positions has reached the last.

    Computed by propagating reachability one layer at a time, not from the closed form ⌈(n−1) / ((r−1)/2)⌉,
    so a test can compare the two.
    """
    _positive("n", n)
    if _positive("r", r) < 3 or r % 2 == 0:
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
