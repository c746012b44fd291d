"""docs/backprop/03-attention.md: from LayerNorm 1 back through the attention to the embedding, on the example of
``loss`` (sentence 1, 花 hidden): the softmax Jacobian of the hidden row, ∂/∂Q, ∂/∂K, ∂/∂V and the weights."""

from __future__ import annotations

import numpy as np

from transformer_math import backward as bw
from transformer_math import preset
from transformer_math.preset import WORD_ID

from .loss import POSITION, SENTENCE


def grads() -> bw.BlockGradients:
    return bw.preset_gradients(SENTENCE, POSITION)


def attn_row(head: int) -> np.ndarray:
    """attn[head, p, :] of the example, (T,): the hidden word's attention row."""
    return grads().loss.trace.attn[head, POSITION]


def jacobian(head: int) -> np.ndarray:
    """∂A/∂S of the hidden row in ``head``: A_i(δ_ij − A_j), (T, T)."""
    return bw.softmax_jacobian(attn_row(head))


def jacobian_norm(head: int) -> float:
    """The spectral norm of :func:`jacobian`: no ∂L/∂A is shrunk less than by this factor."""
    return float(np.linalg.norm(jacobian(head), 2))


def uniform_jacobian_norm() -> float:
    """The spectral norm of the Jacobian of a uniform row over T keys: 1/T."""
    return float(np.linalg.norm(bw.softmax_jacobian(np.full(preset.T, 1.0 / preset.T)), 2))


def jacobian_max_row_sum() -> float:
    """The largest |Σ_j| over the rows of both heads' Jacobians (each row sums to 0 in exact math)."""
    return max(float(np.abs(jacobian(h).sum(axis=-1)).max()) for h in range(preset.N_HEADS))


def d_scores_max_row_sum() -> float:
    """The largest |Σ_j ∂L/∂scores[·, i, j]| over every row of both heads (0 in exact math)."""
    return float(np.abs(grads().d_scores.sum(axis=-1)).max())


def d_scores_ratio(head: int) -> float:
    """‖∂L/∂scores[head, p]‖ / ‖∂L/∂attn[head, p]‖: what the softmax let through in this head."""
    g = grads()
    return float(np.linalg.norm(g.d_scores[head, POSITION]) / np.linalg.norm(g.d_attn[head, POSITION]))


def row_norms(name: str) -> np.ndarray:
    """‖row t‖ of ∂L/∂``name`` (a (T, …) gradient; ``name`` is the forward value's symbol) for each t, (T,)."""
    return _norms_by_position(getattr(grads(), f"d_{name}"))


def skip_path_norms() -> np.ndarray:
    """‖row t‖ of the residual path's share of ∂L/∂X (∂L/∂residual1 passed straight to X), (T,)."""
    return _norms_by_position(grads().d_X_skip)


def _norms_by_position(value: np.ndarray) -> np.ndarray:
    return np.linalg.norm(value.reshape(value.shape[0], -1), axis=1)


def nonzero_rows(name: str) -> int:
    return int(np.count_nonzero(row_norms(name)))


def weight_rank(name: str) -> int:
    return int(np.linalg.matrix_rank(grads().weight_gradient(name)))


def embedding_rows(side: str) -> dict[str, float]:
    """{word: ‖row of ∂L/∂W_E‖} for the words whose row gets a gradient from ``side`` ("input" or "output")."""
    if side not in ("input", "output"):
        raise ValueError(f"side must be 'input' or 'output', got {side!r}")
    rows = getattr(grads(), f"d_W_E_{side}")
    norms = np.linalg.norm(rows, axis=1)
    return {w: float(norms[i]) for w, i in WORD_ID.items() if norms[i] > 0}


def embedding_row(word: str, side: str) -> float:
    """‖∂L/∂W_E[word]‖ from one side; 0 when that side gives the word nothing."""
    return embedding_rows(side).get(word, 0.0)


def d_attn_constant_share(head: int) -> float:
    """‖mean part‖ / ‖∂L/∂attn[head, p]‖: how much of the upstream gradient is the same for every key.

    The Jacobian maps a constant vector to 0 (adding one number to every score leaves the softmax unchanged),
    so only the rest can reach the scores.
    """
    row = grads().d_attn[head, POSITION]
    return float(np.linalg.norm(np.full_like(row, row.mean())) / np.linalg.norm(row))


def d_attn_term(head: int, key: int, d: int) -> float:
    """One term of ∂L/∂attn[head, p, key] = Σ_d ∂L/∂head_out[p, head, d] · V[key, head, d]: the d-th product."""
    g = grads()
    return float(g.d_head_out[POSITION, head, d] * g.loss.trace.V[key, head, d])


def max_abs_d_concat_minus_d_Y() -> float:
    """max |∂L/∂concat − ∂L/∂Y|: 0 when W_O is the identity (the preset's)."""
    g = grads()
    return float(np.abs(g.d_concat - g.d_Y).max())


def ln1_term_sum(term: str) -> float:
    """Row sum at the hidden row of one LayerNorm 1 term: ``direct``, ``mean``, ``variance`` or ``total``."""
    g = grads()
    names = {"direct": "d_residual1_direct", "mean": "d_residual1_mean", "variance": "d_residual1_variance",
             "total": "d_residual1"}  # fmt: skip
    if term not in names:
        raise ValueError(f"term must be one of {sorted(names)}, got {term!r}")
    return float(getattr(g, names[term])[POSITION].sum())


def score_scale() -> float:
    """1/√d_k of the preset: the factor the forward's scaling puts on ∂L/∂Q and ∂L/∂K too."""
    return float(1.0 / np.sqrt(preset.D_K))


def jacobian_diagonal(head: int, end: str) -> float:
    """The smallest (``end="min"``) or largest (``"max"``) diagonal entry A_i(1 − A_i) of :func:`jacobian`."""
    diagonal = np.diag(jacobian(head))
    if end not in ("min", "max"):
        raise ValueError(f"end must be 'min' or 'max', got {end!r}")
    return float(diagonal.min() if end == "min" else diagonal.max())


LABELS = {
    "grads()": "花を隠した例の勾配",
    "grads().d_attn": "花を隠した例の ∂L/∂attn",
    "grads().d_head_out": "花を隠した例の ∂L/∂head_out",
    "grads().loss.trace.V": "花を隠した例の V",
    "attn_row()": "ヘッド{0} の T3 の attn の行",
    "jacobian_norm()": "ヘッド{0} の T3 の softmax のヤコビアンの ‖J‖₂",
    "uniform_jacobian_norm()": "均等な行の softmax のヤコビアンの ‖J‖₂",
    "jacobian_diagonal()": "ヘッド{0} の T3 のヤコビアンの対角成分の {1}",
    "jacobian_max_row_sum()": "softmax のヤコビアンの各行の和の絶対値の最大",
    "d_scores_max_row_sum()": "∂L/∂scores の各行の和の絶対値の最大",
    "d_attn_constant_share()": "ヘッド{0} の ∂L/∂attn のうち平均の部分の割合",
    "d_scores_ratio()": "ヘッド{0} の ‖∂L/∂scores‖ ÷ ‖∂L/∂attn‖",
    "d_attn_term()": "∂L/∂attn[ヘッド{0}, T3, T{1}] の d{2} の項",
    "max_abs_d_concat_minus_d_Y()": "|∂L/∂concat − ∂L/∂Y| の最大",
    "ln1_term_sum()": "LayerNorm 1 の「{0}」の項の T3 の行和",
    "score_scale()": "スコアと Q, K の勾配の倍率 1/√d_k",
    "nonzero_rows()": "∂L/∂{0} の 0 でない行の数",
    "weight_rank()": "∂L/∂{0} の階数",
    "row_norms()": "∂L/∂{0} の各行のノルム",
    "row_norms()[]": "∂L/∂{0} の T{1} の行のノルム",
    "skip_path_norms()": "残差の道から X に届く勾配の各行のノルム",
    "skip_path_norms()[]": "残差の道から X に届く勾配の T{0} の行のノルム",
    "embedding_row()": "∂L/∂W_E[{0}] のノルム (「{1}」側)",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
