"""docs/scale/02-complexity.md: multiplies of one block at n = d = 512, and what one head of d/h costs."""

from __future__ import annotations

from transformer_math import counting
from transformer_math.configs import TRANSFORMER_BASE as BASE

from .parameters import NOTES_D, NOTES_D_FF, NOTES_N

NOTES_CONV_K = 5
"""The kernel width the notes pick for the 1-D convolution."""
CONVS2S_K = 3
"""ConvS2S's kernel width, which the notes mention for contrast."""

HEADS_DOT = BASE.n_heads * BASE.d_k
"""h · d_k multiplies for one q·k split over the heads: the same d."""
HEADS_PROJECTION = BASE.n_heads * NOTES_D * BASE.d_k


def qkv_projections(n_queries: int) -> int:
    """Multiplies of the Q, K and V projections when n_queries queries look at NOTES_N keys (d = 512)."""
    m = counting.attention_multiplies(n_queries, NOTES_N, NOTES_D)
    return m["q_projection"] + m["k_projection"] + m["v_projection"]


def q_projection(n_queries: int) -> int:
    """Multiplies of the Q projection alone for n_queries query vectors (d = 512): n_queries · d²."""
    return counting.attention_multiplies(n_queries, NOTES_N, NOTES_D)["q_projection"]


SELF_QKV = qkv_projections(NOTES_N)
CROSS_QKV = qkv_projections(1)
"""One new query of a decoder: its keys and values still cost n·d² each."""
BLOCK = sum(counting.attention_multiplies(NOTES_N, NOTES_N, NOTES_D).values()) + counting.ffn_multiplies(
    NOTES_N, NOTES_D, NOTES_D_FF
)
"""Every multiply of one block's forward pass over 512 tokens."""
FFN_SHARE = counting.ffn_multiplies(NOTES_N, NOTES_D, NOTES_D_FF) / BLOCK
BLOCK_PER_TOKEN = BLOCK / NOTES_N
CORE_OVERTAKES_PROJECTIONS = counting.first_n_where_core_exceeds(NOTES_D, NOTES_D_FF, "projections")
CORE_OVERTAKES_FFN = counting.first_n_where_core_exceeds(NOTES_D, NOTES_D_FF, "ffn")
CONV = counting.convolutional_multiplies(NOTES_N, NOTES_D, NOTES_CONV_K)
CONV_OVER_RNN = CONV / counting.recurrent_multiplies(NOTES_N, NOTES_D)
BLOCK_OVER_CONV = BLOCK / CONV


LABELS = {
    "NOTES_N": "比べる系列長 n",
    "NOTES_D": "比べる次元 d (= d_model)",
    "NOTES_CONV_K": "比べる畳み込みの幅 k",
    "CONVS2S_K": "比べる畳み込みの幅 k",
    "HEADS_DOT": "h ヘッドの内積の掛け算の合計",
    "HEADS_PROJECTION": "h ヘッドの行列との積の掛け算の合計",
    "q_projection()": "クエリ {0} 本の Q の射影の掛け算 (d = 512)",
    "SELF_QKV": "Self-Attention の Q, K, V の射影の掛け算",
    "CROSS_QKV": "1 語を生成するときの Cross-Attention の Q, K, V の射影の掛け算",
    "BLOCK": "n = 512 のブロック全体の掛け算",
    "FFN_SHARE": "ブロック全体の掛け算のうち FFN の割合",
    "BLOCK_PER_TOKEN": "1 トークンあたりのブロックの掛け算",
    "CORE_OVERTAKES_PROJECTIONS": "スコアと重み付き和が射影に並ぶ系列長",
    "CORE_OVERTAKES_FFN": "スコアと重み付き和が FFN に並ぶ系列長",
    "CONV": "k = 5 の畳み込み 1 層の掛け算",
    "CONV_OVER_RNN": "畳み込み ÷ 再帰層",
    "BLOCK_OVER_CONV": "ブロック全体 ÷ 畳み込み 1 層",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
