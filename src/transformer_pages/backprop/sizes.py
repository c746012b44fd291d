"""docs/backprop/04-sizes.md: how big the gradient is at each stage, for the example and over all 40 examples,
what sets each change of size, and every weight's gradient beside autograd's."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from transformer_math import activations, preset
from transformer_math import backward as bw
from transformer_math.preset import SENTENCES, T

from .loss import POSITION, SENTENCE

STAGES: tuple[str, ...] = tuple(bw.gradient_norms(bw.preset_gradients(SENTENCE, POSITION)))
"""The stages of ``backward.gradient_norms``, from the loss back to X."""


def norms() -> dict[str, float]:
    """‖∂L/∂·‖ at each stage for the example."""
    return bw.gradient_norms(bw.preset_gradients(SENTENCE, POSITION))


@cache
def all_norms() -> np.ndarray:
    """(40, stages): the stage norms for every sentence and hidden position of the preset (read-only)."""
    table = np.array(
        [list(bw.gradient_norms(bw.preset_gradients(s.number, p)).values()) for s in SENTENCES for p in range(T)]
    )
    table.setflags(write=False)
    return table


def _column(stage: str) -> int:
    """The column of :func:`all_norms` of ∂L/∂``stage`` (``stage``: the forward value's symbol, ``attn``, …)."""
    if f"d_{stage}" not in STAGES:
        raise ValueError(f"stage must be one of {[s[2:] for s in STAGES]}, got {stage!r}")
    return STAGES.index(f"d_{stage}")


def median_norm(stage: str) -> float:
    """The median over the 40 examples of ‖∂L/∂``stage``‖."""
    return float(np.median(all_norms()[:, _column(stage)]))


def ratio(after: str, before: str) -> float:
    """‖∂L/∂after‖ / ‖∂L/∂before‖ for the example: the factor one step of the chain rule applied."""
    n = norms()
    return n[after] / n[before]


def _stage_norms(after: str, before: str) -> tuple[np.ndarray, np.ndarray]:
    return all_norms()[:, _column(after)], all_norms()[:, _column(before)]


def n_examples_shrinking(after: str, before: str) -> int:
    """Of the 40 examples, in how many ‖∂L/∂after‖ < ‖∂L/∂before‖: the step made the gradient smaller."""
    a, b = _stage_norms(after, before)
    return int(np.sum(a < b))


def n_examples_growing(after: str, before: str) -> int:
    """Of the 40 examples, in how many ‖∂L/∂after‖ > ‖∂L/∂before‖: the step made the gradient larger."""
    a, b = _stage_norms(after, before)
    return int(np.sum(a > b))


def value_norm_at_keys(head: int) -> float:
    """‖V[:, head]‖ of the example: ∂L/∂attn[p, j] = ∂L/∂head_out[p] · V[j] grows with the values' size."""
    return float(np.linalg.norm(bw.preset_gradients(SENTENCE, POSITION).loss.trace.V[:, head]))


def weight_norms() -> dict[str, float]:
    """{weight name: ‖∂L/∂W‖} for the example, in the order of ``BlockWeights``."""
    return {n: float(np.linalg.norm(g)) for n, g in bw.preset_gradients(SENTENCE, POSITION).weight_gradients().items()}


def n_weights() -> int:
    """How many weight arrays the block has (every one gets a gradient)."""
    return len(bw.WEIGHT_NAMES)


def n_examples() -> int:
    return len(SENTENCES) * T


def ln_scale(which: int) -> float:
    """1/σ of LayerNorm ``which`` (1 or 2) at the hidden row: the direct term's factor on the way back."""
    if which not in (1, 2):
        raise ValueError(f"which must be 1 or 2, got {which!r}")
    trace = bw.preset_gradients(SENTENCE, POSITION).loss.trace
    x = (trace.residual1 if which == 1 else trace.residual2)[POSITION]
    return float(1.0 / np.sqrt(x.var() + preset.EPS))


def layer_norm_jacobian(which: int) -> np.ndarray:
    """∂ln_out[p]/∂residual[p] (d_model, d_model) of LayerNorm ``which`` at the hidden row, row i = ∂y_i/∂x.

    Built from ``backward.layer_norm_backward`` with one unit upstream gradient per output component.
    """
    if which not in (1, 2):
        raise ValueError(f"which must be 1 or 2, got {which!r}")
    g = bw.preset_gradients(SENTENCE, POSITION)
    weights = preset.preset_weights()
    x = (g.loss.trace.residual1 if which == 1 else g.loss.trace.residual2)[POSITION]
    gamma = weights.ln1_gamma if which == 1 else weights.ln2_gamma
    d = x.shape[0]
    return bw.layer_norm_backward(np.tile(x, (d, 1)), gamma, weights.eps, np.eye(d)).d_x


@dataclass(frozen=True)
class Step:
    """One step of the chain rule along the main path: the gradient's size before and after, and the bound
    ‖Jacobian‖₂ that no gradient can exceed (‖after‖ ≤ bound · ‖before‖)."""

    before: str
    after: str
    what: str  # what the Jacobian of the step is
    size_before: float
    size_after: float
    bound: float

    @property
    def ratio(self) -> float:
        return self.size_after / self.size_before


def _norm(a: np.ndarray) -> float:
    return float(np.linalg.norm(a))


TEXT = {
    "ln_jacobian": "LayerNorm {0} のヤコビアン",
    "gelu_diagonal": "GELU′ (対角)",
    "softmax_jacobian": "softmax のヤコビアン",
    "ffn_path": "{0} (FFN の道)",
    "per_head": "{0} (ヘッド {1})",
}
"""The reader-facing words of the steps' table: what each step's Jacobian is, and how a stage is named."""


def _per_head(stage: str, a: int) -> str:
    return TEXT["per_head"].format(stage, a)


def steps() -> tuple[Step, ...]:
    """The steps from ∂L/∂ln2_out to ∂L/∂Q on the hidden row (per head where the step is per head)."""
    g = bw.preset_gradients(SENTENCE, POSITION)
    tr, w, p = g.loss.trace, preset.preset_weights(), POSITION
    two = lambda m: float(np.linalg.norm(m, 2))  # noqa: E731  spectral norm
    rows = [
        Step("ln2_out", "residual2", TEXT["ln_jacobian"].format(2), _norm(g.d_ln2_out[p]), _norm(g.d_residual2[p]),
             two(layer_norm_jacobian(2))),
        Step("residual2", "ffn_h", "W2ᵀ", _norm(g.d_residual2[p]), _norm(g.d_ffn_h[p]), two(w.W2)),
        Step("ffn_h", "ffn_pre", TEXT["gelu_diagonal"], _norm(g.d_ffn_h[p]), _norm(g.d_ffn_pre[p]),
             float(np.abs(activations.gelu_derivative(tr.ffn_pre[p])).max())),
        Step("ffn_pre", TEXT["ffn_path"].format("ln1_out"), "W1ᵀ", _norm(g.d_ffn_pre[p]), _norm(g.d_ln1_out_ffn[p]),
             two(w.W1)),
        Step("ln1_out", "residual1", TEXT["ln_jacobian"].format(1), _norm(g.d_ln1_out[p]), _norm(g.d_residual1[p]),
             two(layer_norm_jacobian(1))),
    ]  # fmt: skip
    for a in range(w.n_heads):
        V, K = tr.V[:, a], tr.K[:, a]  # (T, d_k) of head a
        rows += [
            Step(_per_head("head_out", a), _per_head("attn", a), "V", _norm(g.d_head_out[p, a]),
                 _norm(g.d_attn[a, p]), two(V)),
            Step(_per_head("attn", a), _per_head("scores", a), TEXT["softmax_jacobian"], _norm(g.d_attn[a, p]),
                 _norm(g.d_scores[a, p]), two(bw.softmax_jacobian(tr.attn[a, p]))),
            Step(_per_head("scores", a), _per_head("Q", a), "K / √d_k", _norm(g.d_scores[a, p]), _norm(g.d_Q[p, a]),
                 two(K) / np.sqrt(K.shape[1])),
        ]  # fmt: skip
    return tuple(rows)


def step(before: str, after: str) -> Step:
    for s in steps():
        if (s.before, s.after) == (before, after):
            return s
    raise ValueError(f"no step {before!r} → {after!r}; steps: {[(s.before, s.after) for s in steps()]}")


def n_steps_within_bound() -> int:
    """How many steps keep ‖after‖ ≤ bound · ‖before‖ (all of them, by the definition of the spectral norm)."""
    return sum(s.size_after <= s.bound * s.size_before * (1 + 1e-12) for s in steps())


AUTOGRAD_EPS_BOUND = 256
"""The page promises |ours − autograd| ≤ this many machine epsilons for every gradient of the 40 examples; the
page's snippet asserts it at build time (measured 48 ε on the build machine; BLAS and CPU change the multiple,
so the bound leaves room while staying far below the tests' 1e-12)."""


LABELS = {
    "n_examples()": "8 文 × 5 位置の例の数",
    "n_weights()": "ブロックの重み配列の数",
    "median_norm()": "40 例での ‖∂L/∂{0}‖ の中央値",
    "n_examples_shrinking()": "∂L/∂{1} → ∂L/∂{0} でノルムが減った例の数",
    "n_examples_growing()": "∂L/∂{1} → ∂L/∂{0} でノルムが増えた例の数",
    "steps()": "T3 の行の連鎖律の段",
    "n_steps_within_bound()": "比が上限 ‖J‖₂ 以下の段の数",
    "step()": "{0} → {1} の段",
    "step().bound": "{0} → {1} の段の倍率の上限 ‖J‖₂",
    "step().ratio": "{0} → {1} の段の実際の比",
    "ln_scale()": "LayerNorm {0} の T3 の行の 1/σ",
    "weight_norms()": "花を隠した例の重みの勾配のノルム",
    "weight_norms()[]": "花を隠した例の ‖∂L/∂{0}‖",
    "AUTOGRAD_EPS_BOUND": "自動微分との差の上限 (機械イプシロンの倍数)",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
