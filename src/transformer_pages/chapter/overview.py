"""docs/chapter/01-overview.md: the original Transformer's sizes and parameters, and why embeddings are scaled."""

from __future__ import annotations

from functools import cache

from transformer_math import counting, positional
from transformer_math.configs import TRANSFORMER_BASE as BASE
from transformer_math.positional import EmbeddingScale

from ..notes import references

CONCAT_WIDTH = BASE.n_heads * BASE.d_v
"""h · d_v: the width of the heads' concatenation, back to d_model."""
PARAMS = counting.transformer_params(BASE)
"""The base model's parameters by part, counted from the shapes."""
UNSHARED_TOTAL = PARAMS.total + 2 * BASE.vocab_size * BASE.d_model
"""The total if the two embeddings and the output layer did not share one matrix."""
PAPER_TOTAL = int(references.reference("vaswani2017").figures["Table 3"][0] * 10**6)
"""What Vaswani et al. 2017, Table 3 reports for "base": 65 × 10⁶."""
GAP_TO_PAPER = PAPER_TOTAL - PARAMS.total
FINAL_LAYER_NORMS = 2 * counting.layer_norm_params(BASE.d_model)
"""γ and β of one LayerNorm after each stack (encoder and decoder): what §3 leaves unsaid."""

EMBEDDING_VOCAB = 1000
"""Rows of the random embedding table whose mean norm the page quotes."""
EMBEDDING_SEED = 0


@cache
def embedding() -> EmbeddingScale:
    """‖row‖ of an N(0, 1/d_model) embedding before and after × √d_model, beside ‖PE(pos)‖ (d_model = 512)."""
    return positional.embedding_scale(BASE.d_model, EMBEDDING_VOCAB, EMBEDDING_SEED)


LABELS = {
    "CONCAT_WIDTH": "ヘッドを連結した幅 h·d_v",
    "PARAMS": "原論文の base モデルのパラメータ数の内訳",
    "PARAMS.total": "原論文の base モデルのパラメータ数",
    "UNSHARED_TOTAL": "埋め込みを共有しない場合のパラメータ数",
    "GAP_TO_PAPER": "論文の約 65M と数えた値の差",
    "FINAL_LAYER_NORMS": "最後の LayerNorm 2 つのパラメータ数",
    "EMBEDDING_VOCAB": "大きさの比較に使う乱数の表の語数",
    "embedding()": "埋め込みの大きさの比較",
    "embedding().embedding_norm": "1 語の埋め込みの長さの平均",
    "embedding().pe_norm": "位置エンコーディングの長さ",
    "embedding().scaled_norm": "√d_model 倍した埋め込みの長さの平均",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
