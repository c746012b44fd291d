"""docs/notes/06-ffn.md: which detectors fire, and whether the meaning (W_E) or the position (W_P) fires them.

Two routes (:mod:`transformer_math.attribution`): the linear split of ffn_pre with attn and LayerNorm's divisor
frozen (route 1), and the same forward with W_P switched off (route 2). A detector "fires" when ffn_h > 0.5
(``preset.FIRING_THRESHOLD``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from transformer_math import activations, ops, positional, preset, preset_trace, preset_weights
from transformer_math.attribution import forward_with_position_scale, ln1_parts
from transformer_math.block import BlockTrace
from transformer_math.preset import FIRING_THRESHOLD, SENTENCES

GELU_THRESHOLD = activations.gelu_threshold(FIRING_THRESHOLD)
"""The ffn_pre at which GELU reaches the firing threshold 0.5: a detector fires above it."""


@cache
def trace_without_position(sentence_number: int) -> BlockTrace:
    """Sentence 1 … 8 through the preset block with W_P = 0 (the counterfactual of route 2)."""
    return forward_with_position_scale(preset_weights(), preset.sentence(sentence_number).token_ids, 0.0)


@dataclass(frozen=True)
class DetectorTerm:
    """One input dimension d of a detector: W1[d, k] times ln1_out[t, d] = W1[d, k] · (tok + pos)."""

    d: int
    weight: float  # W1[d, k]
    tok: float  # token part of ln1_out[t, d] (route 1)
    pos: float  # position part of ln1_out[t, d]

    @property
    def ln1_out(self) -> float:
        return self.tok + self.pos

    @property
    def contribution(self) -> float:
        return self.weight * (self.tok + self.pos)


@dataclass(frozen=True)
class DetectorAttribution:
    """Where one detector's pre-activation ffn_pre[t, k] comes from, by both routes."""

    sentence: int  # 1 … 8
    t: int  # token position
    word: str
    k: int  # hidden unit
    ffn_pre: float
    ffn_h: float
    bias: float  # b1[k]
    own_tok: float  # route 1, four parts (+ beta_part) that sum with the bias to ffn_pre
    attn_tok: float
    own_pos: float
    attn_pos: float
    beta_part: float  # β·W1[:, k] (0 in the preset)
    pre_without_position: float  # route 2: ffn_pre[t, k] in the forward with W_P = 0
    h_without_position: float
    terms: tuple[DetectorTerm, ...]  # route 1 per input dimension d with W1[d, k] ≠ 0

    @property
    def tok(self) -> float:
        """Contribution of the token embedding W_E (own row + via attention)."""
        return self.own_tok + self.attn_tok

    @property
    def pos(self) -> float:
        """Contribution of the positional encoding W_P (own row + via attention)."""
        return self.own_pos + self.attn_pos

    @property
    def pos_share(self) -> float:
        """pos / (|tok| + |pos|): 1 = all position, 0 = all token, negative if position works against it."""
        return self.pos / (abs(self.tok) + abs(self.pos))

    @property
    def fires_without_position(self) -> bool:
        return self.h_without_position > FIRING_THRESHOLD

    @property
    def needs_position(self) -> bool:
        """It fires in the real forward but not in the one without W_P (route 2)."""
        return not self.fires_without_position

    @property
    def position_driven(self) -> bool:
        """It needs W_P (route 2) and W_P contributes more than W_E (route 1): position, not meaning."""
        return self.needs_position and self.pos > self.tok

    @property
    def verdict(self) -> str:
        """The table's label: 意味 (fires without W_P), 位置 (position-driven), or 意味＋位置 (needs W_P to cross
        the threshold, but W_E contributes more)."""
        if self.position_driven:
            return TEXT["position"]
        if self.needs_position:
            return TEXT["meaning_and_position"]
        return TEXT["meaning"]


# --8<-- [start:detector_attributions]
@cache
def detector_attributions(sentence_number: int) -> tuple[DetectorAttribution, ...]:
    """Every firing (ffn_h > 0.5) detector of one sentence, ordered by position then unit."""
    W, trace = preset_weights(), preset_trace(sentence_number)
    parts = ln1_parts(W, trace)  # ln1_out = own_tok + attn_tok + own_pos + attn_pos + β, each (T, d_model)
    without = trace_without_position(sentence_number)
    words = preset.sentence(sentence_number).words
    rows = []
    for t, k in zip(*np.nonzero(trace.ffn_h > FIRING_THRESHOLD), strict=True):
        w = W.W1[:, k]  # (d_model,) the detector's input weights
        rows.append(
            DetectorAttribution(
                sentence=sentence_number,
                t=int(t),
                word=words[t],
                k=int(k),
                ffn_pre=float(trace.ffn_pre[t, k]),
                ffn_h=float(trace.ffn_h[t, k]),
                bias=float(W.b1[k]),
                own_tok=float(parts.own_tok[t] @ w),
                attn_tok=float(parts.attn_tok[t] @ w),
                own_pos=float(parts.own_pos[t] @ w),
                attn_pos=float(parts.attn_pos[t] @ w),
                beta_part=float(parts.beta @ w),
                pre_without_position=float(without.ffn_pre[t, k]),
                h_without_position=float(without.ffn_h[t, k]),
                terms=tuple(
                    DetectorTerm(d=int(d), weight=float(w[d]), tok=float(parts.tok[t, d]), pos=float(parts.pos[t, d]))
                    for d in np.flatnonzero(w)
                ),
            )
        )
    return tuple(rows)
    # --8<-- [end:detector_attributions]


def all_detector_attributions() -> tuple[DetectorAttribution, ...]:
    """The firing detectors of all eight sentences, in sentence order."""
    return tuple(a for s in SENTENCES for a in detector_attributions(s.number))


def find(sentence_number: int, word: str, k: int) -> DetectorAttribution:
    """The attribution of detector h_k at ``word`` in sentence n."""
    for a in detector_attributions(sentence_number):
        if a.word == word and a.k == k:
            return a
    raise ValueError(f"h{k} does not fire at {word!r} in sentence {sentence_number}")


def n_firing() -> int:
    """How many (sentence, token, detector) triples fire over the eight sentences."""
    return len(all_detector_attributions())


def n_position_driven() -> int:
    return sum(a.position_driven for a in all_detector_attributions())


def n_position_exceeds_token() -> int:
    """Firing triples where route 1 alone gives W_P more than W_E (whatever route 2 says)."""
    return sum(a.pos > a.tok for a in all_detector_attributions())


def n_needs_position() -> int:
    """Firing triples that do not fire without W_P."""
    return sum(a.needs_position for a in all_detector_attributions())


def n_needs_position_not_driven() -> int:
    """Firing triples that need W_P to cross the threshold although W_E contributes more (意味＋位置)."""
    return n_needs_position() - n_position_driven()


def n_firing_without_position() -> int:
    """Firing triples of the real forward that still fire with W_P = 0."""
    return sum(a.fires_without_position for a in all_detector_attributions())


def firing_count(k: int) -> int:
    """How often detector h_k fires over the 8 × T token positions."""
    return sum(a.k == k for a in all_detector_attributions())


def position_driven_count(k: int) -> int:
    return sum(a.k == k and a.position_driven for a in all_detector_attributions())


def needs_position_count(k: int) -> int:
    return sum(a.k == k and a.needs_position for a in all_detector_attributions())


def unit_mean_pos_share(k: int) -> float:
    """Mean pos_share of detector h_k over its firings (nan if it never fires)."""
    shares = [a.pos_share for a in all_detector_attributions() if a.k == k]
    return float(np.mean(shares)) if shares else float("nan")


def pe_column_means() -> np.ndarray:
    """Mean of W_P[t, d] over the five positions, per dimension: what position adds to every token alike. (16,)"""
    return positional.pe_column_means(preset.T, preset.D_MODEL)


def unused_hidden_max() -> float:
    """max |ffn_h| over the unused units h16 … h31 on all eight sentences (GELU(0) = 0)."""
    first_unused = preset.N_SINGLE_DETECTORS + len(preset.AND_DETECTOR_FEATURES)
    return max(float(np.abs(preset_trace(s.number).ffn_h[:, first_unused:]).max()) for s in SENTENCES)


def noun_half_of_hana() -> float:
    """The noun input of an AND detector at 花 in sentence 1, with its bias: 0.6 · ln1_out[3, d0] − 0.5."""
    return preset.AND_DETECTOR_WEIGHT * float(preset_trace(1).ln1_out[3, 0]) + preset.AND_DETECTOR_BIAS


# ------------------------------------------------------------------- the AND detectors h12 … h15, looked at closely
def and_units() -> tuple[int, ...]:
    """The hidden units wired as AND detectors (名詞 ∧ one semantic feature)."""
    first = preset.N_SINGLE_DETECTORS
    return tuple(range(first, first + len(preset.AND_DETECTOR_FEATURES)))


def _and_feature(k: int) -> int:
    if k not in and_units():
        raise ValueError(f"k = {k!r} is not an AND detector; those are {and_units()}")
    return preset.AND_DETECTOR_FEATURES[k - preset.N_SINGLE_DETECTORS]


def word_has_feature(word: str, k: int) -> bool:
    """Does the word's own embedding carry the semantic feature that AND detector h_k looks for?"""
    return bool(preset_weights().W_E[preset.WORD_ID[word], _and_feature(k)] > 0)


def firings_without_feature(k: int) -> int:
    """Firings of AND detector h_k on words whose own embedding lacks its feature."""
    _and_feature(k)
    return sum(a.k == k and not word_has_feature(a.word, k) for a in all_detector_attributions())


def feature_input_from_position(k: int) -> tuple[float, float]:
    """(min, max) over the firings of h_k of the position part of its feature input ln1_out[t, feature]."""
    feature = _and_feature(k)
    values = [term.pos for a in all_detector_attributions() if a.k == k for term in a.terms if term.d == feature]
    if not values:
        raise ValueError(f"h{k} never fires on the eight sentences")
    return min(values), max(values)


def noun_half_alone_fires(a: DetectorAttribution) -> bool:
    """Would the noun input alone (W1[d0, k]·ln1_out[t, d0] + b1[k]) make AND detector h_k fire?"""
    _and_feature(a.k)
    noun = next(term for term in a.terms if term.d == preset.DIM_CATEGORY["noun"])
    return float(ops.gelu(np.array(noun.contribution + a.bias))) > FIRING_THRESHOLD


def n_noun_half_alone_fires(k: int) -> int:
    """Firings of AND detector h_k where the noun input alone would already fire it (the AND is not an AND)."""
    return sum(noun_half_alone_fires(a) for a in all_detector_attributions() if a.k == k)


def min_firing_pre_over_threshold() -> float:
    """Smallest ffn_pre − GELU_THRESHOLD over every firing detector (positive: every row of the table crosses)."""
    return min(a.ffn_pre for a in all_detector_attributions()) - GELU_THRESHOLD


def routes_agree() -> bool:
    """Route 1 alone (W_P's part > W_E's part) marks exactly the firings that both routes call position-driven."""
    by_route_1 = {(a.sentence, a.t, a.k) for a in all_detector_attributions() if a.pos > a.tok}
    driven = {(a.sentence, a.t, a.k) for a in all_detector_attributions() if a.position_driven}
    return by_route_1 == driven


def needs_position_not_driven_units() -> tuple[int, ...]:
    """The detectors of the 意味＋位置 firings (they need W_P to cross, but W_E contributes more)."""
    return tuple(sorted({a.k for a in all_detector_attributions() if a.needs_position and not a.position_driven}))


def needs_position_not_driven_categories() -> tuple[str, ...]:
    """The part of speech (in Japanese, ``CATEGORY_WORDS``) of the words with a 意味＋位置 firing."""
    W = preset_weights()
    names = {d: name for name, d in preset.DIM_CATEGORY.items()}
    found = set()
    for a in all_detector_attributions():
        if a.needs_position and not a.position_driven:
            row = W.W_E[preset.WORD_ID[a.word]]
            found.add(CATEGORY_WORDS[names[int(np.argmax(row[: len(names)]))]])
    return tuple(sorted(found))


def word_is_noun(word: str) -> bool:
    """Does the word's own embedding carry the noun category (d0)?"""
    return bool(preset_weights().W_E[preset.WORD_ID[word], preset.DIM_CATEGORY["noun"]] > 0)


TEXT = {"position": "位置", "meaning_and_position": "意味＋位置", "meaning": "意味"}
"""The verdicts of a firing, as the page's tables and prose write them."""

CATEGORY_WORDS = {
    "noun": "名詞", "adjective": "形容詞", "pronoun": "指示詞・代名詞", "predicate": "述語",
    "wa": "「は」", "ga": "「が」", "wo": "「を」", "desu": "「です」",
}  # fmt: skip
"""The parts of speech of preset.DIM_CATEGORY, as the page names them."""

LABELS = {
    "GELU_THRESHOLD": "GELU が発火のしきい値 0.5 に届く ffn_pre",
    "find()": "文{0} の「{1}」の h{2} の発火",
    "find().ffn_h": "文{0} の「{1}」の h{2} の ffn_h",
    "find().h_without_position": "文{0} の「{1}」の h{2} の ffn_h (W_P を消した順伝播)",
    "find().tok": "文{0} の「{1}」の h{2} の ffn_pre のうち W_E 由来",
    "find().pos": "文{0} の「{1}」の h{2} の ffn_pre のうち W_P 由来",
    "find().terms[].tok": "文{0} の「{1}」の h{2} の特徴入力のうち意味由来",
    "find().terms[].pos": "文{0} の「{1}」の h{2} の特徴入力のうち位置由来",
    "n_firing()": "8 文での発火の数",
    "n_firing_without_position()": "W_P を消しても発火する数",
    "n_needs_position()": "W_P を消すと発火しなくなる数",
    "n_position_driven()": "位置が主因と判定された発火の数",
    "n_position_exceeds_token()": "経路 1 で W_P 由来が W_E 由来を上回る発火の数",
    "n_needs_position_not_driven()": "「意味＋位置」と判定された発火の数",
    "pe_column_means()": "W_P の各次元の位置についての平均",
    "feature_input_from_position()": "発火した h{0} の特徴入力のうち位置由来の (最小, 最大)",
    "noun_half_of_hana()": "花 の名詞の入力だけでの h13 の ffn_pre",
    "firing_count()": "h{0} の発火の数",
    "n_noun_half_alone_fires()": "名詞の入力だけで h{0} が発火する数",
    "firings_without_feature()": "特徴を持たない単語での h{0} の発火の数",
    "unused_hidden_max()": "h16〜h31 の出力の絶対値の最大",
    "and_units()": "AND 検出器の番号",
    "min_firing_pre_over_threshold()": "発火した検出器の ffn_pre としきい値の差の最小",
    "routes_agree()": "2 つの経路の判定が一致する",
    "needs_position_not_driven_units()": "「意味＋位置」の発火の検出器",
    "needs_position_not_driven_categories()": "「意味＋位置」の発火が現れる単語の品詞",
    "word_has_feature()": "「{0}」が h{1} の特徴を持つ",
    "word_is_noun()": "「{0}」が名詞",
}
"""The Japanese label of each value the pages cite (their tooltips lead with it; see transformer_site.labels)."""
