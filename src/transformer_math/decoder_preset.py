"""The decoder preset: its sizes, its vocabulary, and its weights, trained from a seeded start on the eight sentences.

How the weights are made. Every weight starts as a seeded random draw (matrices N(0, 1/fan_in), W_E N(0, 0.5²),
γ = 1, β = 0, biases 0). The data are the notes' eight example sentences, each as <bos> w1 … w5 <eos>; the task
is the next word at every position (teacher forcing: one pass per sentence scores all six positions), the loss
the mean cross-entropy over the 8 × 6 = 48 positions. ``STEPS`` full-batch steps of Adam (the original
Transformer's β1, β2, ε) with the Noam schedule at this d_model, warm-up ``WARMUP``. W_P is the notes'
sinusoidal encoding and is not trained. Nothing is random after the seed, so every run gives the same weights.

What the training must achieve, and the tests hold: given <bos> and the first three words of any of the eight
sentences, greedy decoding completes the sentence and then says <eos>.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from . import adam, ops, schedules
from . import decoder_backward as dbw
from . import decoder_model as dec
from .model import Encoder, Sentence, sentences_over
from .preset import ENCODER

NAME = "japanese-mini decoder"
D_MODEL = 16
N_HEADS = 2
D_FF = 32
"""The notes' block sizes (a test holds them equal to the encoder preset's)."""
N_BLOCKS = 2
N_POSITIONS = 12
"""Rows of W_P: the longest sequence the model reads (a sentence with <bos> and <eos> is 7)."""
EPS = ops.LAYER_NORM_EPS

SEED = 0
STEPS = 150
WARMUP = 10
"""Noam warm-up: the rate rises to d_model^−0.5 · WARMUP^−0.5 = 0.079 at step 10, then falls as 1/√step."""
EMBEDDING_STD = 0.5
PROMPT_WORDS = 3
"""The prompts the preset is held to: <bos> and the first three words of a sentence."""


def vocabulary(encoder: Encoder = ENCODER) -> tuple[str, ...]:
    """The encoder's words (with the encoder's ids), then <bos> and <eos>."""
    return (*encoder.vocab, dec.BOS, dec.EOS)


def sentences(encoder: Encoder = ENCODER) -> tuple[Sentence, ...]:
    """The encoder's example sentences as the decoder reads them: <bos> w1 … w5 <eos>, over ``vocabulary``."""
    return sentences_over(vocabulary(encoder), *(f"{dec.BOS} {s.text} {dec.EOS}" for s in encoder.sentences))


def sentence_ids(sentence_number: int, encoder: Encoder = ENCODER) -> np.ndarray:
    """<bos> w1 … w5 <eos> of example sentence 1 … 8, as ids of ``vocabulary`` (7,)."""
    found = sentences(encoder)
    if isinstance(sentence_number, bool) or sentence_number not in range(1, len(found) + 1):
        raise ValueError(f"sentence_number must be 1 … {len(found)}, got {sentence_number!r}")
    return found[sentence_number - 1].token_ids.astype(np.int64)


def training_batch(encoder: Encoder = ENCODER) -> np.ndarray:
    """(8, 7): the eight sentences, one per row."""
    return np.stack([s.token_ids for s in sentences(encoder)]).astype(np.int64)


def init_decoder(seed: int = SEED, encoder: Encoder = ENCODER) -> dec.Decoder:
    """The seeded random start: matrices N(0, 1/fan_in), W_E N(0, 0.5²), γ = 1, β = 0, biases 0."""
    rng = np.random.default_rng(seed)
    d, hd, d_ff = D_MODEL, D_MODEL, D_FF

    def matrix(fan_in: int, fan_out: int) -> np.ndarray:
        return rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)

    def block() -> dec.DecoderBlock:
        return dec.DecoderBlock(
            W_Q=matrix(d, hd), W_K=matrix(d, hd), W_V=matrix(d, hd), W_O=matrix(hd, d),
            ln1_gamma=np.ones(d), ln1_beta=np.zeros(d), W1=matrix(d, d_ff), b1=np.zeros(d_ff),
            W2=matrix(d_ff, d), b2=np.zeros(d), ln2_gamma=np.ones(d), ln2_beta=np.zeros(d),
        )  # fmt: skip

    vocab = vocabulary(encoder)
    examples = sentences(encoder)
    W_E = EMBEDDING_STD * rng.standard_normal((len(vocab), d))
    blocks = tuple(block() for _ in range(N_BLOCKS))
    return dec.Decoder(
        name=NAME, vocab=vocab, T=len(examples[0].words), sentences=examples, W_E=W_E,
        W_P=ops.positional_encoding(N_POSITIONS, d), blocks=blocks, n_heads=N_HEADS, eps=EPS,
    )  # fmt: skip


def random_decoder(
    seed: int, *, d_model: int = 12, h: int = 3, d_ff: int = 20, n_blocks: int = 3, words: int = 7, positions: int = 10
) -> dec.Decoder:
    """A dense decoder unlike the preset, for checks: every weight N(0, 1) (W_O, W2 scaled down), biases, γ ≠ 1,
    β ≠ 0, a random W_P; its vocabulary is w0 … w(words − 1), <bos>, <eos>."""
    rng = np.random.default_rng(seed)
    d = d_model

    def block() -> dec.DecoderBlock:
        n = rng.normal
        return dec.DecoderBlock(
            W_Q=n(size=(d, d)), W_K=n(size=(d, d)), W_V=n(size=(d, d)), W_O=n(size=(d, d)) / 2,
            ln1_gamma=n(size=d), ln1_beta=n(size=d), W1=n(size=(d, d_ff)), b1=n(size=d_ff),
            W2=n(size=(d_ff, d)) / 3, b2=n(size=d), ln2_gamma=n(size=d), ln2_beta=n(size=d),
        )  # fmt: skip

    vocab = (*(f"w{i}" for i in range(words)), dec.BOS, dec.EOS)
    blocks = tuple(block() for _ in range(n_blocks))
    return dec.Decoder(
        name=f"random decoder {seed}", vocab=vocab, T=positions, sentences=(), W_E=rng.normal(size=(len(vocab), d)),
        W_P=rng.normal(size=(positions, d)), blocks=blocks, n_heads=h,
    )  # fmt: skip


def with_arrays(model: dec.Decoder, arrays: dict[str, np.ndarray]) -> dec.Decoder:
    """``model`` with the weights named in ``arrays`` (names of ``Decoder.arrays``) replaced."""

    def block_arrays(b: int) -> dict[str, np.ndarray]:
        return {n: arrays[f"blocks[{b}].{n}"] for n in dec.BLOCK_WEIGHT_NAMES if f"blocks[{b}].{n}" in arrays}

    blocks = tuple(replace(block, **block_arrays(b)) for b, block in enumerate(model.blocks))
    return replace(model, W_E=arrays.get("W_E", model.W_E), W_P=arrays.get("W_P", model.W_P), blocks=blocks)


@dataclass(frozen=True)
class DecoderTraining:
    """One training run: the rate and the mean loss of every step, the start and the result."""

    seed: int
    steps: int
    warmup: int
    lr: np.ndarray  # (steps,)
    losses: np.ndarray  # (steps + 1,)  mean over the 48 positions, before each step and after the last
    initial: dec.Decoder
    trained: dec.Decoder

    @property
    def final_loss(self) -> float:
        return float(self.losses[-1])


def train_decoder(
    seed: int = SEED, steps: int = STEPS, warmup: int = WARMUP, encoder: Encoder = ENCODER
) -> DecoderTraining:
    """Full-batch Adam with the Noam schedule on the next word of the eight sentences, from ``init_decoder(seed)``."""
    for name, value, low in (("seed", seed, 0), ("steps", steps, 1), ("warmup", warmup, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer ≥ {low}, got {value!r}")
    batch = training_batch(encoder)
    n_positions = batch.shape[0] * (batch.shape[1] - 1)
    model = initial = init_decoder(seed, encoder)
    lr = np.asarray(schedules.noam_lr(np.arange(1, steps + 1), d_model=D_MODEL, warmup=warmup))
    m: dict[str, np.ndarray] = {}
    v: dict[str, np.ndarray] = {}
    losses = np.empty(steps + 1)
    for t in range(1, steps + 1):
        grads = dbw.backward(model, batch)
        losses[t - 1] = grads.loss.loss / n_positions
        arrays = model.arrays()
        updated = {}
        for name, g in grads.weight_gradients().items():
            g = g / n_positions  # the mean loss's gradient
            m[name], v[name] = adam.adam_moments(m.get(name, np.zeros_like(g)), v.get(name, np.zeros_like(g)), g)
            updated[name] = arrays[name] + adam.adam_change(m[name], v[name], t, float(lr[t - 1]))
        model = with_arrays(model, updated)
    losses[steps] = dec.sequence_loss(model, batch).loss / n_positions
    lr.setflags(write=False)
    losses.setflags(write=False)
    return DecoderTraining(
        seed=seed, steps=steps, warmup=warmup, lr=lr, losses=losses, initial=dec.freeze(initial),
        trained=dec.freeze(model),
    )  # fmt: skip


@cache
def training_run() -> DecoderTraining:
    """The run that makes the preset, computed once per process (read-only)."""
    return train_decoder()


def decoder_preset() -> dec.Decoder:
    """The decoder preset: the trained weights of :func:`training_run` (read-only)."""
    return training_run().trained


@cache
def decoder_trace(sentence_number: int) -> dec.DecoderTrace:
    """The preset on <bos> w1 … w5 of sentence 1 … 8 (the six inputs that predict w1 … w5, <eos>)."""
    return dec.forward(decoder_preset(), sentence_ids(sentence_number)[:-1])
