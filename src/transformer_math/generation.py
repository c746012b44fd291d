"""Generation with the decoder: the next word's distribution, temperature, top-k, top-p, seeded draws, the KV cache.

One step of generation reads the last row of the logits z (vocab,) and turns it into a choice:

1. temperature τ > 0: p = softmax(z / τ)  (τ < 1 sharpens, τ > 1 flattens; the order of the words never changes);
2. top-k: keep the k most probable words (ties go to the smaller id), set the others to 0, renormalise;
3. top-p (nucleus): keep the most probable words, in order, until their total reaches p, renormalise;
4. draw: a uniform number u in [0, 1) from the seed picks the first word (in id order) whose cumulative
   probability exceeds u.

Greedy decoding is top-k with k = 1: only the most probable word is left, whatever u is.

The uniform numbers come from mulberry32, a 32-bit generator small enough to write identically in any language
(the browser's kernel draws the same u for the same seed). With ``cache=True`` each step runs only the new token
through the blocks and attends to the keys and values kept from the earlier steps (the KV cache); with
``cache=False`` it runs the model again on the whole sequence. Both give the same words and the same
distributions; the cache saves the multiplications that :func:`step_multiplies` counts.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from . import decoder_model as dec
from . import ops

UINT32 = 0xFFFFFFFF


# ---------------------------------------------------------------------------------------------------------
# Seeded uniform numbers
# ---------------------------------------------------------------------------------------------------------


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= UINT32:
        raise ValueError(f"seed must be an integer 0 … {UINT32}, got {seed!r}")
    return int(seed)


def uniforms(seed: int) -> Iterator[float]:
    """u_1, u_2, … in [0, 1) from ``seed`` (mulberry32: 32-bit integer steps, u = 32-bit output / 2³²)."""
    state = check_seed(seed)
    while True:
        state = (state + 0x6D2B79F5) & UINT32
        t = ((state ^ (state >> 15)) * (state | 1)) & UINT32
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & UINT32)) & UINT32) ^ t
        yield ((t ^ (t >> 14)) & UINT32) / 2**32


# ---------------------------------------------------------------------------------------------------------
# One step: from logits to a word
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """How a word is chosen: temperature τ > 0, top_k ≥ 1 (None: keep all), top_p in (0, 1] (1: keep all)."""

    temperature: float = 1.0
    top_k: int | None = None
    top_p: float = 1.0

    def __post_init__(self) -> None:
        t = self.temperature
        is_number = isinstance(t, (int, float, np.integer, np.floating)) and not isinstance(t, bool)
        if not is_number or not (t > 0 and np.isfinite(t)):
            raise ValueError(f"temperature must be a finite number > 0, got {t!r}")
        k = self.top_k
        if k is not None and (isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1):
            raise ValueError(f"top_k must be an integer ≥ 1 (or None to keep every word), got {k!r}")
        p = self.top_p
        if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) or not 0 < p <= 1:
            raise ValueError(f"top_p must be a number in (0, 1], got {p!r}")


GREEDY = Settings(top_k=1)


@dataclass(frozen=True)
class Choice:
    """The distributions of one step and the word chosen. Every array is (vocab,)."""

    logits: np.ndarray  # z, the last row of the logits
    probs: np.ndarray  # softmax(z): the model's own next-word distribution
    tempered: np.ndarray  # softmax(z / τ)
    after_top_k: np.ndarray  # top-k applied to ``tempered``, renormalised
    final: np.ndarray  # top-p applied to ``after_top_k``, renormalised: what the draw uses
    u: float  # the uniform number of this step
    word: int  # the id chosen

    @property
    def kept(self) -> np.ndarray:
        """(vocab,) bool: the words left after top-k and top-p."""
        return self.final > 0


def order_by_probability(p: np.ndarray) -> np.ndarray:
    """Ids from the most to the least probable; equal probabilities in id order."""
    return np.lexsort((np.arange(len(p)), -p))


def top_k_filter(p: np.ndarray, k: int | None) -> np.ndarray:
    """Keep the k most probable words of ``p`` and renormalise (None or k ≥ vocab: ``p`` unchanged)."""
    if k is None or k >= len(p):
        return p.copy()
    keep = np.zeros(len(p), dtype=bool)
    keep[order_by_probability(p)[:k]] = True
    kept = np.where(keep, p, 0.0)
    return kept / kept.sum()


def top_p_filter(p: np.ndarray, top_p: float) -> np.ndarray:
    """Keep the most probable words until their total reaches ``top_p`` (at least one word), renormalise."""
    if top_p >= 1.0:
        return p.copy()
    order = order_by_probability(p)
    before = np.concatenate(([0.0], np.cumsum(p[order])[:-1]))  # the total of the words ahead of each
    keep = np.zeros(len(p), dtype=bool)
    keep[order[before < top_p]] = True  # a word is kept while the words ahead of it fall short of top_p
    kept = np.where(keep, p, 0.0)
    return kept / kept.sum()


def draw(p: np.ndarray, u: float) -> int:
    """The first id whose cumulative probability exceeds u (u in [0, 1)); rounding never picks a word of p = 0."""
    cumulative = np.cumsum(p)
    candidates = np.flatnonzero((cumulative > u) & (p > 0))
    return int(candidates[0]) if candidates.size else int(np.flatnonzero(p > 0)[-1])


# --8<-- [start:choose]
def choose(logits: np.ndarray, settings: Settings, u: float) -> Choice:
    """Temperature, then top-k, then top-p, then the draw with ``u``."""
    z = np.asarray(logits, dtype=np.float64)
    tempered = ops.softmax(z / settings.temperature)
    after_top_k = top_k_filter(tempered, settings.top_k)
    final = top_p_filter(after_top_k, settings.top_p)
    return Choice(
        logits=z, probs=ops.softmax(z), tempered=tempered, after_top_k=after_top_k, final=final, u=float(u),
        word=draw(final, u),
    )  # fmt: skip
    # --8<-- [end:choose]


# ---------------------------------------------------------------------------------------------------------
# The KV cache: one new token at a time
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CachedStep:
    """What one token did in each block when the earlier keys and values came from the cache."""

    position: int
    attn: tuple[np.ndarray, ...]  # per block (h, position + 1): the new token's attention row
    out: np.ndarray  # (d_model,) the last block's ln2_out for the new token
    logits: np.ndarray  # (vocab,)


class KVCache:
    """The keys and values of every block for the tokens seen so far: K[b], V[b] each (h, t, d_k).

    ``append(token)`` runs one new token through the blocks: its query meets the cached keys plus its own, its
    value joins the cached values. The earlier rows never need recomputing, because the causal mask keeps
    every earlier position from seeing the new one.
    """

    def __init__(self, model: dec.Decoder) -> None:
        self.model = model
        h, d_k = model.n_heads, model.d_k
        self.K = [np.zeros((h, 0, d_k)) for _ in model.blocks]
        self.V = [np.zeros((h, 0, d_k)) for _ in model.blocks]

    @property
    def length(self) -> int:
        return self.K[0].shape[1]

    # --8<-- [start:append]
    def append(self, token: int) -> CachedStep:
        m, t = self.model, self.length
        if t >= m.n_positions:
            raise ValueError(f"the cache is full: the model has {m.n_positions} positions")
        h = m.n_heads
        x = m.W_E[token] + m.W_P[t]  # (d_model,)
        rows = []
        for b, block in enumerate(m.blocks):
            q = (x @ block.W_Q).reshape(h, 1, -1)  # (h, 1, d_k): only the new token's query
            self.K[b] = np.concatenate([self.K[b], (x @ block.W_K).reshape(h, 1, -1)], axis=1)  # (h, t + 1, d_k)
            self.V[b] = np.concatenate([self.V[b], (x @ block.W_V).reshape(h, 1, -1)], axis=1)
            per_head, _, attn = ops.scaled_dot_product_attention(q, self.K[b], self.V[b])  # no mask: no future here
            Y = per_head.reshape(-1) @ block.W_O  # (d_model,)
            ln1_out = ops.layer_norm(x + Y, block.ln1_gamma, block.ln1_beta, m.eps)
            ffn_out = ops.ffn(ln1_out, block.W1, block.b1, block.W2, block.b2)[2]
            x = ops.layer_norm(ln1_out + ffn_out, block.ln2_gamma, block.ln2_beta, m.eps)
            rows.append(attn[:, 0, :])  # (h, t + 1)
        return CachedStep(position=t, attn=tuple(rows), out=x, logits=m.W_E @ x)
        # --8<-- [end:append]


# ---------------------------------------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One generated word: the sequence it was chosen after, the distributions, the attention rows of the step."""

    context: np.ndarray  # (t,) the ids the model read
    choice: Choice
    attn: tuple[np.ndarray, ...]  # per block (h, t): the last position's attention row

    @property
    def word(self) -> int:
        return self.choice.word


@dataclass(frozen=True)
class Generation:
    prompt: np.ndarray  # (n,) ids
    tokens: np.ndarray  # (n + steps,) the prompt and every generated id
    steps: tuple[Step, ...]
    stopped: str  # "eos", "steps" or "positions"

    @property
    def generated(self) -> np.ndarray:
        return self.tokens[len(self.prompt) :]


def check_prompt(model: dec.Decoder, prompt: str | Sequence[str] | Sequence[int] | np.ndarray) -> np.ndarray:
    """The prompt's ids: not empty, known words, no longer than the model's positions (ValueError naming it)."""
    if isinstance(prompt, np.ndarray) and prompt.ndim != 1:
        raise ValueError(f"prompt must be one sequence of words or ids, got an array of shape {prompt.shape}")
    try:
        ids = model.ids(prompt)
    except ValueError as error:
        raise ValueError(f"prompt: {error}") from None
    if ids.size == 0:
        raise ValueError("prompt must hold at least one word (e.g. <bos>)")
    if ids.size > model.n_positions:
        raise ValueError(f"prompt holds {ids.size} words, more than the model's {model.n_positions} positions")
    return ids


def check_steps(steps: object) -> int | None:
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1):
        raise ValueError(f"steps must be an integer ≥ 1 (or None: until <eos> or the last position), got {steps!r}")
    return None if steps is None else int(steps)


def prompt_ids(model: dec.Decoder, text: str | Sequence[str]) -> np.ndarray:
    """<bos> followed by the words of ``text``: the prompt a reader means by "これ は 美しい". A text without a word
    is refused (a reader who typed nothing has asked for nothing; <bos> alone is the prompt ``[model.bos]``)."""
    words = text.split() if isinstance(text, str) else list(text)
    if not words:
        raise ValueError("prompt must hold at least one word (to start from <bos> alone, pass [<bos>])")
    return check_prompt(model, [dec.BOS, *words])


def generate(
    model: dec.Decoder,
    prompt: str | Sequence[str] | Sequence[int] | np.ndarray,
    *,
    steps: int | None = None,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float = 1.0,
    seed: int = 0,
    cache: bool = True,
) -> Generation:
    """Continue ``prompt`` (words or ids, fed as given: start it with <bos>) one word at a time.

    Stops after <eos>, after ``steps`` words, or when the sequence fills the model's positions. top_k = 1 is
    greedy decoding. Bad input is a ValueError naming the argument.
    """
    settings = Settings(temperature=temperature, top_k=top_k, top_p=top_p)
    ids = check_prompt(model, prompt)
    limit = check_steps(steps)
    draws = uniforms(seed)
    if not isinstance(cache, (bool, np.bool_)):
        raise ValueError(f"cache must be True or False, got {cache!r}")
    kv = KVCache(model) if cache else None
    if kv is not None:
        for token in ids[:-1]:
            kv.append(int(token))
    tokens = list(ids)
    made: list[Step] = []
    stopped = "positions"
    while len(tokens) <= model.n_positions:
        if kv is not None:
            step = kv.append(tokens[-1])
            logits, attn = step.logits, step.attn
        else:
            trace = dec.forward(model, np.array(tokens))
            logits, attn = trace.logits[-1], tuple(b.attn[:, -1, :] for b in trace.blocks)
        choice = choose(logits, settings, next(draws))
        made.append(Step(context=np.array(tokens), choice=choice, attn=attn))
        tokens.append(choice.word)
        if choice.word == model.eos:
            stopped = "eos"
            break
        if limit is not None and len(made) >= limit:
            stopped = "steps"
            break
        if len(tokens) >= model.n_positions:  # the next step would need one position more than W_P has
            break
    return Generation(prompt=ids, tokens=np.array(tokens), steps=tuple(made), stopped=stopped)


def greedy(model: dec.Decoder, prompt, *, steps: int | None = None, cache: bool = True) -> Generation:
    """Greedy decoding: at every step the most probable word (top-k with k = 1)."""
    return generate(model, prompt, steps=steps, top_k=1, cache=cache)


# ---------------------------------------------------------------------------------------------------------
# What the cache saves
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sizes:
    """What the multiplications of generation depend on. A ``Decoder`` has the same attributes."""

    d_model: int
    n_heads: int
    d_k: int
    d_ff: int
    n_blocks: int
    vocab_size: int

    @classmethod
    def of(cls, model: object) -> Sizes:
        """The sizes of a ``Decoder``, or of a GPT configuration (``configs.GPTConfig``: n_layers, d_model, …)."""
        if isinstance(model, dec.Decoder):
            return cls(model.d_model, model.n_heads, model.d_k, model.d_ff, model.n_blocks, model.vocab_size)
        names = ("d_model", "n_heads", "d_ff", "n_layers", "vocab_size")
        if not all(hasattr(model, n) for n in names):
            raise ValueError(f"sizes of {type(model).__name__}: need a Decoder or a config with {', '.join(names)}")
        h = model.n_heads
        return cls(model.d_model, h, model.d_model // h, model.d_ff, model.n_layers, model.vocab_size)


def block_multiplies(sizes: Sizes | dec.Decoder, n_queries: int, n_keys: int) -> int:
    """Multiply-adds of one block for ``n_queries`` new rows attending to ``n_keys`` keys.

    Projections: 3·n_q·d·hd for Q, K, V (the cache computes K, V only for the new rows too), the scores and the
    weighted sum h·n_q·n_k·d_k each, W_O n_q·hd·d, the FFN 2·n_q·d·d_ff.
    """
    s = sizes if isinstance(sizes, Sizes) else Sizes.of(sizes)
    d, hd = s.d_model, s.n_heads * s.d_k
    return (
        3 * n_queries * d * hd
        + 2 * s.n_heads * n_queries * n_keys * s.d_k
        + n_queries * hd * d
        + 2 * n_queries * d * s.d_ff
    )


def step_multiplies(sizes: Sizes | dec.Decoder, length: int, cache: bool) -> int:
    """Multiply-adds to produce the next word's logits after ``length`` tokens, as the code here runs them.

    Without the cache the forward pass reruns every block on all ``length`` rows (the whole length × length
    square of scores, the masked half included) and the tied output on every row; with the cache one row
    attends to ``length`` keys and only its logits are computed.
    """
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)) or length < 1:
        raise ValueError(f"length must be an integer ≥ 1, got {length!r}")
    s = sizes if isinstance(sizes, Sizes) else Sizes.of(sizes)
    rows = 1 if cache else length
    return s.n_blocks * block_multiplies(s, rows, length) + rows * s.d_model * s.vocab_size


def generation_multiplies(sizes: Sizes | dec.Decoder, prompt_length: int, new_words: int, cache: bool) -> int:
    """Multiply-adds of generating ``new_words`` after a prompt of ``prompt_length`` tokens.

    With the cache every token but the last generated one goes through the blocks once (the prompt's tokens
    fill the cache first); without it, step s reruns the whole sequence of prompt_length + s tokens.
    """
    first = 1 if cache else prompt_length
    return sum(step_multiplies(sizes, t, cache) for t in range(first, prompt_length + new_words))


def cache_floats(sizes: Sizes | dec.Decoder, length: int) -> int:
    """Numbers the KV cache holds after ``length`` tokens: K and V, h·d_k each per token and block."""
    s = sizes if isinstance(sizes, Sizes) else Sizes.of(sizes)
    return 2 * s.n_blocks * length * s.n_heads * s.d_k
