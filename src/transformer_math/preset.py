"""The hand-crafted "japanese-mini" preset, built from its rules: the encoder model value ``ENCODER``.

Nothing here is a pasted weight table: W_E comes from each word's category, features and identity trace;
W_Q/W_K from the three bonds; W1/b1/W2 from the detector neurons. The constants below are the preset's rules
(the facts pages cite as ``preset.D_K``, ``preset.CATEGORY_VALUE``, …); :data:`ENCODER` is the model they
build, with its cached traces. The math layer computes on a model it is given, this one by default;
:func:`preset_weights` and :func:`preset_trace` are its weights and traces under the names pages use.
Its vocabulary, sentences and dimension names are the model's data, a catalogue of Japanese words as a whole: a
model in another language is another preset.

>>> round(float(preset_trace(1).scores[0, 2, 3]), 3)
3.526
"""

from __future__ import annotations

import numpy as np

from .block import BlockTrace, BlockWeights
from .model import FIRING_THRESHOLD, Bond, Encoder, Knob, Relation, Sentence

T = 5
D_MODEL = 16
N_HEADS = 2
D_K = D_MODEL // N_HEADS
D_FF = 32
EPS = 1e-5

VOCAB: tuple[str, ...] = (
    "これ", "それ", "私", "猫", "花", "本", "小説", "大きい",
    "美しい", "人気", "読む", "好き", "は", "が", "を", "です",
)  # fmt: skip
VOCAB_SIZE = len(VOCAB)
WORD_ID: dict[str, int] = {w: i for i, w in enumerate(VOCAB)}

# d0–d7 categories, d8–d11 semantic features, d12–d15 identity trace.
DIM_NAMES: tuple[str, ...] = (
    "名詞", "形容詞", "指示・代名詞", "述語", "は", "が", "を", "です",
    "美しさ", "大きさ", "書物", "人気度",
    "識別0", "識別1", "識別2", "識別3",
)  # fmt: skip
DIM_CATEGORY = {"noun": 0, "adjective": 1, "pronoun": 2, "predicate": 3, "wa": 4, "ga": 5, "wo": 6, "desu": 7}
DIM_FEATURE = {"beauty": 8, "size": 9, "book": 10, "popularity": 11}
TRACE_BASE = 12
CATEGORY_VALUE = 3.0
FEATURE_VALUE = 1.0
TRACE_VALUE = 0.3

# word → (category dimension, feature dimensions)
LEXICON: dict[str, tuple[int, tuple[int, ...]]] = {
    "これ": (2, ()), "それ": (2, ()), "私": (2, ()),
    "猫": (0, (9,)), "花": (0, (8,)), "本": (0, (10,)), "小説": (0, (10, 11)),
    "大きい": (1, (9,)), "美しい": (1, (8,)), "人気": (1, (11,)),
    "読む": (3, (10,)), "好き": (3, ()),
    "は": (4, ()), "が": (5, ()), "を": (6, ()), "です": (7, ()),
}  # fmt: skip


BONDS: tuple[Bond, ...] = (
    Bond("形容詞→名詞", query_dim=1, key_dim=0, column=0, head=0),
    Bond("指示・代名詞→名詞", query_dim=2, key_dim=0, column=1, head=0),
    Bond("述語→名詞", query_dim=3, key_dim=0, column=8, head=1),
)

SINGLE_DETECTOR_BIAS = -1.0
AND_DETECTOR_BIAS = -0.5
AND_DETECTOR_WEIGHT = 0.6
AND_WRITE_BACK = 0.5
N_SINGLE_DETECTORS = 12
# AND detectors h12…h15: noun ∧ one semantic feature each
AND_DETECTOR_FEATURES: tuple[int, ...] = (8, 9, 10, 11)


def neuron_name(k: int) -> str:
    """Name of FFN hidden unit h_k: a single-dimension detector, an AND detector or unused."""
    if k < N_SINGLE_DETECTORS:
        return f"h{k} {DIM_NAMES[k]}"
    if k < N_SINGLE_DETECTORS + len(AND_DETECTOR_FEATURES):
        feature = AND_DETECTOR_FEATURES[k - N_SINGLE_DETECTORS]
        return f"h{k} 名詞∧{DIM_NAMES[feature]}"
    return f"h{k} 未使用"


NEURON_NAMES: tuple[str, ...] = tuple(neuron_name(k) for k in range(D_FF))


def _sentence(number: int, text: str, *relations: tuple[str, str, int]) -> Sentence:
    words = tuple(text.split())
    return Sentence(number, words, tuple(WORD_ID[w] for w in words), tuple(Relation(q, k, h) for q, k, h in relations))


SENTENCES: tuple[Sentence, ...] = (
    _sentence(1, "これ は 美しい 花 です", ("これ", "花", 0), ("美しい", "花", 0)),
    _sentence(2, "それ は 人気 小説 です", ("それ", "小説", 0), ("人気", "小説", 0)),
    _sentence(3, "私 は 猫 が 好き", ("私", "猫", 0), ("好き", "猫", 1)),
    _sentence(4, "私 は 本 を 読む", ("私", "本", 0), ("読む", "本", 1)),
    _sentence(5, "私 は 小説 を 読む", ("私", "小説", 0), ("読む", "小説", 1)),
    _sentence(6, "大きい 猫 は 美しい です", ("大きい", "猫", 0), ("美しい", "猫", 0)),
    _sentence(7, "美しい 花 は 人気 です", ("美しい", "花", 0), ("人気", "花", 0)),
    _sentence(8, "これ は 大きい 本 です", ("これ", "本", 0), ("大きい", "本", 0)),
)


def sentence(sentence_number: int) -> Sentence:
    """Example sentence 1 … 8, as the notes number them; anything else is a ValueError naming the range."""
    return ENCODER.sentence(sentence_number)


def preset_weights() -> BlockWeights:
    """The preset's weights, ``ENCODER.weights``: every array read-only (``build_preset()`` gives a fresh copy)."""
    return ENCODER.weights


def preset_trace(sentence_number: int) -> BlockTrace:
    """The forward pass of the preset block on example sentence 1 … 8, ``ENCODER.trace``: computed once."""
    return ENCODER.trace(sentence_number)


# --8<-- [start:build_embedding]
def build_embedding() -> np.ndarray:
    """W_E (vocab × d_model): 3.0 at the category, 1.0 at each feature, 0.3 at the trace dimension."""
    W_E = np.zeros((VOCAB_SIZE, D_MODEL))
    for word, (category, features) in LEXICON.items():
        row = WORD_ID[word]
        W_E[row, category] = CATEGORY_VALUE
        W_E[row, list(features)] = FEATURE_VALUE
        W_E[row, TRACE_BASE + row % 4] = TRACE_VALUE
    return W_E
    # --8<-- [end:build_embedding]


def build_query_key() -> tuple[np.ndarray, np.ndarray]:
    """W_Q and W_K (d_model × h·d_k), each with one 1.0 per bond."""
    W_Q = np.zeros((D_MODEL, N_HEADS * D_K))
    W_K = np.zeros((D_MODEL, N_HEADS * D_K))
    for bond in BONDS:
        W_Q[bond.query_dim, bond.column] = 1.0
        W_K[bond.key_dim, bond.column] = 1.0
    return W_Q, W_K


def build_ffn() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """W1 (d_model × d_ff), b1, W2 (d_ff × d_model), b2 from the detector rules."""
    W1 = np.zeros((D_MODEL, D_FF))
    b1 = np.zeros(D_FF)
    W2 = np.zeros((D_FF, D_MODEL))
    for k in range(N_SINGLE_DETECTORS):
        W1[k, k] = 1.0
        b1[k] = SINGLE_DETECTOR_BIAS
        W2[k, k] = 1.0
    for offset, feature in enumerate(AND_DETECTOR_FEATURES):
        k = N_SINGLE_DETECTORS + offset
        W1[DIM_CATEGORY["noun"], k] = AND_DETECTOR_WEIGHT
        W1[feature, k] = AND_DETECTOR_WEIGHT
        b1[k] = AND_DETECTOR_BIAS
        W2[k, feature] = AND_WRITE_BACK
    return W1, b1, W2, np.zeros(D_MODEL)


def build_preset() -> BlockWeights:
    """Every weight of the preset block, from the rules above."""
    W_Q, W_K = build_query_key()
    W1, b1, W2, b2 = build_ffn()
    return BlockWeights(
        W_E=build_embedding(),
        W_Q=W_Q,
        W_K=W_K,
        W_V=np.eye(D_MODEL),
        W_O=np.eye(D_MODEL),
        ln1_gamma=np.ones(D_MODEL),
        ln1_beta=np.zeros(D_MODEL),
        W1=W1,
        b1=b1,
        W2=W2,
        b2=b2,
        ln2_gamma=np.ones(D_MODEL),
        ln2_beta=np.zeros(D_MODEL),
        n_heads=N_HEADS,
        eps=EPS,
    )


# ---------------------------------------------------------------- knobs: the preset numbers a reader may change


def _knobs() -> tuple[Knob, ...]:
    # A bond's strength is its W_Q entry; its W_K entry stays 1, so the bond's score term scales linearly.
    bonds = tuple(Knob(f"bond{b}", 1.0, (("W_Q", (bond.query_dim, bond.column)),)) for b, bond in enumerate(BONDS))
    singles = range(N_SINGLE_DETECTORS)
    ands = [(N_SINGLE_DETECTORS + offset, feature) for offset, feature in enumerate(AND_DETECTOR_FEATURES)]
    and_inputs = tuple(("W1", (d, k)) for k, feature in ands for d in (DIM_CATEGORY["noun"], feature))
    return (
        *bonds,
        Knob("single_weight", 1.0, tuple(("W1", (k, k)) for k in singles)),
        Knob("single_bias", SINGLE_DETECTOR_BIAS, tuple(("b1", (k,)) for k in singles)),
        Knob("and_weight", AND_DETECTOR_WEIGHT, and_inputs),
        Knob("and_bias", AND_DETECTOR_BIAS, tuple(("b1", (k,)) for k, _ in ands)),
        Knob("eps", EPS, (("eps", ()),)),
    )


KNOBS: tuple[Knob, ...] = _knobs()
KNOB_NAMES: tuple[str, ...] = tuple(k.name for k in KNOBS)


def build_preset_with(**values: float) -> BlockWeights:
    """The preset with some knobs changed: bond0 … bond2 (bond strengths), single_weight, single_bias,
    and_weight, and_bias (the detectors' input weights and biases) and eps (LayerNorm's ε).

    ``build_preset_with()`` is ``build_preset()``. An unknown knob or a value that is not a finite real number
    is a ValueError naming it.
    """
    return ENCODER.weights_with(**values)


# ---------------------------------------------------------------- the model value

ENCODER = Encoder(
    name="japanese-mini",
    vocab=VOCAB,
    T=T,
    sentences=SENTENCES,
    weights=build_preset(),
    bonds=BONDS,
    categories=tuple(LEXICON[word][0] for word in VOCAB),
    knobs=KNOBS,
    firing_threshold=FIRING_THRESHOLD,
)
"""The encoder preset as a value: the default model of every function of the math layer."""
