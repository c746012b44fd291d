"""docs/decoder/03-decoding.md: greedy decoding, temperature, top-k, top-p and seeded draws on the decoder preset,
and a prompt on which greedy decoding repeats one word."""

from __future__ import annotations

from functools import cache

import numpy as np

from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import generation as gen
from transformer_math import ops

GREEDY_PROMPT = ("<bos>", "私", "は")
"""The greedy example: three nouns follow 私 は in the eight sentences, almost equally likely."""
START = ("<bos>",)
"""The prompt of the temperature, truncation and sampling examples: the first word is open."""
TEMPERATURES = (0.5, 1.0, 2.0)
TOP_K = (1, 2, 3)
TOP_P = (0.5, 0.7, 0.9)
SAMPLE_SEEDS = tuple(range(6))
TAIL_SEED = 0
"""The seed whose draw lands on a word of tiny probability (see the page)."""
NUCLEUS = 0.9
"""The top-p of the tail example."""
LOOP_PROMPT = ("<bos>", "私", "私", "を")
"""A prompt unlike the eight sentences, on which greedy decoding repeats 猫."""


def model() -> dec.Decoder:
    return dp.decoder_preset()


def word(name: str) -> int:
    return model().id_of(name)


@cache
def greedy_run() -> gen.Generation:
    return gen.greedy(model(), GREEDY_PROMPT)


def greedy_text() -> str:
    return model().text(greedy_run().generated)


def greedy_prob(step: int, name: str) -> float:
    """The probability of ``name`` at greedy step ``step`` (0: right after the prompt)."""
    return float(greedy_run().steps[step].choice.probs[word(name)])


def greedy_ignores_seeds() -> bool:
    """top-k = 1 gives the same words for every seed (10 seeds tried)."""
    runs = {tuple(gen.generate(model(), GREEDY_PROMPT, top_k=1, seed=s).tokens) for s in range(10)}
    return len(runs) == 1


@cache
def start_logits() -> np.ndarray:
    logits = dec.forward(model(), model().ids(START)).logits[-1].copy()
    logits.setflags(write=False)
    return logits


def start_prob(name: str, temperature: float = 1.0) -> float:
    """softmax(z / τ) after <bos> at ``name``."""
    return float(ops.softmax(start_logits() / temperature)[word(name)])


def temperature_keeps_order() -> bool:
    """The words' order by probability after <bos> is the same at every τ of the page."""
    orders = {tuple(gen.order_by_probability(ops.softmax(start_logits() / t))) for t in TEMPERATURES}
    return len(orders) == 1


def entropy(temperature: float) -> float:
    """The entropy (nats) of softmax(z / τ) after <bos>: how spread the distribution is."""
    p = ops.softmax(start_logits() / temperature)
    return float(-(p * np.log(p)).sum())


def top_k_prob(k: int, name: str) -> float:
    return float(gen.top_k_filter(ops.softmax(start_logits()), k)[word(name)])


def top_p_kept(p: float, prompt: tuple[str, ...] = START) -> int:
    """How many words top-p keeps after ``prompt``."""
    logits = dec.forward(model(), model().ids(prompt)).logits[-1]
    return int(np.count_nonzero(gen.top_p_filter(ops.softmax(logits), p)))


def top_p_total_before(p: float) -> float:
    """The total of the words top-p keeps after <bos>, before renormalising."""
    probs = ops.softmax(start_logits())
    return float(probs[gen.top_p_filter(probs, p) > 0].sum())


@cache
def sample(seed: int, top_p: float = 1.0) -> gen.Generation:
    return gen.generate(model(), START, seed=seed, top_p=top_p)


def sample_text(seed: int, top_p: float = 1.0) -> str:
    return model().text(sample(seed, top_p).generated)


def is_a_sentence(seed: int, top_p: float = 1.0) -> bool:
    """Whether the sample is one of the eight sentences (with <eos>)."""
    tokens = list(sample(seed, top_p).tokens)
    return any(tokens == list(dp.sentence_ids(n)) for n in range(1, 9))


def tail_draw() -> tuple[float, float, str]:
    """(u, the chosen word's probability, the word) at the step of the tail example where the word is least likely."""
    steps = sample(TAIL_SEED).steps
    step = min(steps, key=lambda s: s.choice.final[s.word])
    return step.choice.u, float(step.choice.final[step.word]), model().vocab[step.word]


def tail_u() -> float:
    return tail_draw()[0]


def tail_prob() -> float:
    return tail_draw()[1]


def tail_removed() -> bool:
    """With top-p = NUCLEUS the same seed's draw no longer reaches that word."""
    _, _, name = tail_draw()
    return name not in model().words(sample(TAIL_SEED, NUCLEUS).generated)


@cache
def loop_run() -> gen.Generation:
    return gen.greedy(model(), LOOP_PROMPT)


def loop_text() -> str:
    return model().text(loop_run().generated)


def loop_repeats() -> int:
    """How many times 猫 is generated in a row at the end of the loop example."""
    generated = model().words(loop_run().generated)
    n = 0
    for w in reversed(generated):
        if w != "猫":
            break
        n += 1
    return n


def loop_prob(step: int) -> float:
    """p(猫) at step ``step`` of the loop example."""
    return float(loop_run().steps[step].choice.probs[word("猫")])


@cache
def loop_states() -> np.ndarray:
    """(steps, d_model): the last position's ln2_out (block 2) at each step of the loop example."""
    states = np.array([dec.forward(model(), s.context).out[-1] for s in loop_run().steps])
    states.setflags(write=False)
    return states


def loop_similarity(step: int) -> float:
    """cos(state at step, state at step − 1) of the loop example."""
    a, b = loop_states()[step], loop_states()[step - 1]
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def first_repeat_step() -> int:
    """The first step whose context ends in 猫 猫 (from there on, the loop runs)."""
    for i, s in enumerate(loop_run().steps):
        if model().words(s.context[-2:]) == ("猫", "猫"):
            return i
    raise ValueError("the loop example never reads 猫 猫")


def loop_min_similarity() -> float:
    """The smallest cos between successive states once the context ends in 猫 猫."""
    return min(loop_similarity(i) for i in range(first_repeat_step(), len(loop_run().steps)))


def loop_stay_probability() -> float:
    """The chance that sampling at τ = 1 picks 猫 at every step where greedy picked it after 猫 猫 … ."""
    steps = range(first_repeat_step() - 1, len(loop_run().steps))
    return float(np.prod([loop_prob(i) for i in steps]))


def continuation(
    prompt: str, seed: int = 0, temperature: float = 1.0, top_k: int | None = None, top_p: float = 1.0
) -> str:
    """What the try-it page's generation panel shows for ``prompt`` (the words after <bos>; "" for <bos> alone)
    with these settings: the generated words."""
    ids = gen.prompt_ids(model(), prompt) if prompt else np.array([model().bos])
    run = gen.generate(model(), ids, seed=seed, temperature=temperature, top_k=top_k, top_p=top_p)
    return model().text(run.generated)


LABELS = {
    "TEMPERATURES": "温度 τ の例",
    "NUCLEUS": "裾の例の top-p",
    "TOP_P": "top-p の p の例",
    "TAIL_SEED": "裾の例の seed",
    "greedy_prob()": "「私 は」の貪欲法のステップ {0} で「{1}」の確率",
    "start_prob()": "<bos> の次が「{0}」の確率 (温度 τ = {1})",
    "temperature_keeps_order()": "どの温度でも確率の順位が同じ",
    "entropy()": "<bos> の次の分布のエントロピー (温度 τ = {0})",
    "top_k_prob()": "top-k (k = {0}) で残して正規化した「{1}」の確率",
    "top_p_kept()": "top-p (p = {0}) で残る語の数",
    "top_p_total_before()": "top-p (p = {0}) で残る語の、正規化前の確率の和",
    "greedy_ignores_seeds()": "top-k = 1 では seed によらず同じ語が出る",
    "is_a_sentence()": "seed {0} の生成が 8 文のどれかと同じ",
    "tail_u()": "裾の例で語を選んだ一様乱数 u",
    "tail_prob()": "裾の例で選ばれた語の確率",
    "tail_removed()": "top-p で裾の語が選ばれなくなる",
    "loop_text()": "繰り返しの例で生成した語",
    "loop_repeats()": "繰り返しの例で「猫」が続く回数",
    "loop_prob()": "繰り返しの例のステップ {0} で「猫」の確率",
    "loop_similarity()": "繰り返しの例のステップ {0} と前のステップの状態の cos",
    "loop_min_similarity()": "「猫 猫」のあとの、続くステップの状態の cos の最小",
    "loop_stay_probability()": "乱数で選んでも「猫」を選び続ける確率",
    "first_repeat_step()": "文脈が「猫 猫」で終わる最初のステップ",
    "continuation()": "「{0}」に続けて生成した語 (種 {1}、温度 τ = {2})",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
