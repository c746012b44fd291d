"""docs/chapter/03-multi-head.md: h heads of d_model/h cost what one head of d_model costs, and see h patterns."""

from __future__ import annotations

from functools import cache

from transformer_math import attention, counting
from transformer_math.attention import AttentionRun
from transformer_math.configs import TRANSFORMER_BASE as BASE

from .attention_kinds import CROSS_M, CROSS_N, SEED, cross
from .overview import CONCAT_WIDTH

__all__ = ["CONCAT_WIDTH", "CROSS_M", "CROSS_N", "cross"]

ATTENTION_WEIGHTS_HEADS = counting.attention_params(BASE.d_model, BASE.n_heads, bias=False)
"""W_Q, W_K, W_V, W_O of eight heads of 64 …"""
ATTENTION_WEIGHTS_ONE_HEAD = counting.attention_params(BASE.d_model, 1, bias=False)
"""… and of one head of 512: the same count."""

HEAD_COST_LENGTHS = (16, 128, 512)
"""Sequence lengths n of the one-head-against-h-heads cost table."""


@cache
def head_cost() -> dict[tuple[int, int], AttentionRun]:
    """(n, heads) → the multiply-adds counted from the shapes of a dry run (nothing multiplied, every shape checked)."""
    return {
        (n, h): attention.run_attention(n, n, BASE.d_model, h, SEED, execute=False)
        for n in HEAD_COST_LENGTHS
        for h in (1, BASE.n_heads)
    }


def projections_dominate(n: int) -> bool:
    """At length ``n`` with the base model's h heads, the projections cost more multiply-adds than QKᵀ and AV."""
    run = head_cost()[(n, BASE.n_heads)]
    return run.projection_macs > run.mixing_macs


LABELS = {
    "CONCAT_WIDTH": "ヘッドを連結した幅 h·d_v",
    "ATTENTION_WEIGHTS_HEADS": "h ヘッドの Attention の重み (4d²)",
    "ATTENTION_WEIGHTS_ONE_HEAD": "1 ヘッドの Attention の重み",
    "HEAD_COST_LENGTHS": "計算量の表の系列長 n",
    "head_cost()": "1 ヘッドと h ヘッドの積和の回数",
    "head_cost()[]": "(n, ヘッド数) = {0} の Attention",
    "head_cost()[].total_macs": "(n, ヘッド数) = {0} の積和の合計",
    "head_cost()[].projection_macs": "(n, ヘッド数) = {0} の射影の積和",
    "head_cost()[].mixing_macs": "(n, ヘッド数) = {0} の QKᵀ と AV の積和",
    "head_cost()[].softmax_entries": "(n, ヘッド数) = {0} で softmax に入る要素の数",
    "projections_dominate()": "n = {0} で射影の積和が QKᵀ と AV の積和より多いか",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
