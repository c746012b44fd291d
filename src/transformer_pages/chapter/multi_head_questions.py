"""docs/chapter/03-multi-head.md, 確認問題: the values its questions give and the answers src computes for them."""

from __future__ import annotations

from transformer_math import attention, counting
from transformer_math.configs import TRANSFORMER_BASE as BASE
from transformer_math.configs import TRANSFORMER_BIG as BIG

from .. import which
from .multi_head import head_cost

SOFTMAX_N = 128
"""The softmax question: how many numbers enter the softmax for n = 128 with h = 8 heads."""


def softmax_entries() -> int:
    return head_cost()[(SOFTMAX_N, BASE.n_heads)].softmax_entries


def big_attention_weights() -> int:
    """4·d_model² of the big model (d_model 1024, 16 heads; no biases)."""
    return counting.attention_params(BIG.d_model, BIG.n_heads, bias=False)


CONCAT_N = 10
"""The shape question: self-attention over n = 10 positions."""


def concat_shape() -> str:
    """The shape of the heads joined side by side for n positions: (n, h·d_v) — W^O's input."""
    n = CONCAT_N
    run = attention.run_attention(n, n, BASE.d_model, BASE.n_heads, seed=0, execute=False)
    return which(
        {
            "n_hdv": (n, BASE.n_heads * BASE.d_v),
            "h_n_dv": (BASE.n_heads, n, BASE.d_v),
            "n_dv": (n, BASE.d_v),
            "hdv_d": (BASE.n_heads * BASE.d_v, BASE.d_model),  # W^O itself
        },
        run.shapes["concat"],
    )


LABELS = {
    "SOFTMAX_N": "softmax の問題の系列長 n",
    "softmax_entries()": "n = 128、h = 8 で softmax に入る数",
    "big_attention_weights()": "big モデルの Multi-Head Attention の重み (バイアスなし)",
    "CONCAT_N": "Concat の問題の位置の数 n",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
