"""Training the block from a seeded random start on the eight sentences, with the gradients of ``backward``.

The task is ``backward``'s masked-word objective on a model's example sentences: each sentence × position is
one example (a word hidden, to be named from the others; 8 × 5 = 40 for the preset), every step on all of
them (full batch, so no sampling and the same numbers every run). The optimiser is Adam with the original
Transformer's β1, β2, ε and the Noam schedule (``schedules.noam_lr``) at the model's d_model, over a short
warm-up.

Then the question the preset was built around: do the relations it was hand-wired for (美しい → 花, …) emerge
by themselves? Under this objective the attention row that the loss trains is the hidden word's own: when
美しい is hidden, its position must gather what names it, and the relation emerges if that row's largest
weight falls on the intended key (花). ``relation_verdicts`` computes this for every relation of the
model's sentences, with its margin, beside the hand-crafted preset's row for the same query on the full
sentence (the preset's queries read the word, so its rows are meaningful only with the word visible), and
the same verdict for the untrained start, the baseline that says how often a relation "emerges" by chance.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from . import adam, schedules
from . import backward as bw
from .block import BlockWeights, forward
from .model import Encoder, Relation, Sentence
from .preset import ENCODER

SEED = 0
STEPS = 100
"""Full-batch steps: enough for the loss to fall below a tenth of its start, in a few seconds of CPU."""
WARMUP = 10
"""Noam warm-up steps; the peak rate is d_model^−0.5 · WARMUP^−0.5 = 0.25/√10 ≈ 0.079."""
EMBEDDING_STD = 0.5
ADAM_BETA1, ADAM_BETA2, ADAM_EPS = adam.BETA1, adam.BETA2, adam.EPS  # the original Transformer's (§5.3)


# ---------------------------------------------------------------------------------------------------------
# The data and the starting point
# ---------------------------------------------------------------------------------------------------------


def examples(model: Encoder = ENCODER) -> tuple[tuple[np.ndarray, int], ...]:
    """(tokens (T,), hidden position) for every sentence of ``model`` and every position: 8 × 5 = 40 for the preset."""
    return tuple((s.token_ids, p) for s in model.sentences for p in range(len(s.words)))


def init_weights(seed: int = SEED, model: Encoder = ENCODER) -> BlockWeights:
    """A seeded random block of ``model``'s sizes: matrices N(0, 1/fan_in), W_E N(0, 0.5²), γ = 1, β = b = 0.

    With W_E ~ N(0, 0.5²) a word's embedding is about as long as its positional encoding (for the preset
    ‖W_E[v]‖ ≈ 0.5·√16 = 2, ‖W_P[t]‖ = √8 ≈ 2.8), so neither drowns the other, and the tied logits
    ln2_out·W_Eᵀ start with a spread of about 2 (‖ln2_out[p]‖ ≈ √d_model), not a near-certain wrong guess.
    """
    rng = np.random.default_rng(seed)
    d, hd, d_ff, V = model.d_model, model.h * model.d_k, model.d_ff, model.vocab_size

    def matrix(fan_in: int, fan_out: int) -> np.ndarray:
        return rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)

    return BlockWeights(
        W_E=EMBEDDING_STD * rng.standard_normal((V, d)),
        W_Q=matrix(d, hd), W_K=matrix(d, hd), W_V=matrix(d, hd), W_O=matrix(hd, d),
        ln1_gamma=np.ones(d), ln1_beta=np.zeros(d),
        W1=matrix(d, d_ff), b1=np.zeros(d_ff), W2=matrix(d_ff, d), b2=np.zeros(d),
        ln2_gamma=np.ones(d), ln2_beta=np.zeros(d),
        n_heads=model.h, eps=model.eps,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------------------
# One step
# ---------------------------------------------------------------------------------------------------------


def mean_loss_and_gradients(
    weights: BlockWeights, batch: tuple[tuple[np.ndarray, int], ...]
) -> tuple[float, dict[str, np.ndarray]]:
    """(mean loss, {weight name: mean gradient}) over the examples of ``batch``."""
    if len(batch) == 0:
        raise ValueError("batch must hold at least one (tokens, position) example")
    total = {name: np.zeros_like(getattr(weights, name)) for name in bw.WEIGHT_NAMES}
    loss = 0.0
    for tokens, position in batch:
        grads = bw.backward(weights, tokens, position)
        loss += grads.loss.loss
        for name in bw.WEIGHT_NAMES:
            total[name] += grads.weight_gradient(name)
    n = len(batch)
    return loss / n, {name: g / n for name, g in total.items()}


@dataclass(frozen=True)
class AdamState:
    """Adam's running moments, one array per weight, and the number of steps taken."""

    m: dict[str, np.ndarray]  # first moment (mean of g)
    v: dict[str, np.ndarray]  # second moment (mean of g²)
    t: int


def adam_init(weights: BlockWeights) -> AdamState:
    zeros = {name: np.zeros_like(getattr(weights, name)) for name in bw.WEIGHT_NAMES}
    return AdamState(m=zeros, v={name: z.copy() for name, z in zeros.items()}, t=0)


def adam_step(
    weights: BlockWeights,
    grads: dict[str, np.ndarray],
    state: AdamState,
    lr: float,
    beta1: float = ADAM_BETA1,
    beta2: float = ADAM_BETA2,
    eps: float = ADAM_EPS,
) -> tuple[BlockWeights, AdamState]:
    """θ ← θ − lr · m̂/(√v̂ + ε), m̂ = m/(1 − β1^t), v̂ = v/(1 − β2^t): one bias-corrected Adam step."""
    t = state.t + 1
    moments = {n: adam.adam_moments(state.m[n], state.v[n], grads[n], beta1, beta2) for n in bw.WEIGHT_NAMES}
    m = {n: moments[n][0] for n in bw.WEIGHT_NAMES}
    v = {n: moments[n][1] for n in bw.WEIGHT_NAMES}
    updated = {n: getattr(weights, n) + adam.adam_change(m[n], v[n], t, lr, beta1, beta2, eps) for n in bw.WEIGHT_NAMES}
    return replace(weights, **updated), AdamState(m=m, v=v, t=t)


# ---------------------------------------------------------------------------------------------------------
# What was learned
# ---------------------------------------------------------------------------------------------------------


def hidden_word_attention(weights: BlockWeights, tokens: np.ndarray) -> np.ndarray:
    """(h, T, T): row i is position i's attention when word i is hidden — the row the loss trains.

    Row i comes from the pass with word i hidden; the other rows of that pass are not used.
    """
    rows = [bw.masked_word_loss(weights, tokens, i).trace.attn[:, i, :] for i in range(len(tokens))]  # (h, T) each
    return np.stack(rows, axis=1)


def full_sentence_attention(weights: BlockWeights, tokens: np.ndarray) -> np.ndarray:
    """(h, T, T): the attention with every word visible, as the preset's pictures show it."""
    return forward(weights, tokens).attn


def row_margin(row: np.ndarray, key: int) -> float:
    """row[key] − the largest other entry of the row (T,): > 0 exactly when ``key`` is the row's argmax."""
    return float(row[key] - np.delete(row, key).max())


@dataclass(frozen=True)
class RelationVerdict:
    """Does query → key win an attention row? ``margin`` = weight on the intended key − the best other weight.

    The learned side uses whichever head gives the key the larger margin: training starts both heads from the
    same kind of random draw, so which head takes up a relation is an accident (the preset's head numbers are
    a hand choice). The preset side uses the head it was built with.
    """

    sentence: int  # 1 … 8
    query: str
    key: str
    head: int  # the preset's head for this relation
    query_position: int
    key_position: int
    learned_head: int  # the learned head where the key does best
    learned_argmax: int  # the position that head's row (query hidden) attends to most
    learned_margin: float  # > 0 exactly when the relation emerged
    preset_argmax: int  # the position the preset's row (full sentence, its head) attends to most
    preset_margin: float

    @property
    def emerged(self) -> bool:
        return self.learned_argmax == self.key_position

    @property
    def preset_holds(self) -> bool:
        return self.preset_argmax == self.key_position


def relation_verdict(
    sentence: Sentence, relation: Relation, learned_attn: np.ndarray, preset_attn: np.ndarray
) -> RelationVerdict:
    """The verdict for one relation, from the learned (h, T, T) rows with the query hidden and the preset's."""
    i, j = sentence.position(relation.query), sentence.position(relation.key)
    margins = [row_margin(learned_attn[h, i], j) for h in range(learned_attn.shape[0])]
    best = int(np.argmax(margins))
    return RelationVerdict(
        sentence=sentence.number, query=relation.query, key=relation.key, head=relation.head,
        query_position=i, key_position=j, learned_head=best,
        learned_argmax=int(np.argmax(learned_attn[best, i])), learned_margin=margins[best],
        preset_argmax=int(np.argmax(preset_attn[relation.head, i])),
        preset_margin=row_margin(preset_attn[relation.head, i], j),
    )  # fmt: skip


def relation_verdicts(
    learned: BlockWeights, hand_crafted: BlockWeights | None = None, model: Encoder = ENCODER
) -> tuple[RelationVerdict, ...]:
    """One verdict per intended relation of ``model``'s sentences, in their order (16 for the preset).

    ``hand_crafted`` is the model's own weights unless given.
    """
    hand_crafted = model.weights if hand_crafted is None else hand_crafted
    verdicts = []
    for s in model.sentences:
        learned_attn = hidden_word_attention(learned, s.token_ids)
        preset_attn = full_sentence_attention(hand_crafted, s.token_ids)
        verdicts += [relation_verdict(s, r, learned_attn, preset_attn) for r in s.relations]
    return tuple(verdicts)


# ---------------------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainingRun:
    """What one run produced. ``losses[s]`` is the mean loss before step s + 1; ``losses[-1]`` the final one."""

    seed: int
    steps: int
    warmup: int
    lr: np.ndarray  # (steps,)  the Noam rate of each step
    losses: np.ndarray  # (steps + 1,)  mean over the examples (40 for the preset)
    initial: BlockWeights
    learned: BlockWeights
    learned_attention: np.ndarray  # (sentences, h, T, T)  per sentence, row i with word i hidden
    preset_attention: np.ndarray  # (sentences, h, T, T)   the model's own weights', full sentence
    verdicts: tuple[RelationVerdict, ...]  # one per intended relation, 16
    initial_verdicts: tuple[RelationVerdict, ...]  # the same for the untrained start: the chance baseline

    def __post_init__(self) -> None:
        # A cached run is read by several pages: none may change what the next one reads.
        for array in (self.lr, self.losses, self.learned_attention, self.preset_attention):
            array.setflags(write=False)
        for w in (self.initial, self.learned):
            for name in bw.WEIGHT_NAMES:
                getattr(w, name).setflags(write=False)

    @property
    def initial_loss(self) -> float:
        return float(self.losses[0])

    @property
    def final_loss(self) -> float:
        return float(self.losses[-1])

    @property
    def emerged(self) -> tuple[RelationVerdict, ...]:
        """The relations whose key won the learned row."""
        return tuple(v for v in self.verdicts if v.emerged)


def train(seed: int = SEED, steps: int = STEPS, warmup: int = WARMUP, model: Encoder = ENCODER) -> TrainingRun:
    """Train a block of ``model``'s sizes from ``init_weights(seed, model)`` on ``model``'s sentences for ``steps``
    full-batch Adam steps under the Noam schedule; the verdicts compare it with ``model``'s own weights."""
    for name, value, low in (("seed", seed, 0), ("steps", steps, 1), ("warmup", warmup, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer ≥ {low}, got {value!r}")
    batch = examples(model)
    weights = initial = init_weights(seed, model)
    state = adam_init(weights)
    lr = np.asarray(schedules.noam_lr(np.arange(1, steps + 1), d_model=model.d_model, warmup=warmup))
    losses = np.empty(steps + 1)
    for step in range(steps):
        losses[step], grads = mean_loss_and_gradients(weights, batch)
        weights, state = adam_step(weights, grads, state, float(lr[step]))
    losses[steps] = mean_loss_and_gradients(weights, batch)[0]
    hand_crafted = model.weights
    return TrainingRun(
        seed=seed, steps=steps, warmup=warmup, lr=lr, losses=losses, initial=initial, learned=weights,
        learned_attention=np.stack([hidden_word_attention(weights, s.token_ids) for s in model.sentences]),
        preset_attention=np.stack([full_sentence_attention(hand_crafted, s.token_ids) for s in model.sentences]),
        verdicts=relation_verdicts(weights, hand_crafted, model),
        initial_verdicts=relation_verdicts(initial, hand_crafted, model),
    )  # fmt: skip


@cache
def default_run() -> TrainingRun:
    """The run with the defaults, computed once per process (pages and tests cite it; it is read-only)."""
    return train()


def summary(run: TrainingRun) -> str:
    """A plain-text account of a run: the loss from start to end, and each relation's verdict beside the preset's."""
    lines = [
        f"seed {run.seed}, {run.steps} steps (warm-up {run.warmup}), "
        f"loss {run.initial_loss:.4f} → {run.final_loss:.4f}",
        f"relations emerged: {len(run.emerged)} of {len(run.verdicts)} "
        f"(before training: {sum(v.emerged for v in run.initial_verdicts)}; "
        f"the preset: {sum(v.preset_holds for v in run.verdicts)} of {len(run.verdicts)})",
    ]
    for v in run.verdicts:
        lines.append(
            f"  s{v.sentence} {v.query} → {v.key}: learned head {v.learned_head} margin {v.learned_margin:+.3f}"
            f" ({'emerged' if v.emerged else 'not'}); preset head {v.head} margin {v.preset_margin:+.3f}"
        )
    return "\n".join(lines)


if __name__ == "__main__":  # python -m transformer_math.training: the run, its CPU time and its verdicts
    import time

    start = time.process_time()
    result = train()
    print(f"CPU time of train(): {time.process_time() - start:.2f} s")
    print(summary(result))
