"""docs/decoder/04-kv-cache.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

from transformer_math import decoder_model as dec

from .. import which
from .kv_cache import model

CACHED = 9
"""Keys already in the cache when the new token arrives."""


def cached_score_multiplies() -> int:
    """h · (CACHED + 1) · d_k: one query against every key, in every head."""
    m = model()
    return m.n_heads * (CACHED + 1) * m.d_k


def recomputed_score_multiplies() -> int:
    """The same scores for all CACHED + 1 rows (the full square)."""
    return (CACHED + 1) * cached_score_multiplies()


def why_reuse() -> str:
    """What keeps the earlier K and V: with the mask, block 2's K of the first tokens is the same with one token
    more; without it (every row reading every position) it changes."""
    m = model()
    ids = m.ids("<bos> 私 は 本 を")
    shorter, longer = dec.forward(m, ids[:-1]), dec.forward(m, ids)
    unchanged = bool(abs(shorter.blocks[1].K - longer.blocks[1].K[:-1]).max() < 1e-12)
    return which({"mask": True, "weights": False, "norm": False}, unchanged)




# ----------------------------------------------------------------------------------- asked on the exam page

EXAM_CACHED = 19
EXAM_LENGTH = 7


def exam_score_multiplies() -> int:
    m = model()
    return m.n_heads * (EXAM_CACHED + 1) * m.d_k


def exam_ratio() -> float:
    """Multiply-adds of a step without the cache over one with it, after EXAM_LENGTH tokens."""
    from .kv_cache import ratio

    return ratio(EXAM_LENGTH)


LABELS = {
    "CACHED": "キャッシュにある K の行の数",
    "cached_score_multiplies()": "キャッシュありで、新しい 1 トークンの scores の積和 (全ヘッド)",
    "recomputed_score_multiplies()": "キャッシュなしで、全部の行の scores の積和 (全ヘッド)",
    "EXAM_CACHED": "試験の問題でキャッシュにある K の行の数",
    "EXAM_LENGTH": "試験の問題の文脈の長さ",
    "exam_score_multiplies()": "試験の問題の、新しい 1 トークンの scores の積和 (全ヘッド)",
    "exam_ratio()": "試験の問題の長さでの、キャッシュなしとありの 1 ステップの積和の比",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
