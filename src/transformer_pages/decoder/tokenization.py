"""docs/decoder/07-tokenization.md: BPE learned step by step on the words of the eight sentences, WordPiece's
criterion beside it, and how the vocabulary size enters the parameter count."""

from __future__ import annotations

from functools import cache

from transformer_math import bpe, configs, counting, preset
from transformer_math import decoder_preset as dp

MAX_MERGES = 100
"""More than the corpus needs: the run stops when every word is one symbol."""
UNSEEN = ("大人気", "大好き", "美しさ")
"""Words the corpus never has whole."""
GPT2 = configs.GPT2_SMALL
BERT = configs.BERT_BASE


def corpus() -> list[str]:
    """The words of the eight sentences, as they occur (40 words)."""
    return [w for s in preset.SENTENCES for w in s.words]


@cache
def run() -> bpe.BPERun:
    return bpe.learn(corpus(), MAX_MERGES)


@cache
def wordpiece_run() -> bpe.BPERun:
    """The same merging with WordPiece's criterion (the unigram log-likelihood gain) instead of the count."""
    return bpe.learn(corpus(), MAX_MERGES, criterion="likelihood")


def n_words() -> int:
    return len(corpus())


def n_distinct() -> int:
    return len(run().counts)


def merge(number: int, wordpiece: bool = False) -> str:
    """Merge ``number`` (1, 2, …) as "a + b"."""
    a, b = (wordpiece_run() if wordpiece else run()).steps[number - 1].pair
    return f"{a} + {b}"


def merge_count(number: int, wordpiece: bool = False) -> int:
    return (wordpiece_run() if wordpiece else run()).steps[number - 1].count


def merge_gain(number: int, wordpiece: bool = False) -> float:
    return (wordpiece_run() if wordpiece else run()).steps[number - 1].gain


def n_merges() -> int:
    """Merges until every word of the corpus is one symbol."""
    return len(run().steps)


def tokens_after(n_merges: int) -> int:
    return run().initial_tokens if n_merges == 0 else run().steps[n_merges - 1].n_tokens


def segment(word: str, n_merges: int | None = None) -> str:
    return " ".join(run().segment(word, n_merges))


def first_merges_differ() -> bool:
    return run().steps[0].pair != wordpiece_run().steps[0].pair


def embedding_params(vocab_size: int, d_model: int) -> int:
    return counting.linear_params(vocab_size, d_model, bias=False)


def gpt2_embedding() -> int:
    return embedding_params(GPT2.vocab_size, GPT2.d_model)


def gpt2_embedding_share() -> float:
    """The token embedding's share of GPT-2 small's parameters."""
    return embedding_params(GPT2.vocab_size, GPT2.d_model) / counting.gpt_params(GPT2).total


def gpt2_params() -> int:
    return counting.gpt_params(GPT2).total


def decoder_embedding_share() -> float:
    model = dp.decoder_preset()
    trained = model.W_E.size + sum(v.size for name, v in model.arrays().items() if name.startswith("blocks"))
    return model.W_E.size / trained


LABELS = {
    "MAX_MERGES": "併合の回数の上限",
    "UNSEEN": "コーパスに丸ごとは現れない語",
    "n_words()": "コーパスの語の数 (8 文)",
    "n_distinct()": "コーパスの異なる語の数",
    "run()": "8 文の語で学習した BPE",
    "run().alphabet": "BPE の最初の記号 (文字と語末の印)",
    "run().initial_tokens": "併合の前のコーパスの記号の数",
    "run().vocabulary_size()": "BPE の語彙の大きさ (併合 {0} 回のあと)",
    "merge()": "BPE の {0} 回目の併合",
    "merge_count()": "{0} 回目の併合の組の出現回数",
    "merge_gain()": "{0} 回目の併合の、unigram の対数尤度の増え方",
    "n_merges()": "どの語も 1 記号になるまでの併合の回数",
    "tokens_after()": "併合 {0} 回のあとのコーパスの記号の数",
    "segment()": "「{0}」の分け方",
    "first_merges_differ()": "BPE と WordPiece の基準で最初の併合が違う",
    "embedding_params()": "語彙 {0}・d_model {1} の埋め込みの重みの数",
    "gpt2_embedding()": "GPT-2 small の語の埋め込みの重みの数",
    "gpt2_embedding_share()": "GPT-2 small の重みのうち語の埋め込みの割合",
    "gpt2_params()": "GPT-2 small の重みの数",
    "decoder_embedding_share()": "デコーダのプリセットの学習した重みのうち W_E の割合",
    "GPT2.vocab_size": "GPT-2 の語彙の大きさ",
    "GPT2.d_model": "GPT-2 small の d_model",
    "BERT.vocab_size": "BERT の語彙の大きさ",
    "BERT.hidden_size": "BERT-base の隠れ層の大きさ H",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
