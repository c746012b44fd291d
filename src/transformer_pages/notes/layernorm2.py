"""docs/notes/07-layernorm2.md: LayerNorm 2 over the eight sentences, and how far FFN's GELU dips below zero."""

from __future__ import annotations

from transformer_math import layernorm, preset, preset_trace
from transformer_math.preset import SENTENCES


def divisor(t: int) -> float:
    """√(σ_t² + ε) of LayerNorm 2 at token t of sentence 3 (猫 is t = 2)."""
    return float(layernorm.ln2_stats(preset_trace(3), preset.EPS).scale[t])


def stat_range(field: str) -> tuple[float, float]:
    """(min, max) of one LayerNormStats field of LayerNorm 2 over all 8 × T tokens."""
    return layernorm.stat_range((layernorm.ln2_stats(preset_trace(s.number), preset.EPS) for s in SENTENCES), field)


def max_abs_mean_out() -> float:
    """The largest |mean| of an ln2_out row over all 8 × T tokens (0 up to rounding)."""
    return max(abs(v) for v in stat_range("mean_out"))


def ffn_out_min() -> float:
    """The most negative ffn_out over the eight sentences: GELU's negative dip leaks through W2."""
    return min(float(preset_trace(s.number).ffn_out.min()) for s in SENTENCES)


LABELS = {
    "divisor()": "文3 の位置 {0} の LayerNorm 2 の √(σ² + ε)",
    "stat_range()": "8 文全体の LayerNorm 2 の「{0}」の (最小, 最大)",
    "ffn_out_min()": "8 文全体の ffn_out の最小",
    "max_abs_mean_out()": "LayerNorm 2 の後の各行の平均の絶対値の最大",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
