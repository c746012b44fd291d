"""Cell derivations: general formula → the substituted non-zero terms → intermediates → value.

As the simulator's cell click did: for one cell of ``scores``, ``attn``, ``ln1_out``, ``ffn_h`` or
``ln2_out`` the derivation recomputes the value *from its own terms* (not by reading the trace), so a test
can compare it with the trace's value — two routes to one number.

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


# ---------------------------------------------------------------- dispatch and export


def derive(
    trace: BlockTrace, stage: str, index: tuple[int, ...], weights: BlockWeights = ENCODER.weights
) -> Derivation:
    """The derivation of ``trace.<stage>[index]`` for stage in STAGES; ``weights`` are the traced model's."""
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, got {stage!r}")
    expected = 3 if stage in ("scores", "attn") else 2
    if not isinstance(index, (tuple, list)) or len(index) != expected:
        raise ValueError(f"index for {stage} must be a tuple of {expected} integers, got {index!r}")
    w = weights
    if stage == "scores":
        return derive_score(trace, *index)
    if stage == "attn":
        return derive_attn(trace, *index)
    if stage == "ln1_out":
        return derive_ln1(trace, *index, weights=w)
    if stage == "ffn_h":
        return derive_ffn_h(trace, w, *index)
    return derive_ln2(trace, *index, weights=w)


def derive_all(trace: BlockTrace, stage: str, weights: BlockWeights = ENCODER.weights) -> list[Derivation]:
    """Every cell of one stage, in C order of the trace's array."""
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, got {stage!r}")
    shape = getattr(_check_trace(trace), stage).shape
    return [derive(trace, stage, tuple(int(i) for i in idx), weights) for idx in np.ndindex(*shape)]


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


def _index(name: str, value: object, size: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer 0 … {size - 1}, got {value!r}")
    if not 0 <= value < size:
        raise ValueError(f"{name} must be 0 … {size - 1}, got {value}")
    return int(value)
