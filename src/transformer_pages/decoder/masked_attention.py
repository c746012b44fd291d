"""docs/decoder/01-masked-attention.md: the decoder preset, and the causal mask on its real scores.

The page's example is sentence 1 as the decoder reads it, <bos> これ は 美しい 花 です, in block 1 (index 0),
head a = 1.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import ops, preset, rounding

SENTENCE = 1
BLOCK = 0
"""Block 1 of the two (its index is 0)."""
HEAD = 1

VOCAB_SIZE = len(dp.vocabulary())
N_WORDS = preset.VOCAB_SIZE
"""The notes' words; the decoder adds <bos> and <eos>."""
D_MODEL = dp.D_MODEL
N_HEADS = dp.N_HEADS
D_K = dp.D_MODEL // dp.N_HEADS
D_FF = dp.D_FF
N_BLOCKS = dp.N_BLOCKS
N_POSITIONS = dp.N_POSITIONS
SENTENCE_LENGTH = len(dp.sentence_ids(1))
"""<bos>, five words, <eos>."""
INPUT_LENGTH = SENTENCE_LENGTH - 1
"""What the decoder reads of a sentence to predict each next word: all but <eos>."""


def model() -> dec.Decoder:
    return dp.decoder_preset()


def trace(sentence: int = SENTENCE) -> dec.DecoderTrace:
    return dp.decoder_trace(sentence)


def words(sentence: int = SENTENCE) -> tuple[str, ...]:
    """The words the decoder reads: <bos> and the sentence's five words."""
    return model().words(trace(sentence).tokens)


def weight(i: int, j: int, block: int = BLOCK, head: int = HEAD, sentence: int = SENTENCE) -> float:
    """attn[head, i, j] of ``block``: how much position i takes from position j."""
    return float(trace(sentence).blocks[block].attn[head, i, j])


def score(i: int, j: int, block: int = BLOCK, head: int = HEAD, sentence: int = SENTENCE) -> float:
    """scores[head, i, j] of ``block`` before the mask."""
    return float(trace(sentence).blocks[block].scores[head, i, j])


def _every_attention():
    for s in preset.SENTENCES:
        for block in trace(s.number).blocks:
            yield block.attn


def future_is_zero() -> bool:
    """In all 8 sentences, both blocks and both heads, every weight above the diagonal is exactly 0."""
    return all(np.all(np.triu(a, k=1) == 0.0) for a in _every_attention())


def rows_sum_to_one() -> bool:
    return all(np.allclose(a.sum(axis=-1), 1.0, rtol=0, atol=1e-12) for a in _every_attention())


def first_row_is_itself() -> bool:
    """Position 0 (<bos>) can see only itself: its weight on itself is 1 in every head and block."""
    return all(np.all(a[:, 0, 0] == 1.0) for a in _every_attention())


def unmasked_future_weight(head: int = HEAD, block: int = BLOCK) -> float:
    """Row 0 of the example without the mask: the weight softmax(scores) would put on positions 1 … T − 1."""
    return float(ops.softmax(trace().blocks[block].scores[head, 0])[1:].sum())


def n_masked(T: int = INPUT_LENGTH) -> int:
    """How many entries of the T × T mask are −∞: those with j > i."""
    return int(np.isneginf(ops.causal_mask(T)).sum())


@cache
def prefix_change() -> float:
    """The largest change, over every intermediate of both blocks and the logits, of positions 0 … T − 2 when
    the decoder reads the sentence's first T − 1 tokens instead of all T."""
    full = trace()
    short = dec.forward(model(), full.tokens[:-1])
    changes = [np.abs(short.logits - full.logits[:-1]).max()]
    for a, b in zip(short.blocks, full.blocks, strict=True):
        changes += [np.abs(a.ln1_out - b.ln1_out[:-1]).max(), np.abs(a.ln2_out - b.ln2_out[:-1]).max()]
        changes += [np.abs(a.K - b.K[:-1]).max(), np.abs(a.V - b.V[:-1]).max()]
    return float(max(changes))


def prefix_change_within(bound: int) -> int:
    """That change in machine epsilons, quoted as the bound it stays under."""
    return rounding.eps_multiple_within(prefix_change(), bound)


def value_projection_distance() -> float:
    """The smallest max|W − I| over the W_V and W_O of both blocks: how far each is from an identity."""
    m = model()
    return min(float(np.abs(W - np.eye(m.d_model)).max()) for b in m.blocks for W in (b.W_V, b.W_O))


LABELS = {
    "SENTENCE": "例の文の番号",
    "BLOCK": "例のブロックの添字",
    "HEAD": "例のヘッド a",
    "VOCAB_SIZE": "デコーダの語彙の大きさ",
    "N_WORDS": "ノートの語彙の語の数",
    "D_MODEL": "デコーダの d_model",
    "N_HEADS": "デコーダのヘッドの数 h",
    "D_K": "デコーダの 1 ヘッドの幅 d_k",
    "D_FF": "デコーダの FFN の中間層の幅 d_ff",
    "N_BLOCKS": "デコーダのブロックの数",
    "N_POSITIONS": "デコーダが読める位置の数",
    "SENTENCE_LENGTH": "<bos> と <eos> を含めた 1 文の長さ",
    "INPUT_LENGTH": "1 文でデコーダが読むトークンの数",
    "weight()": "ブロック 1・ヘッド 1 の attn[位置 {0} → 位置 {1}]",
    "score()": "ブロック 1・ヘッド 1 の scores[位置 {0} → 位置 {1}]",
    "future_is_zero()": "8 文・両ブロック・両ヘッドで、対角より上の重みがすべて 0",
    "rows_sum_to_one()": "8 文・両ブロック・両ヘッドで、attn の各行の和が 1",
    "first_row_is_itself()": "位置 0 の重みが自分自身に 1",
    "unmasked_future_weight()": "マスクを外したときに位置 0 が後ろの語に置く重み (ヘッド {0})",
    "n_masked()": "T × T のマスクで −∞ の要素の数",
    "prefix_change()": "最後の語を除いて読んだときの、前の位置の値の変化",
    "prefix_change_within()": "その変化の機械イプシロンの倍数での上限 (上限 {0} 倍)",
    "value_projection_distance()": "W_V と W_O の単位行列からの最大のずれ (4 つのうち最小)",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
