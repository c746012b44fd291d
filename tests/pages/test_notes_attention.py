"""The notes §0–§4 page modules against independent routes: recomputed by hand from X, W_Q, W_K or formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_math import SENTENCES, build_preset, counting, ops, positional, preset_trace, preset_weights, rounding
from transformer_math.preset import BONDS, D_K, D_MODEL, N_HEADS, T
from transformer_pages.notes import attention as ATT
from transformer_pages.notes import concat as CAT
from transformer_pages.notes import embedding as E
from transformer_pages.notes import qkv as QKV

SENTENCE_NUMBERS = range(1, len(SENTENCES) + 1)


def _softmax_row_by_hand(scores_row: np.ndarray) -> np.ndarray:
    e = np.array([math.exp(s) for s in scores_row])
    return e / e.sum()


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_verdicts_match_a_recomputation_from_X(n):
    weights, sentence = build_preset(), SENTENCES[n - 1]
    X = weights.W_E[sentence.token_ids] + ops.positional_encoding(T, D_MODEL)
    for v, relation in zip(ATT.relation_verdicts(n), sentence.relations, strict=True):
        cols = slice(relation.head * D_K, (relation.head + 1) * D_K)
        q = X[sentence.position(relation.query)] @ weights.W_Q[:, cols]
        scores_row = (X @ weights.W_K[:, cols]) @ q / math.sqrt(D_K)
        row = _softmax_row_by_hand(scores_row)
        j = sentence.position(relation.key)
        assert v.weight == pytest.approx(row[j], abs=1e-12)
        assert v.score == pytest.approx(scores_row[j], abs=1e-12)
        assert v.wins == (int(np.argmax(row)) == j)
        best_other = max(row[k] for k in range(T) if k != j)
        assert v.margin == pytest.approx(row[j] - best_other, abs=1e-12)
        # the weight ratio of two softmax entries is exp of their score difference
        assert v.weight_ratio == pytest.approx(math.exp(v.score_margin), rel=1e-12)
        assert v.query == relation.query and v.key == relation.key and v.head == relation.head


def test_verdict_counts_and_extremes_are_consistent():
    verdicts = ATT.all_verdicts()
    assert ATT.n_relations() == sum(len(s.relations) for s in SENTENCES)
    assert ATT.n_relations_won() == sum(v.wins for v in verdicts)
    assert ATT.weakest_verdict().margin == min(v.margin for v in verdicts)
    assert ATT.strongest_verdict().margin == max(v.margin for v in verdicts)
    assert ATT.verdict(3, 1) is ATT.relation_verdicts(3)[1]


def test_a_losing_relation_names_the_winner():
    # A relation with a key that cannot win (です has no noun dim) must be reported as lost, with the real winner.
    sentence = SENTENCES[0]
    fake = E.preset.Relation(query="美しい", key="です", head=0)
    v = ATT.relation_verdict(sentence, fake)
    assert not v.wins
    assert v.winner == "花"
    assert v.margin < 0


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_score_split_and_bond_terms_add_up_to_the_score(n):
    trace = preset_trace(n)
    for head in range(N_HEADS):
        for i in range(T):
            for j in range(T):
                split = QKV.score_split(n, head, i, j)
                assert split.total == pytest.approx(trace.scores[head, i, j], abs=1e-12)
                terms = QKV.bond_score_terms(n, head, i, j)
                assert sum(terms.values()) == pytest.approx(trace.scores[head, i, j], abs=1e-12)
                assert set(terms) == {b.name for b in BONDS if b.head == head}


def test_score_split_of_the_notes_value():
    # sentence 1, head 0, 美しい → 花: Q has 3 (adjective) at the adjective column, K has 3 (noun) at both columns,
    # so meaning·meaning alone is 3·3/√8.
    split = QKV.score_split(1, 0, 2, 3)
    assert split.tok_tok == pytest.approx(3.0 * 3.0 / math.sqrt(8), abs=1e-12)
    assert split.total == pytest.approx(preset_trace(1).scores[0, 2, 3], abs=1e-12)


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_bond_split_is_the_bond_column(n):
    trace = preset_trace(n)
    for b in range(len(BONDS)):
        for side, full in (("query", trace.Q_full), ("key", trace.K_full)):
            split = QKV.bond_split(n, b, side)
            np.testing.assert_allclose(split.total, full[:, BONDS[b].column], atol=1e-12)
            np.testing.assert_allclose(split.pos, ops.positional_encoding(T, D_MODEL)[:, split.dim], atol=0)
    assert QKV.max_abs_outside_bonds(n) == 0.0
    assert QKV.max_abs_outside_bonds_all() >= QKV.max_abs_outside_bonds(n)


def test_positional_encoding_facts():
    pe = ops.positional_encoding(T, D_MODEL)
    for t in range(T):
        assert E.pe_row_norm(t) == pytest.approx(math.sqrt(D_MODEL / 2), abs=1e-12)
    for d in range(D_MODEL):
        i = d // 2
        assert E.pe_period_of_dim(d) == pytest.approx(2 * math.pi * 10000 ** (2 * i / D_MODEL), rel=1e-12)
        assert E.pe_range(d) == pytest.approx(pe[:, d].max() - pe[:, d].min(), abs=0)
    dists = [np.linalg.norm(pe[a] - pe[b]) for a in range(T) for b in range(T) if a != b]
    assert E.pe_min_distance() == pytest.approx(min(dists), abs=1e-12)
    assert E.pe_min_distance() > 0
    for k in range(1, T):
        assert positional.pe_rotation_error(T - k, D_MODEL, (k,)) < 1e-12
    # the identity must fail for a rotation by the wrong angle: the check is not vacuous
    R_wrong = ops.pe_rotation(1.0, 2)
    assert np.abs(pe[:-1, 0:2] @ R_wrong.T - pe[1:, 0:2]).max() > 0.1
    # low dimensions move more than high ones over the 5 positions
    assert E.pe_range(0) > E.pe_range(14)


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_y_sources_add_up_to_Y(n):
    trace = preset_trace(n)
    for t in range(T):
        for d in range(D_MODEL):
            assert CAT.y_sources(n, t, d).sum() == pytest.approx(trace.Y[t, d], abs=1e-12)
            assert CAT.y_from_token(n, t, d) + CAT.y_from_position(n, t, d) == pytest.approx(trace.Y[t, d], abs=1e-12)
    assert CAT.concat_vs_Y_max_diff(n) == 0.0


def test_head_of_dim_and_sizes():
    assert [CAT.head_of_dim(d) for d in range(D_MODEL)] == [d * N_HEADS // D_MODEL for d in range(D_MODEL)]
    weights = build_preset()
    assert counting.weight_sizes(preset_weights())["W_Q"] == weights.W_Q.shape[0] * weights.W_Q.shape[1]
    assert (
        counting.nonzero_entries(preset_weights())["W_Q"]
        == len(BONDS)
        == counting.nonzero_entries(preset_weights())["W_K"]
    )
    assert E.embedding_row_norm("花") == pytest.approx(math.sqrt(3.0**2 + 1.0**2 + 0.3**2), abs=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ATT.relation_verdicts(9), "sentence_number"),
        (lambda: ATT.verdict(1, 2), "relation_index"),
        (lambda: QKV.score_split(1, 2, 0, 0), "head"),
        (lambda: QKV.score_split(1, 0, 5, 0), "i"),
        (lambda: QKV.bond_split(1, 0, "value"), "side"),
        (lambda: QKV.bond_split(1, "名詞→名詞", "query"), "bond"),
        (lambda: CAT.y_sources(1, 0, 16), "d"),
        (lambda: E.embedding_row_norm("犬"), "word"),
        (lambda: positional.pe_rotation_error(4, D_MODEL, (0,)), "offsets"),
        (lambda: E.pe_period_of_dim(16), "d"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_machine_epsilon_is_float64s_gap_above_one():
    eps = rounding.MACHINE_EPSILON
    assert eps == 2.0**-52
    assert 1.0 + eps != 1.0 and 1.0 + eps / 2 == 1.0


@pytest.mark.parametrize(
    ("value", "bound", "expected"),
    [
        (0.0, 4, 4),
        (2.0**-53, 4, 4),
        (4 * 2.0**-52, 4, 4),
        (-3 * 2.0**-52, 4, 4),
        (4.4 * 2.0**-52, 4, 5),
        (1e-3, 16, None),
    ],
)
def test_eps_multiple_within_quotes_the_bound_until_it_is_broken(value, bound, expected):
    got = rounding.eps_multiple_within(value, bound)
    if expected is None:  # far outside: the real multiple, so a page quoting the bound fails visibly
        assert got == math.ceil(1e-3 / 2.0**-52)
    else:
        assert got == expected


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "4"])
def test_eps_multiple_within_rejects_a_bad_bound(bad):
    with pytest.raises(ValueError, match="bound"):
        rounding.eps_multiple_within(1e-16, bad)


def test_eps_multiple_within_rejects_nan():
    with pytest.raises(ValueError, match="value"):
        rounding.eps_multiple_within(float("nan"), 4)


def test_runner_up_follows_the_noun_key_by_an_independent_recomputation():
    # order the other keys by the score each gets from the intended query, recomputed from X, W_Q, W_K
    weights = build_preset()
    agree = 0
    for v in ATT.all_verdicts():
        sentence = SENTENCES[v.sentence - 1]
        X = weights.W_E[sentence.token_ids] + ops.positional_encoding(T, D_MODEL)
        cols = slice(v.head * D_K, (v.head + 1) * D_K)
        scores_row = (X @ weights.W_K[:, cols]) @ (X[v.query_pos] @ weights.W_Q[:, cols])
        scores_row[v.key_pos] = -np.inf
        noun_key = X[:, 0].copy()
        noun_key[v.key_pos] = -np.inf
        assert int(np.argmax(scores_row)) == v.runner_up_pos
        agree += int(np.argmax(noun_key)) == v.runner_up_pos
    assert ATT.n_runner_up_is_next_strongest_key() == agree
