"""docs/chapter/08-why-self-attention.md, 確認問題: the values its questions give and the answers src computes."""

from __future__ import annotations

from transformer_math import counting

from .. import which

N, D = 256, 512
"""The cost question: one self-attention layer's n²·d for n = 256, d = 512."""


def self_attention_cost() -> int:
    return counting.self_attention_multiplies(N, D)


def log_path_layer() -> str:
    """The layer of Table 1 whose longest path is O(log_k n)."""
    return which({row.kind: row.max_path for row in counting.LAYER_COMPLEXITY}, r"O(\log_k n)")


PATH_N, PATH_K = 1000, 3


def dilated_path() -> int:
    """Layers of a dilated convolution (k = 3) before two of 1000 positions meet: ⌈log_3 1000⌉."""
    return counting.layer_complexity("convolutional").max_path_length(PATH_N, k=PATH_K)


LABELS = {
    "N": "問題の系列長 n",
    "D": "問題の次元 d",
    "self_attention_cost()": "n = 256, d = 512 の Self-Attention の掛け算の回数 n²d",
    "PATH_N": "経路の問題の位置の数 n",
    "PATH_K": "膨張畳み込みのカーネル幅 k",
    "dilated_path()": "k = 3 の膨張畳み込みで 1000 位置に届く層の数",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
