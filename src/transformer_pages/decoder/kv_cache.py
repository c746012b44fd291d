"""docs/decoder/04-kv-cache.md: generation with the KV cache gives what recomputing gives, with fewer
multiplications; counted for the decoder preset and for a model of GPT-2 small's sizes."""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import configs
from transformer_math import decoder_preset as dp
from transformer_math import generation as gen

TOLERANCE = 1e-12
"""The largest difference the page allows between the two ways (the rounding of a different order of sums)."""
PROMPTS = ("<bos> これ は", "<bos> 私 私 を", "<bos>")
SETTINGS = ({"top_k": 1}, {"seed": 3}, {"seed": 5, "temperature": 1.5, "top_p": 0.9})
GPT2 = configs.GPT2_SMALL
GPT2_CONTEXT = configs.GPT2_SMALL.n_ctx


def model():
    return dp.decoder_preset()


@cache
def runs() -> tuple[tuple[gen.Generation, gen.Generation], ...]:
    """(with the cache, recomputing) for every prompt and setting of the page."""
    return tuple(
        (gen.generate(model(), p, cache=True, **s), gen.generate(model(), p, cache=False, **s))
        for p in PROMPTS
        for s in SETTINGS
    )


def same_words() -> bool:
    return all(np.array_equal(a.tokens, b.tokens) for a, b in runs())


def largest_difference() -> float:
    """max |logits with the cache − logits recomputed| over every step of every run."""
    return max(
        float(np.abs(x.choice.logits - y.choice.logits).max())
        for a, b in runs()
        for x, y in zip(a.steps, b.steps, strict=True)
    )


def n_steps() -> int:
    return sum(len(a.steps) for a, _ in runs())


def step(length: int, cache: bool, gpt2: bool = False) -> int:
    """Multiply-adds of one generation step after ``length`` tokens (the preset, or GPT-2 small's sizes)."""
    return gen.step_multiplies(gen.Sizes.of(GPT2 if gpt2 else model()), length, cache)


def ratio(length: int, gpt2: bool = False) -> float:
    return step(length, False, gpt2) / step(length, True, gpt2)


def ratio_is_the_length() -> bool:
    """Without the cache a step costs exactly ``length`` times the cached step, for every length of both models."""
    lengths = {False: range(1, model().n_positions + 1), True: range(1, GPT2_CONTEXT + 1)}
    return all(step(n, False, g) == n * step(n, True, g) for g, ns in lengths.items() for n in ns)


def sentence_cost(cache: bool) -> int:
    """Multiply-adds of generating a whole sentence (five words and <eos>) after <bos>."""
    return gen.generation_multiplies(model(), 1, len(dp.sentence_ids(1)) - 1, cache)


def sentence_saving() -> float:
    return sentence_cost(False) / sentence_cost(True)


def cache_floats(length: int, gpt2: bool = False) -> int:
    return gen.cache_floats(gen.Sizes.of(GPT2 if gpt2 else model()), length)


def logits_share(gpt2: bool = True) -> float:
    """The share of the tied output (d_model · vocab) in one cached step at the longest length."""
    sizes = gen.Sizes.of(GPT2 if gpt2 else model())
    length = GPT2_CONTEXT if gpt2 else model().n_positions
    return sizes.d_model * sizes.vocab_size / gen.step_multiplies(sizes, length, True)


LABELS = {
    "TOLERANCE": "2 つのやり方の差の許容",
    "PROMPTS": "比べたプロンプト",
    "SETTINGS": "比べた語の選び方",
    "GPT2_CONTEXT": "GPT-2 small の読める位置の数",
    "same_words()": "キャッシュありとなしで生成した語が同じ",
    "largest_difference()": "キャッシュありとなしの logits の最大の差",
    "n_steps()": "比べた生成のステップの数",
    "step()": "長さ {0} のあとの 1 ステップの積和 (キャッシュ {1})",
    "ratio()": "長さ {0} での、キャッシュなしとありの 1 ステップの積和の比",
    "ratio_is_the_length()": "どの長さでも、キャッシュなしの 1 ステップはありのちょうど長さ倍",
    "sentence_cost()": "<bos> から 1 文を生成する積和 (キャッシュ {0})",
    "sentence_saving()": "1 文を生成する積和の、キャッシュなしとありの比",
    "cache_floats()": "長さ {0} でキャッシュが持つ数の個数",
    "logits_share()": "キャッシュありの 1 ステップの積和のうち出力層の割合",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
