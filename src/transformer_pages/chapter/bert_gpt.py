"""docs/chapter/09-bert-gpt.md: BERT's masked LM simulated on the preset's sentences, and the models' sizes."""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np

from transformer_math import configs, counting, masking, preset
from transformer_math.configs import BERT_BASE, BERT_LARGE, GPT1, GPT2_SMALL, GPT3_175B
from transformer_math.masking import MLMResult

from ..notes import references

MLM_SEED = 2018
"""Seed for the masked-LM simulation (BERT appeared in 2018)."""
MLM_REPEATS = 250
"""The eight preset sentences repeated this many times: 8 · 5 · 250 = 10,000 tokens."""


@cache
def mlm_corpus(repeats: int = MLM_REPEATS) -> np.ndarray:
    """The preset's eight sentences, concatenated ``repeats`` times, as token ids (8·5·repeats,). Read-only."""
    one_pass = np.concatenate([s.token_ids for s in preset.SENTENCES])
    corpus = np.tile(one_pass, repeats)
    corpus.setflags(write=False)
    return corpus


@cache
def mlm_simulation(repeats: int = MLM_REPEATS, seed: int = MLM_SEED) -> MLMResult:
    """BERT's 15 % / 80-10-10 corruption on :func:`mlm_corpus`; [MASK] is one extra id after the vocabulary."""
    mask_id = preset.VOCAB_SIZE
    result = masking.mlm_mask(mlm_corpus(repeats), mask_id=mask_id, vocab_size=preset.VOCAB_SIZE + 1, rng=seed)
    for array in (result.input_ids, result.labels, result.action):
        array.setflags(write=False)
    return result


def rate(kind: str) -> float:
    """Observed share: "selected" of all tokens, "masked" / "random" / "unchanged" of the selected ones."""
    counts = mlm_simulation().counts
    if kind not in counts:
        raise ValueError(f"kind must be one of {list(counts)}, got {kind!r}")
    return counts[kind] / (len(mlm_corpus()) if kind == "selected" else counts["selected"])


def random_count_spread() -> float:
    """The binomial standard deviation of the random-replacement count: √(n · p · (1 − p))."""
    p = masking.MLM_RANDOM_RATE
    return math.sqrt(mlm_simulation().n_selected * p * (1 - p))


MASKED_SHARE_OF_ALL = masking.MLM_SELECT_RATE * masking.MLM_MASK_RATE
"""15 % × 80 %: the share of all tokens the model sees as [MASK]."""
BERT_BASE_TOTAL = counting.bert_params(BERT_BASE).total
BERT_LARGE_TOTAL = counting.bert_params(BERT_LARGE).total
BERT_LARGE_MILLIONS = round(BERT_LARGE_TOTAL / 10**6)
BERT_BASE_LAYER = counting.block_params(BERT_BASE.H, BERT_BASE.intermediate_size)
BERT_BASE_WORD_EMBEDDINGS = BERT_BASE.vocab_size * BERT_BASE.H
BERT_BASE_WORD_EMBEDDING_SHARE = BERT_BASE_WORD_EMBEDDINGS / BERT_BASE_TOTAL
GPT3_TOTAL = counting.gpt_params(GPT3_175B).total
GPT3_NAMED_TOTAL = references.reference("brown2020").figures["Table 2.1"][0] * 10**9
"""The 175B of GPT-3's name, as its paper reports it (§10's entry brown2020)."""
GPT3_SHORTFALL = 1 - GPT3_TOTAL / GPT3_NAMED_TOTAL
"""How far the count from the shapes falls short of the "175B" of the name."""
LAYER_WEIGHT_COEFFICIENT = 4 + 2 * BERT_BASE.intermediate_size // BERT_BASE.H
"""12 of 12H²: 4H² of attention plus 2·H·4H of the FFN (d_ff = 4H in BERT and in GPT-3)."""
assert GPT3_175B.d_ff == 4 * GPT3_175B.d_model and BERT_BASE.intermediate_size == 4 * BERT_BASE.H
BERT_BASE_MILLIONS_2 = round(BERT_BASE_TOTAL / 10**7) * 10
"""BERT-base's count in millions, to two significant digits (110)."""
GPT3_LAYER_ESTIMATE = LAYER_WEIGHT_COEFFICIENT * GPT3_175B.n_layers * GPT3_175B.d_model**2
"""The usual 12 · n_layers · d_model² estimate of the layers' weights."""
GPT1_TOTAL = counting.gpt_params(GPT1).total
GPT2_SMALL_TOTAL = counting.gpt_params(GPT2_SMALL).total


def embedding_share(cfg) -> float:
    """The share of a BERT or GPT model's parameters that sits in its embeddings."""
    p = counting.bert_params(cfg) if isinstance(cfg, configs.BertConfig) else counting.gpt_params(cfg)
    return p["embeddings"] / p.total


def same_vocabulary_gpt_models() -> tuple:
    """The GPT models that share GPT-2's vocabulary (GPT-2 small … XL and GPT-3), smallest first."""
    models = [cfg for cfg in configs.GPT_MODELS if cfg.vocab_size == GPT2_SMALL.vocab_size]
    return tuple(sorted(models, key=lambda cfg: counting.gpt_params(cfg).total))


def embedding_share_falls_with_size() -> bool:
    """Among the GPT models with one vocabulary, and from BERT-base to BERT-large, each larger model has a
    smaller share of its parameters in the embeddings."""
    for models in ((BERT_BASE, BERT_LARGE), same_vocabulary_gpt_models()):
        shares = [embedding_share(cfg) for cfg in models]
        if not all(later < earlier for earlier, later in itertools.pairwise(shares)):
            return False
    return True


def gpt1_share_below_gpt2_small() -> bool:
    """GPT-1 is the smaller model, yet its embeddings' share is below GPT-2 small's (fewer tokens and positions)."""
    smaller_tables = GPT1.vocab_size < GPT2_SMALL.vocab_size and GPT1.n_ctx < GPT2_SMALL.n_ctx
    smaller = GPT1_TOTAL < GPT2_SMALL_TOTAL and smaller_tables
    return smaller and embedding_share(GPT1) < embedding_share(GPT2_SMALL)


LABELS = {
    "MLM_SEED": "MLM の模擬実験の乱数の種",
    "MLM_REPEATS": "例文をつなげる回数",
    "mlm_corpus()": "MLM の模擬実験のトークン列",
    "mlm_simulation()": "MLM の模擬実験",
    "mlm_simulation().n_selected": "予測の対象に選ばれたトークンの数",
    "mlm_simulation().n_masked": "[MASK] にしたトークンの数",
    "mlm_simulation().n_random": "ランダムな語にしたトークンの数",
    "mlm_simulation().n_unchanged": "そのままにしたトークンの数",
    "rate()": "MLM の模擬実験の「{0}」の割合",
    "random_count_spread()": "ランダムな語の数の標準偏差 (二項分布)",
    "MASKED_SHARE_OF_ALL": "全トークンのうち [MASK] になる割合",
    "BERT_BASE_TOTAL": "BERT-base のパラメータ数",
    "BERT_LARGE_TOTAL": "BERT-large のパラメータ数",
    "BERT_LARGE_MILLIONS": "BERT-large のパラメータ数 (百万単位, 3 桁)",
    "BERT_BASE_MILLIONS_2": "BERT-base のパラメータ数 (百万単位, 有効数字 2 桁)",
    "BERT_BASE_LAYER": "BERT-base の 1 層のパラメータ数",
    "BERT_BASE_WORD_EMBEDDINGS": "BERT-base の語の埋め込みのパラメータ数",
    "BERT_BASE_WORD_EMBEDDING_SHARE": "BERT-base で語の埋め込みが占める割合",
    "LAYER_WEIGHT_COEFFICIENT": "1 層の重み 12H² の係数",
    "GPT3_TOTAL": "GPT-3 の設定から数えたパラメータ数",
    "GPT3_NAMED_TOTAL": "GPT-3 の論文が報告するパラメータ数 (175B)",
    "GPT3_SHORTFALL": "GPT-3 の数えた値と 175B の差の割合",
    "GPT3_LAYER_ESTIMATE": "GPT-3 の層の重みの近似 12·層数·d_model²",
    "embedding_share()": "{0} のパラメータのうち埋め込みの割合",
    "embedding_share_falls_with_size()": "語彙が同じモデルどうしで、大きいほど埋め込みの割合が小さいか",
    "gpt1_share_below_gpt2_small()": "GPT-1 の埋め込みの割合が GPT-2 small より小さいか",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
