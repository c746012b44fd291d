"""docs/backprop/02-output-ffn.md: from the loss back through the tied output, LayerNorm 2, the FFN and the
residual path around it, on the example of ``loss`` (sentence 1, 花 hidden)."""

from __future__ import annotations

import numpy as np

from transformer_math import activations, preset, preset_weights
from transformer_math import backward as bw
from transformer_math.preset import WORD_ID

from .loss import POSITION, SENTENCE

N_USED_UNITS = preset.N_SINGLE_DETECTORS + len(preset.AND_DETECTOR_FEATURES)
"""h0 … h15 are the preset's detectors; h16 … h31 have zero weights (their ffn_pre is 0)."""


def grads() -> bw.BlockGradients:
    """Every gradient of the example."""
    return bw.preset_gradients(SENTENCE, POSITION)


def gradient(name: str) -> np.ndarray:
    """∂L/∂``name`` of the example, where ``name`` is the forward value's symbol (``ln2_out``, ``residual2``, …)."""
    return getattr(grads(), f"d_{name}")


def nonzero_rows(name: str) -> int:
    """How many of the T rows (positions) of ∂L/∂``name`` are not all zero."""
    value = gradient(name)
    if value.shape[0] != preset.T:
        raise ValueError(f"∂L/∂{name} has shape {value.shape}: its first axis is not the T = {preset.T} positions")
    return int(np.count_nonzero(np.abs(value.reshape(preset.T, -1)).sum(axis=1)))


def row_norm(name: str, row: int = POSITION) -> float:
    """‖row ``row`` of ∂L/∂``name``‖ (the hidden row by default)."""
    return float(np.linalg.norm(gradient(name)[row]))


def ffn_path_norm() -> float:
    """‖the FFN path's share of ∂L/∂ln1_out at the hidden row‖ (the skip path carries ∂L/∂residual2 itself)."""
    return float(np.linalg.norm(grads().d_ln1_out_ffn[POSITION]))


def ln2_beta_gradient_norm() -> float:
    """‖∂L/∂β of LayerNorm 2‖: the sum over t of ∂L/∂ln2_out[t], here the hidden row's alone."""
    return float(np.linalg.norm(grads().weight_gradient("ln2_beta")))


def ln2_x_hat() -> np.ndarray:
    """x̂ of LayerNorm 2 at the hidden row, (d_model,): (residual2[p] − μ)/σ."""
    x = grads().loss.trace.residual2[POSITION]
    return (x - x.mean()) / ln2_sigma()


def ln2_sigma() -> float:
    """σ = √(var + ε) of residual2 at the hidden row: LayerNorm 2 divides by it on the way back too."""
    x = grads().loss.trace.residual2[POSITION]
    return float(np.sqrt(x.var() + preset.EPS))


def ln2_terms() -> dict[str, np.ndarray]:
    """LayerNorm 2's backward at the hidden row: ĝ, its three terms and their sum, each (d_model,)."""
    g = grads()
    return {
        "d_x_hat": g.d_ln2_out[POSITION] * preset_weights().ln2_gamma,
        "direct": g.d_residual2_direct[POSITION],
        "mean": g.d_residual2_mean[POSITION],
        "variance": g.d_residual2_variance[POSITION],
        "total": g.d_residual2[POSITION],
    }


def ln2_term_sum(term: str) -> float:
    """The sum over the hidden row of one LayerNorm 2 term (``direct``, ``mean``, ``variance``, ``total``)."""
    return float(ln2_terms()[term].sum())


def ln2_total_dot_x_hat() -> float:
    """∂L/∂residual2[p] · x̂: 0 without ε (a stretch of x about its mean does not change x̂), small with it."""
    return float(ln2_terms()["total"] @ ln2_x_hat())


def gelu_prime() -> np.ndarray:
    """GELU′(ffn_pre) at the hidden row, (d_ff,)."""
    return activations.gelu_derivative(grads().loss.trace.ffn_pre[POSITION])


def negative_slope_units() -> tuple[int, ...]:
    """The detectors (h0 … h15) whose GELU′ is negative at the hidden row: their gradient changes sign."""
    return tuple(int(k) for k in np.flatnonzero(gelu_prime()[:N_USED_UNITS] < 0))


def positive_pre_units() -> tuple[int, ...]:
    """The detectors (h0 … h15) whose ffn_pre is positive at the hidden row; every other one is negative there."""
    pre = grads().loss.trace.ffn_pre[POSITION, :N_USED_UNITS]
    return tuple(int(k) for k in np.flatnonzero(pre > 0))


def n_firing() -> int:
    """Detectors that fire (ffn_h > 0.5) at the hidden row."""
    return int(np.sum(grads().loss.trace.ffn_h[POSITION] > preset.FIRING_THRESHOLD))


def gelu_pass_ratio() -> float:
    """‖∂L/∂ffn_pre‖ / ‖∂L/∂ffn_h‖ at the hidden row: how much of the gradient GELU′ lets through."""
    return row_norm("ffn_pre") / row_norm("ffn_h")


def relu_pass_ratio() -> float:
    """The same ratio had the FFN used ReLU (slope 1 where ffn_pre > 0, else 0) at the same ffn_pre."""
    g = grads()
    relu_slope = (g.loss.trace.ffn_pre[POSITION] > 0).astype(float)
    return float(np.linalg.norm(g.d_ffn_h[POSITION] * relu_slope)) / row_norm("ffn_h")


def skip_ffn_cosine() -> float:
    """cos of the angle between the skip path's and the FFN path's share of ∂L/∂ln1_out at the hidden row."""
    g = grads()
    a, b = g.d_ln1_out_skip[POSITION], g.d_ln1_out_ffn[POSITION]
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def weight_rank(name: str) -> int:
    """The rank of ∂L/∂W for weight matrix ``name``: 1 when a single row (position) feeds it."""
    return int(np.linalg.matrix_rank(grads().weight_gradient(name)))


def output_part(word: str, d: int) -> float:
    """∂L/∂z_word · W_E[word, d]: the word's share of ∂L/∂ln2_out[p, d] (the tied output sums these over words)."""
    return float(grads().d_logits[WORD_ID[word]] * preset_weights().W_E[WORD_ID[word], d])


def n_silent_units() -> int:
    """FFN units whose every weight (W1 column, b1, W2 row) gets exactly zero gradient: the zero-weight h16 … h31.

    ffn_h = GELU(0) = 0 gives ∂L/∂W2[k] = 0, and W2[k] = 0 gives ∂L/∂ffn_h[k] = 0, hence ∂L/∂W1[:, k] = ∂L/∂b1[k] = 0.
    """
    g = grads()
    silent = ~g.d_W1.any(axis=0) & (g.d_b1 == 0) & ~g.d_W2.any(axis=1)
    return int(np.sum(silent))


def ln2_mean_term() -> float:
    """LayerNorm 2's mean term at the hidden row: the same value in every dimension."""
    return float(ln2_terms()["mean"][0])


def ln2_mean_term_spread() -> float:
    """max − min of the mean term over the row (0: it is one constant)."""
    mean = ln2_terms()["mean"]
    return float(mean.max() - mean.min())


LABELS = {
    "grads()": "花を隠した例の勾配",
    "grads().d_ln2_out": "花を隠した例の ∂L/∂ln2_out",
    "grads().d_ffn_h": "花を隠した例の ∂L/∂ffn_h",
    "grads().d_ffn_pre": "花を隠した例の ∂L/∂ffn_pre",
    "grads().loss.trace.ffn_pre": "花を隠した例の ffn_pre",
    "nonzero_rows()": "∂L/∂{0} の 0 でない行の数",
    "row_norm()": "∂L/∂{0} の行のノルム (既定は T3)",
    "ffn_path_norm()": "FFN の道を通って ln1_out に届く勾配のノルム (T3)",
    "ln2_beta_gradient_norm()": "LayerNorm 2 の β の勾配のノルム",
    "ln2_sigma()": "LayerNorm 2 の T3 の行の σ",
    "ln2_term_sum()": "LayerNorm 2 の「{0}」の項の T3 の行和",
    "ln2_mean_term()": "LayerNorm 2 の平均の項の値 (T3 の行)",
    "ln2_mean_term_spread()": "LayerNorm 2 の平均の項の最大と最小の差",
    "gelu_prime()": "T3 の GELU′(ffn_pre)",
    "gelu_prime()[]": "T3 の h{0} の GELU′(ffn_pre)",
    "negative_slope_units()": "T3 で GELU′ が負の検出器 (h0〜h15)",
    "n_firing()": "T3 で発火している検出器の数",
    "positive_pre_units()": "T3 で ffn_pre が正の検出器 (h0〜h15)",
    "gelu_pass_ratio()": "GELU を通った後と前の勾配のノルムの比",
    "skip_ffn_cosine()": "残差の道と FFN の道の勾配の余弦",
    "weight_rank()": "∂L/∂{0} の階数",
    "output_part()": "∂L/∂ln2_out[T3, d{1}] のうち「{0}」の項",
    "n_silent_units()": "勾配がちょうど 0 の未使用ユニットの数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
