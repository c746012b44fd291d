"""docs/notes/05-layernorm1.md: LayerNorm 1 over the eight sentences, and what the residual connection keeps.

>>> round(divisor(3), 3)
1.104
"""

from __future__ import annotations

import numpy as np

from transformer_math import layernorm, ops, preset, preset_trace
from transformer_math.block import BlockTrace
from transformer_math.preset import D_MODEL, SENTENCES, T

N_PAIRS = D_MODEL // 2
"""(sin, cos) pairs of W_P: at position 0, eight cosines are 1 and eight sines are 0."""


def divisor(t: int) -> float:
    """√(σ_t² + ε) of LayerNorm 1 at token t of sentence 1 (花 is t = 3): what residual1[t] is divided by."""
    return float(layernorm.ln1_stats(preset_trace(1), preset.EPS).scale[t])


def stat_range(field: str) -> tuple[float, float]:
    """(min, max) of one LayerNormStats field of LayerNorm 1 over all 8 × T tokens."""
    return layernorm.stat_range((layernorm.ln1_stats(preset_trace(s.number), preset.EPS) for s in SENTENCES), field)


def max_abs_mean_out() -> float:
    """The largest |mean| of an ln1_out row over all 8 × T tokens (0 up to rounding)."""
    return max(abs(v) for v in stat_range("mean_out"))


def layer_norm_of_Y_alone(trace: BlockTrace) -> np.ndarray:
    """What LayerNorm 1 would output without the residual connection: LN(Y) instead of LN(X + Y). (T, d_model)"""
    return ops.layer_norm(trace.Y, eps=preset.EPS)


def own_category_value(trace: BlockTrace, t: int, with_residual: bool = True) -> float:
    """ln1_out[t, c] at token t's own category dimension c (with the residual) or LN(Y)[t, c] (without)."""
    if t not in range(len(trace.tokens)):
        raise ValueError(f"t must be 0 … {len(trace.tokens) - 1}, got {t!r}")
    category = preset.LEXICON[preset.VOCAB[int(trace.tokens[t])]][0]
    out = trace.ln1_out if with_residual else layer_norm_of_Y_alone(trace)
    return float(out[t, category])


def n_residual_keeps_own_category() -> int:
    """How many of the 8 × T tokens have a larger own-category value with the residual than without."""
    return sum(
        own_category_value(preset_trace(s.number), t) > own_category_value(preset_trace(s.number), t, False)
        for s in SENTENCES
        for t in range(T)
    )


LABELS = {
    "N_PAIRS": "sin と cos の組の数",
    "divisor()": "文1 の位置 {0} の √(σ² + ε)",
    "stat_range()": "8 文全体の「{0}」の (最小, 最大)",
    "max_abs_mean_out()": "LayerNorm 1 の後の各行の平均の絶対値の最大",
    "n_residual_keeps_own_category()": "残差ありのほうが自分の品詞の値が大きいトークンの数",
    "own_category_value()": "{0} の位置 {1} の自分の品詞の次元の LN 後の値 (残差 {2})",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
