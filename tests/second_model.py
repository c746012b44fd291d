"""A second encoder model, sized unlike the preset in every way, for the tests that run the math layer on it.

T = 7 (preset 5), d_model = 12 (16), h = 3 (2), d_k = 4 (8), d_ff = 20 (32), 11 words (16), ε = 1e-6 (1e-5);
seeded random dense weights (biases, γ ≠ 1, β ≠ 0, W_V and W_O not identities), three sentences, one bond
in head 1, word categories and two knobs, so the explorer's relations, detectors and knobs have something to
read. Built here from the public API only, as a reader would build one.
"""

from __future__ import annotations

import numpy as np

from transformer_math import BlockWeights, Encoder
from transformer_math.model import Bond, Knob, sentences_over

SEED = 20260412
VOCAB = ("犬", "鳥", "魚", "赤い", "速い", "小さい", "見る", "追う", "が", "を", "と")
# category dimension of each word: 0 noun, 1 adjective, 2 verb, 3 particle
CATEGORIES = (0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 3)
TEXTS = (
    "赤い 犬 が 小さい 鳥 を 見る",
    "速い 魚 と 赤い 鳥 を 追う",
    "小さい 犬 と 速い 鳥 が 見る",
)
D_MODEL, H, D_FF, EPS = 12, 3, 20, 1e-6
BOND = Bond("形容詞→名詞", query_dim=1, key_dim=0, column=5, head=1)


def second_weights(seed: int = SEED) -> BlockWeights:
    rng = np.random.default_rng(seed)
    n = rng.normal
    d, d_ff, v = D_MODEL, D_FF, len(VOCAB)
    return BlockWeights(
        W_E=n(size=(v, d)), W_Q=n(size=(d, d)), W_K=n(size=(d, d)), W_V=n(size=(d, d)),
        W_O=n(size=(d, d)) / np.sqrt(d), ln1_gamma=1 + 0.3 * n(size=d), ln1_beta=0.3 * n(size=d),
        W1=n(size=(d, d_ff)), b1=n(size=d_ff), W2=n(size=(d_ff, d)) / np.sqrt(d_ff), b2=0.3 * n(size=d),
        ln2_gamma=1 + 0.3 * n(size=d), ln2_beta=0.3 * n(size=d), n_heads=H, eps=EPS,
    )  # fmt: skip


def second_model(seed: int = SEED) -> Encoder:
    weights = second_weights(seed)
    knobs = (
        Knob("bond0", float(weights.W_Q[BOND.query_dim, BOND.column]), (("W_Q", (BOND.query_dim, BOND.column)),)),
        Knob("eps", EPS, (("eps", ()),)),
    )
    return Encoder(
        name="second", vocab=VOCAB, T=7, sentences=sentences_over(VOCAB, *TEXTS), weights=weights,
        bonds=(BOND,), categories=CATEGORIES, knobs=knobs,
    )  # fmt: skip


SECOND = second_model()
