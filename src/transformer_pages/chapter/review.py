"""docs/chapter/10-review.md: the review page cites the other chapter pages; these are its own short names."""

from __future__ import annotations

from transformer_math import counting
from transformer_math.configs import TRANSFORMER_BASE as BASE

from .overview import CONCAT_WIDTH

__all__ = ["BLOCK_WEIGHTS", "CONCAT_WIDTH", "D_K"]

D_K = BASE.d_model // BASE.n_heads
BLOCK_WEIGHTS = counting.block_params(BASE.d_model, BASE.d_ff, bias=False, layer_norm=False)


LABELS = {
    "CONCAT_WIDTH": "ヘッドを連結した幅 h·d_v",
    "D_K": "原論文の d_k",
    "BLOCK_WEIGHTS": "原論文の 1 ブロックの重み",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
