"""Cell derivations: general formula → the substituted non-zero terms → intermediates → value.

As the simulator's cell click did: for one cell of any intermediate of the block (``scores``, ``attn``,
``ln1_out``, ``ffn_h``, ``ln2_out`` as in the notes, and ``X_tok`` … ``residual2`` as the explorer shows them,
under the block's switches) the derivation recomputes the value *from its own terms* (not by reading the
trace), so a test can compare it with the trace's value — two routes to one number. A derivation reads the
trace and the weights of the model that made it (the encoder preset's by default); nothing else.

>>> from transformer_math import preset_trace
>>> d = derive_score(preset_trace(1), 0, 2, 3)
>>> round(d.value, 3), [t.label for t in d.terms]
(3.526, ['Q[2,0,0] × K[3,0,0]', 'Q[2,0,1] × K[3,0,1]'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import ops
from .block import BlockTrace, BlockWeights
from .preset import ENCODER

STAGES: tuple[str, ...] = ("scores", "attn", "ln1_out", "ffn_h", "ln2_out")
"""The five stages the notes derive a cell of."""
CELL_STAGES: tuple[str, ...] = (
    "X_tok", "X_pos", "X", "Q", "K", "V", "scores", "attn", "head_out", "Y",
    "residual1", "ln1_out", "ffn_pre", "ffn_h", "ffn_out", "residual2", "ln2_out",
)  # fmt: skip
"""Every intermediate of the block that has a derivation, in the order of the forward pass."""

TEXT = {"off": "なし"}
"""The one word a formula holds: what a switched-off part of the block says (the site shows it in the formula)."""
FORMULAS: dict[str, str] = {
    "scores": r"\mathrm{scores}[h,i,j] = \frac{1}{\sqrt{d_k}}\sum_k Q[i,h,k]\,K[j,h,k]",
    "attn": (
        r"\mathrm{attn}[h,i,j] = \frac{\exp(\mathrm{scores}[h,i,j] - m)}"
        r"{\sum_{j'} \exp(\mathrm{scores}[h,i,j'] - m)},\quad m = \max_{j'} \mathrm{scores}[h,i,j']"
    ),
    "ln1_out": (
        r"\mathrm{ln1\_out}[t,d] = \gamma_1[d]\,\frac{\mathrm{residual1}[t,d] - \mu_t}"
        r"{\sqrt{\sigma_t^2 + \varepsilon}} + \beta_1[d]"
    ),
    "ffn_h": (r"\mathrm{ffn\_h}[t,k] = \mathrm{GELU}\Big(\sum_d \mathrm{ln1\_out}[t,d]\,W_1[d,k] + b_1[k]\Big)"),
    "ln2_out": (
        r"\mathrm{ln2\_out}[t,d] = \gamma_2[d]\,\frac{\mathrm{residual2}[t,d] - \mu_t}"
        r"{\sqrt{\sigma_t^2 + \varepsilon}} + \beta_2[d]"
    ),
    "X_tok": r"X_{\mathrm{tok}}[t,d] = W_E[x_t,d]",
    "X_pos": (
        r"W_P[t,d] = \begin{cases}\sin(t\,\omega_i) & (d = 2i)\\ \cos(t\,\omega_i) & (d = 2i+1)\end{cases},"
        r"\quad \omega_i = 10000^{-2i/d_{\mathrm{model}}}"
    ),
    "X": r"X[t,d] = X_{\mathrm{tok}}[t,d] + W_P[t,d]",
    "Q": r"Q[t,h,k] = \sum_d X[t,d]\,W_Q[d,\,h\,d_k + k]",
    "K": r"K[t,h,k] = \sum_d X[t,d]\,W_K[d,\,h\,d_k + k]",
    "V": r"V[t,h,k] = \sum_d X[t,d]\,W_V[d,\,h\,d_k + k]",
    "head_out": r"\mathrm{head\_out}[t,h,k] = \sum_j \mathrm{attn}[h,t,j]\,V[j,h,k]",
    "Y": (
        r"Y[t,d] = \sum_g \mathrm{concat}[t,g]\,W_O[g,d],"
        r"\quad \mathrm{concat}[t,\,h\,d_k + k] = \mathrm{head\_out}[t,h,k]"
    ),
    "residual1": r"\mathrm{residual1}[t,d] = X[t,d] + Y[t,d]",
    "ffn_pre": r"\mathrm{ffn\_pre}[t,k] = \sum_d \mathrm{ln1\_out}[t,d]\,W_1[d,k] + b_1[k]",
    "ffn_out": r"\mathrm{ffn\_out}[t,d] = \sum_k \mathrm{ffn\_h}[t,k]\,W_2[k,d] + b_2[d]",
    "residual2": r"\mathrm{residual2}[t,d] = \mathrm{ln1\_out}[t,d] + \mathrm{ffn\_out}[t,d]",
    # the switched-off variants
    "scores_unscaled": r"\mathrm{scores}[h,i,j] = \sum_k Q[i,h,k]\,K[j,h,k]",
    "attn_causal": (
        r"\mathrm{attn}[h,i,j] = \frac{\exp(\mathrm{scores}[h,i,j] + M_{ij} - m)}"
        r"{\sum_{j'} \exp(\mathrm{scores}[h,i,j'] + M_{ij'} - m)},\quad M_{ij} = \begin{cases}0 & (j \le i)\\"
        r" -\infty & (j > i)\end{cases},\quad m = \max_{j' \le i} \mathrm{scores}[h,i,j']"
    ),
    "X_pos_off": r"X_{\mathrm{pos}}[t,d] = 0 \quad (W_P \text{ " + TEXT["off"] + "})",
}


@dataclass(frozen=True)
class Factor:
    """One named number that enters a term, e.g. ``Q[2,0,0] = +3.14``."""

    label: str
    value: float


@dataclass(frozen=True)
class Term:
    """One summand: the product of its factors (or, for attn, exp of its factor minus the row max)."""

    label: str
    factors: tuple[Factor, ...]
    value: float


@dataclass(frozen=True)
class Quantity:
    """A named intermediate: the sum before dividing, √d_k, μ, σ², the GELU argument, …"""

    name: str
    latex: str
    value: float


@dataclass(frozen=True)
class Derivation:
    stage: str  # one of STAGES
    index: tuple[int, ...]  # the cell, in the trace array's own index order
    formula: str  # the general formula, LaTeX
    terms: tuple[Term, ...]  # non-zero terms only
    n_zero_terms: int  # terms left out because they are exactly 0
    intermediates: tuple[Quantity, ...]
    value: float  # recomputed from terms and intermediates
    extra: dict[str, str] = field(default_factory=dict)  # word labels of the indices

    @property
    def cell(self) -> str:
        return f"{self.stage}[{','.join(str(i) for i in self.index)}]"

    def intermediate(self, name: str) -> float:
        for q in self.intermediates:
            if q.name == name:
                return q.value
        raise ValueError(f"name must be one of {[q.name for q in self.intermediates]}, got {name!r}")

    def to_dict(self, decimals: int | None = None) -> dict:
        return derivation_to_dict(self, decimals)


# ---------------------------------------------------------------- the five stages


def derive_score(trace: BlockTrace, head: int, i: int, j: int) -> Derivation:
    """scores[head, i, j] from the products Q[i,head,k]·K[j,head,k] and √d_k."""
    T, h, d_k = _check_trace(trace).Q.shape
    head, i, j = _index("head", head, h), _index("i", i, T), _index("j", j, T)
    terms, n_zero = [], 0
    for k in range(d_k):
        q, key = float(trace.Q[i, head, k]), float(trace.K[j, head, k])
        if q * key == 0.0:
            n_zero += 1
            continue
        factors = (Factor(f"Q[{i},{head},{k}]", q), Factor(f"K[{j},{head},{k}]", key))
        terms.append(Term(f"{factors[0].label} × {factors[1].label}", factors, q * key))
    # Summing the full dot product (zeros included) keeps the same rounding as the trace's q @ kᵀ.
    dot = float(trace.Q[i, head, :] @ trace.K[j, head, :])
    sqrt_dk = float(np.sqrt(d_k))
    value = dot / sqrt_dk
    inter = (
        Quantity("d_k", r"d_k", float(d_k)),
        Quantity("sum", r"\sum_k Q[i,h,k]\,K[j,h,k]", dot),
        Quantity("sqrt_d_k", r"\sqrt{d_k}", sqrt_dk),
    )
    return Derivation("scores", (head, i, j), FORMULAS["scores"], tuple(terms), n_zero, inter, value)


def derive_attn(trace: BlockTrace, head: int, i: int, j: int) -> Derivation:
    """attn[head, i, j] from the exp terms of row i (shifted by the row maximum) and their sum."""
    h, T, _ = _check_trace(trace).scores.shape
    head, i, j = _index("head", head, h), _index("i", i, T), _index("j", j, T)
    row = trace.scores[head, i, :]
    m = float(np.max(row))
    exps = np.exp(row - m)  # every argument ≤ 0, as in ops.softmax
    terms = tuple(
        Term(f"exp(scores[{head},{i},{jj}] − m)", (Factor(f"scores[{head},{i},{jj}]", float(row[jj])),), float(e))
        for jj, e in enumerate(exps)
    )
    total = float(np.sum(exps))
    value = float(exps[j]) / total
    inter = (
        Quantity("max", r"m = \max_{j'} \mathrm{scores}[h,i,j']", m),
        Quantity("numerator", r"\exp(\mathrm{scores}[h,i,j] - m)", float(exps[j])),
        Quantity("sum", r"\sum_{j'} \exp(\mathrm{scores}[h,i,j'] - m)", total),
    )
    return Derivation("attn", (head, i, j), FORMULAS["attn"], terms, 0, inter, value)


def derive_ln1(trace: BlockTrace, t: int, d: int, weights: BlockWeights = ENCODER.weights) -> Derivation:
    """ln1_out[t, d] from residual1[t, :] through μ_t, σ²_t and √(σ²_t + ε); γ, β from ``weights``."""
    w = weights
    return _derive_layer_norm("ln1_out", _check_trace(trace).residual1, "residual1", t, d, w.ln1_gamma, w.ln1_beta, w)


def derive_ln2(trace: BlockTrace, t: int, d: int, weights: BlockWeights = ENCODER.weights) -> Derivation:
    """ln2_out[t, d] from residual2[t, :] = ln1_out + ffn_out through μ_t, σ²_t and √(σ²_t + ε)."""
    w = weights
    der = _derive_layer_norm("ln2_out", _check_trace(trace).residual2, "residual2", t, d, w.ln2_gamma, w.ln2_beta, w)
    t, d = der.index
    parts = (
        Quantity("ln1_out", r"\mathrm{ln1\_out}[t,d]", float(trace.ln1_out[t, d])),
        Quantity("ffn_out", r"\mathrm{ffn\_out}[t,d]", float(trace.ffn_out[t, d])),
    )
    return Derivation(
        der.stage, der.index, der.formula, der.terms, der.n_zero_terms, parts + der.intermediates, der.value
    )


def derive_ffn_h(trace: BlockTrace, weights: BlockWeights, t: int, k: int) -> Derivation:
    """ffn_h[t, k] = GELU(Σ_d ln1_out[t,d]·W1[d,k] + b1[k]) from its non-zero products, the bias and GELU."""
    T, d_model = _check_trace(trace).ln1_out.shape
    _check_weights(weights, d_model)
    t, k = _index("t", t, T), _index("k", k, weights.d_ff)
    terms, n_zero = [], 0
    for d in range(d_model):
        x, w1 = float(trace.ln1_out[t, d]), float(weights.W1[d, k])
        if x * w1 == 0.0:
            n_zero += 1
            continue
        factors = (Factor(f"ln1_out[{t},{d}]", x), Factor(f"W1[{d},{k}]", w1))
        terms.append(Term(f"{factors[0].label} × {factors[1].label}", factors, x * w1))
    dot = float(trace.ln1_out[t, :] @ weights.W1[:, k])
    bias = float(weights.b1[k])
    pre = dot + bias
    inner = float(np.sqrt(2.0 / np.pi) * (pre + ops.GELU_CUBIC_COEFF * pre**3))
    value = 0.5 * pre * (1.0 + float(np.tanh(inner)))  # the tanh form of ops.gelu, step by step
    inter = (
        Quantity("sum", r"\sum_d \mathrm{ln1\_out}[t,d]\,W_1[d,k]", dot),
        Quantity("b1", r"b_1[k]", bias),
        Quantity("ffn_pre", r"\mathrm{ffn\_pre}[t,k]", pre),
        Quantity("tanh_arg", r"\sqrt{2/\pi}\,(x + 0.044715\,x^3)", inner),
        Quantity("gelu", r"\mathrm{GELU}(x) = \tfrac12 x\,(1 + \tanh(\cdot))", value),
    )
    return Derivation("ffn_h", (t, k), FORMULAS["ffn_h"], tuple(terms), n_zero, inter, value)


def _derive_layer_norm(
    stage: str,
    residual: np.ndarray,
    residual_name: str,
    t: int,
    d: int,
    gamma: np.ndarray,
    beta: np.ndarray,
    weights: BlockWeights,
) -> Derivation:
    T, d_model = residual.shape
    _check_weights(weights, d_model)
    t, d = _index("t", t, T), _index("d", d, d_model)
    row = residual[t, :]
    # The terms are the entries whose mean is μ_t; zeros add nothing to it.
    terms = tuple(
        Term(f"{residual_name}[{t},{dd}]", (Factor(f"{residual_name}[{t},{dd}]", float(x)),), float(x))
        for dd, x in enumerate(row)
        if x != 0.0
    )
    mu = float(np.mean(row))
    var = float(np.mean((row - mu) ** 2))  # biased, as ops.layer_norm
    root = float(np.sqrt(var + weights.eps))
    x = float(row[d])
    normalised = (x - mu) / root
    value = normalised * float(gamma[d]) + float(beta[d])
    inter = (
        Quantity("input", rf"\mathrm{{{residual_name}}}[t,d]", x),
        Quantity("mu", r"\mu_t", mu),
        Quantity("var", r"\sigma_t^2", var),
        Quantity("eps", r"\varepsilon", float(weights.eps)),
        Quantity("sqrt_var_eps", r"\sqrt{\sigma_t^2 + \varepsilon}", root),
        Quantity("normalised", r"(x - \mu_t)/\sqrt{\sigma_t^2 + \varepsilon}", normalised),
        Quantity("gamma", r"\gamma[d]", float(gamma[d])),
        Quantity("beta", r"\beta[d]", float(beta[d])),
    )
    return Derivation(stage, (t, d), FORMULAS[stage], terms, d_model - len(terms), inter, value)


# ---------------------------------------------------------------- the other stages, and the switched-off variants


def _products(stage, index, a_name, a, a_idx, b_name, b, b_idx, n) -> tuple[tuple[Term, ...], int]:
    """The non-zero products a[a_idx(m)]·b[b_idx(m)], m = 0 … n−1, as terms, and how many were exactly 0."""
    terms, n_zero = [], 0
    for m in range(n):
        x, y = float(a[a_idx(m)]), float(b[b_idx(m)])
        if x * y == 0.0:
            n_zero += 1
            continue
        fa = Factor(f"{a_name}[{_join(a_idx(m))}]", x)
        fb = Factor(f"{b_name}[{_join(b_idx(m))}]", y)
        terms.append(Term(f"{fa.label} × {fb.label}", (fa, fb), x * y))
    return tuple(terms), n_zero


def _join(idx) -> str:
    return ",".join(str(i) for i in (idx if isinstance(idx, tuple) else (idx,)))


_SUM_LATEX = {
    "Q": r"\sum_d X[t,d]\,W_Q[d,g]", "K": r"\sum_d X[t,d]\,W_K[d,g]", "V": r"\sum_d X[t,d]\,W_V[d,g]",
    "head_out": r"\sum_j \mathrm{attn}[h,t,j]\,V[j,h,k]", "Y": r"\sum_g \mathrm{concat}[t,g]\,W_O[g,d]",
    "ffn_pre": r"\sum_d \mathrm{ln1\_out}[t,d]\,W_1[d,k]", "ffn_out": r"\sum_k \mathrm{ffn\_h}[t,k]\,W_2[k,d]",
}  # fmt: skip
_BIAS_LATEX = {"ffn_pre": r"b_1[k]", "ffn_out": r"b_2[d]"}


def _sum_of_products(stage, index, a_name, a, a_idx, b_name, b, b_idx, n, dot, bias=None) -> Derivation:
    # The full dot product (zeros included) keeps the trace's own rounding, as derivations.derive_score does.
    terms, n_zero = _products(stage, index, a_name, a, a_idx, b_name, b, b_idx, n)
    inter = [Quantity("sum", _SUM_LATEX[stage], float(dot))]
    value = float(dot)
    if bias is not None:
        inter.append(Quantity("bias", _BIAS_LATEX[stage], float(bias)))
        value = float(dot) + float(bias)
    return Derivation(stage, index, FORMULAS[stage], terms, n_zero, tuple(inter), value)


def _addends(stage, index, parts: tuple[tuple[str, float], ...]) -> Derivation:
    """A cell that is the sum of named parts (X = X_tok + X_pos, residual1 = X + Y, …); zero parts left out."""
    terms = tuple(Term(label, (Factor(label, v),), v) for label, v in parts if v != 0.0)
    value = 0.0
    for _, v in parts:
        value += v
    return Derivation(stage, index, FORMULAS[stage], terms, len(parts) - len(terms), (), value)


def _derive_x_tok(trace, weights, index, positions):
    t, d = index
    token = int(trace.tokens[t])
    label = f"W_E[{token},{d}]"
    value = float(weights.W_E[token, d])
    terms = (Term(label, (Factor(label, value),), value),) if value != 0.0 else ()
    return Derivation("X_tok", index, FORMULAS["X_tok"], terms, 1 - len(terms), (), value)


def _derive_x_pos(trace, weights, index, positions):
    t, d = index
    if not positions:
        return Derivation("X_pos", index, FORMULAS["X_pos_off"], (), 0, (), 0.0)
    omega = float(ops.pe_angular_frequencies(weights.d_model)[d // 2])
    angle = t * omega
    value = float(np.sin(angle) if d % 2 == 0 else np.cos(angle))
    inter = (Quantity("omega", r"\omega_i", omega), Quantity("angle", r"t\,\omega_i", angle))
    return Derivation("X_pos", index, FORMULAS["X_pos"], (), 0, inter, value)


def _derive_x(trace, weights, index, positions):
    t, d = index
    parts = ((f"X_tok[{t},{d}]", float(trace.X_tok[t, d])), (f"X_pos[{t},{d}]", float(trace.X_pos[t, d])))
    return _addends("X", index, parts)


def _derive_projection(name: str):
    matrix_name = f"W_{name}"

    def derive(trace, weights, index, positions):
        t, head, k = index
        d_k = trace.Q.shape[2]
        g = head * d_k + k
        W = getattr(weights, matrix_name)
        return _sum_of_products(name, index, "X", trace.X, lambda m: (t, m), matrix_name, W, lambda m: (m, g),
                                weights.d_model, trace.X[t, :] @ W[:, g])  # fmt: skip

    return derive


def _derive_head_out(trace, weights, index, positions):
    t, head, k = index
    T = trace.attn.shape[1]
    return _sum_of_products("head_out", index, "attn", trace.attn, lambda j: (head, t, j), "V", trace.V,
                            lambda j: (j, head, k), T, trace.attn[head, t, :] @ trace.V[:, head, k])  # fmt: skip


def _derive_y(trace, weights, index, positions):
    t, d = index
    W_O, concat = weights.W_O, trace.concat
    return _sum_of_products("Y", index, "concat", concat, lambda g: (t, g), "W_O", W_O, lambda g: (g, d),
                            concat.shape[1], concat[t, :] @ W_O[:, d])  # fmt: skip


def _derive_residual1(trace, weights, index, positions):
    t, d = index
    return _addends("residual1", index, ((f"X[{t},{d}]", float(trace.X[t, d])), (f"Y[{t},{d}]", float(trace.Y[t, d]))))


def _derive_ffn_pre(trace, weights, index, positions):
    t, k = index
    return _sum_of_products("ffn_pre", index, "ln1_out", trace.ln1_out, lambda d: (t, d), "W1", weights.W1,
                            lambda d: (d, k), weights.d_model, trace.ln1_out[t, :] @ weights.W1[:, k],
                            weights.b1[k])  # fmt: skip


def _derive_ffn_out(trace, weights, index, positions):
    t, d = index
    return _sum_of_products("ffn_out", index, "ffn_h", trace.ffn_h, lambda k: (t, k), "W2", weights.W2,
                            lambda k: (k, d), weights.d_ff, trace.ffn_h[t, :] @ weights.W2[:, d],
                            weights.b2[d])  # fmt: skip


def _derive_residual2(trace, weights, index, positions):
    t, d = index
    parts = ((f"ln1_out[{t},{d}]", float(trace.ln1_out[t, d])), (f"ffn_out[{t},{d}]", float(trace.ffn_out[t, d])))
    return _addends("residual2", index, parts)


_DERIVE = {
    "X_tok": _derive_x_tok, "X_pos": _derive_x_pos, "X": _derive_x,
    "Q": _derive_projection("Q"), "K": _derive_projection("K"), "V": _derive_projection("V"),
    "head_out": _derive_head_out, "Y": _derive_y, "residual1": _derive_residual1,
    "ffn_pre": _derive_ffn_pre, "ffn_out": _derive_ffn_out, "residual2": _derive_residual2,
}  # fmt: skip


def _derive_unscaled_score(trace: BlockTrace, head: int, i: int, j: int) -> Derivation:
    """scores[head, i, j] without the division by √d_k: the sum of the products is the value."""
    scaled = derive_score(trace, head, i, j)  # its terms and sum are the same; only the division goes
    dot = scaled.intermediate("sum")
    inter = tuple(q for q in scaled.intermediates if q.name in ("d_k", "sum"))
    return Derivation("scores", (head, i, j), FORMULAS["scores_unscaled"], scaled.terms, scaled.n_zero_terms,
                         inter, dot)  # fmt: skip


def _derive_causal_attn(trace: BlockTrace, head: int, i: int, j: int) -> Derivation:
    """attn[head, i, j] under the causal mask: only keys j' ≤ i enter the softmax; a masked cell is exactly 0."""
    row = trace.scores[head, i, : i + 1]  # the visible keys; scores are stored before the mask
    m = float(np.max(row))
    exps = np.exp(row - m)
    terms = tuple(
        Term(f"exp(scores[{head},{i},{jj}] − m)", (Factor(f"scores[{head},{i},{jj}]", float(row[jj])),), float(e))
        for jj, e in enumerate(exps)
    )
    total = float(np.sum(exps))
    numerator = float(exps[j]) if j <= i else 0.0
    inter = (
        Quantity("max", r"m = \max_{j' \le i} \mathrm{scores}[h,i,j']", m),
        Quantity("numerator", r"\exp(\mathrm{scores}[h,i,j] + M_{ij} - m)", numerator),
        Quantity("sum", r"\sum_{j' \le i} \exp(\mathrm{scores}[h,i,j'] - m)", total),
    )
    n_masked = trace.scores.shape[2] - (i + 1)
    return Derivation("attn", (head, i, j), FORMULAS["attn_causal"], terms, n_masked, inter, numerator / total)


# ---------------------------------------------------------------- dispatch and export


def derive(
    trace: BlockTrace,
    stage: str,
    index: tuple[int, ...],
    weights: BlockWeights = ENCODER.weights,
    *,
    scale: bool = True,
    causal: bool = False,
    positions: bool = True,
) -> Derivation:
    """The derivation of ``trace.<stage>[index]`` (the trace's own index order) for any stage of CELL_STAGES,
    for the block run with these switches (``block.forward``'s); ``weights`` are the traced model's.

    The notes' five stages under the notes' switches (√d_k on, no mask) come from their functions above;
    the others are recomputed the same way: the non-zero terms, the intermediates, and the value from them.
    """
    _check_trace(trace)
    if stage not in CELL_STAGES:
        raise ValueError(f"stage must be one of {CELL_STAGES}, got {stage!r}")
    shape = getattr(trace, stage).shape
    if not isinstance(index, (tuple, list)) or len(index) != len(shape):
        raise ValueError(f"index for {stage} must be a tuple of {len(shape)} integers, got {index!r}")
    index = tuple(_cell_index(n, v, size) for n, (v, size) in enumerate(zip(index, shape, strict=True)))
    if stage == "scores":
        return derive_score(trace, *index) if scale else _derive_unscaled_score(trace, *index)
    if stage == "attn":
        return _derive_causal_attn(trace, *index) if causal else derive_attn(trace, *index)
    if stage == "ln1_out":
        return derive_ln1(trace, *index, weights=weights)
    if stage == "ffn_h":
        return derive_ffn_h(trace, weights, *index)
    if stage == "ln2_out":
        return derive_ln2(trace, *index, weights=weights)
    return _DERIVE[stage](trace, weights, index, positions)


def derive_all(
    trace: BlockTrace, stage: str, weights: BlockWeights = ENCODER.weights, **switches: bool
) -> list[Derivation]:
    """Every cell of one stage, in C order of the trace's array (``switches`` as in :func:`derive`)."""
    if stage not in CELL_STAGES:
        raise ValueError(f"stage must be one of {CELL_STAGES}, got {stage!r}")
    shape = getattr(_check_trace(trace), stage).shape
    return [derive(trace, stage, tuple(int(i) for i in idx), weights, **switches) for idx in np.ndindex(*shape)]


def derivation_to_dict(der: Derivation, decimals: int | None = None) -> dict:
    """Plain JSON-able dict; ``decimals`` rounds every float (None keeps full precision)."""
    if decimals is not None and (not isinstance(decimals, int) or isinstance(decimals, bool) or decimals < 0):
        raise ValueError(f"decimals must be None or an integer ≥ 0, got {decimals!r}")

    def num(x: float) -> float:
        return float(x) if decimals is None else round(float(x), decimals)

    return {
        "stage": der.stage,
        "index": list(der.index),
        "cell": der.cell,
        "formula": der.formula,
        "terms": [
            {
                "label": t.label,
                "factors": [{"label": f.label, "value": num(f.value)} for f in t.factors],
                "value": num(t.value),
            }
            for t in der.terms
        ],
        "n_zero_terms": der.n_zero_terms,
        "intermediates": [{"name": q.name, "latex": q.latex, "value": num(q.value)} for q in der.intermediates],
        "value": num(der.value),
    }


def trace_value(trace: BlockTrace, der: Derivation) -> float:
    """The trace's own value of the derived cell (the other route to the same number)."""
    return float(getattr(_check_trace(trace), der.stage)[der.index])


# ---------------------------------------------------------------- argument checks


def _check_trace(trace: object) -> BlockTrace:
    if not isinstance(trace, BlockTrace):
        raise ValueError(f"trace must be a BlockTrace (e.g. ENCODER.trace(1)), got {type(trace).__name__}")
    return trace


def _check_weights(weights: object, d_model: int) -> None:
    if not isinstance(weights, BlockWeights):
        raise ValueError(f"weights must be BlockWeights (e.g. ENCODER.weights), got {type(weights).__name__}")
    if weights.d_model != d_model:
        raise ValueError(f"weights.d_model = {weights.d_model} does not match the trace's d_model = {d_model}")


def _cell_index(axis: int, value: object, size: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise ValueError(f"index[{axis}] must be an integer 0 … {size - 1}, got {value!r}")
    return int(value)


def _index(name: str, value: object, size: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer 0 … {size - 1}, got {value!r}")
    if not 0 <= value < size:
        raise ValueError(f"{name} must be 0 … {size - 1}, got {value}")
    return int(value)
