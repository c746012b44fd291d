"""The try-it page's facts (transformer_pages.tryit) against independent recomputation, src and the seed's claims."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_math import SENTENCES, forward, ops, preset, preset_trace, relations
from transformer_pages import tryit as mp
from transformer_pages.notes import attention as notes_attention
from transformer_pages.notes import ffn as notes_ffn


def _direct_weights(d_k: int, scale: bool, causal: bool) -> np.ndarray:
    """Softmax written out with einsum and exp, masked entries dropped before normalising (not ops)."""
    q, k = mp.sdpa_qk()
    s = np.einsum("id,jd->ij", q[:, :d_k], k[:, :d_k]) / (np.sqrt(d_k) if scale else 1.0)
    keep = np.tril(np.ones_like(s, dtype=bool)) if causal else np.ones_like(s, dtype=bool)
    e = np.where(keep, np.exp(s - s.max(axis=1, keepdims=True)), 0.0)
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("d_k", [1, 2, 7, 8, 33, 64])
@pytest.mark.parametrize("scale", [False, True])
@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_state_matches_direct_softmax(d_k: int, scale: bool, causal: bool) -> None:
    state = mp.sdpa_state(d_k, scale, causal)
    np.testing.assert_allclose(state.weights, _direct_weights(d_k, scale, causal), atol=1e-12)
    np.testing.assert_allclose(state.weights.sum(axis=1), 1.0, atol=1e-12)
    if causal:
        assert np.all(state.weights[np.triu_indices(mp.SDPA_N, k=1)] == 0.0)
        assert state.weights[0, 0] == 1.0  # q1 sees only k1


@pytest.mark.parametrize("d_k", range(1, mp.SDPA_MAX_D_K + 1, 9))
def test_scaling_divides_the_spread_by_sqrt_d_k(d_k: int) -> None:
    unscaled, scaled = mp.sdpa_state(d_k, False, False), mp.sdpa_state(d_k, True, False)
    assert unscaled.scores_std / scaled.scores_std == pytest.approx(np.sqrt(d_k), rel=1e-12)


def test_unscaled_large_d_k_is_sharper_than_scaled() -> None:
    """The seed's observation, on this fixed sample: without √d_k the rows approach one-hot."""
    assert mp.sdpa_state(64, False, False).mean_row_max > 0.9 > mp.sdpa_state(64, True, False).mean_row_max
    assert mp.sdpa_state(64, False, False).mean_row_max > mp.sdpa_state(1, False, False).mean_row_max


def test_states_cover_every_setting_once() -> None:
    states = mp.sdpa_states()
    settings = [(s.d_k, s.scale, s.causal) for s in states]
    assert len(settings) == len(set(settings)) == mp.SDPA_MAX_D_K * 2 * 2
    assert mp.sdpa_max_row_sum_error() < 1e-15


def test_sdpa_grid_is_nested_by_control() -> None:
    grid = mp.sdpa_grid()
    assert list(grid) == list(range(1, mp.SDPA_MAX_D_K + 1))
    for d_k in (1, 37, 64):
        for scale in (False, True):
            for causal in (False, True):
                state = grid[d_k][scale][causal]
                assert (state.d_k, state.scale, state.causal) == (d_k, scale, causal)


def test_pe_curves_are_the_encoding() -> None:
    table = mp.pe_table()
    np.testing.assert_array_equal(table, ops.positional_encoding(mp.PE_POSITIONS, mp.PE_D_MODEL))
    for curve in mp.pe_curves():
        assert curve.omega * curve.wavelength == pytest.approx(2 * np.pi, rel=1e-12)
        np.testing.assert_allclose(curve.sin, np.sin(curve.pos * curve.omega), atol=0)
        steps_per_wavelength = curve.wavelength / np.diff(curve.pos).max()
        assert steps_per_wavelength >= 16, (curve.i, steps_per_wavelength)  # smooth enough to draw
        at_integers = np.isin(curve.pos, np.arange(mp.PE_POSITIONS))
        idx = curve.pos[at_integers].astype(int)
        np.testing.assert_allclose(curve.sin[at_integers], table[idx, 2 * curve.i], atol=1e-12)


# ------------------------------------------------------------ the explorer: relations and detectors against the notes


@pytest.mark.parametrize("sentence", SENTENCES, ids=lambda s: f"s{s.number}")
def test_intended_relations_are_the_preset_relations(sentence) -> None:
    """The rule (query category of a bond → a noun) gives exactly the relations PRESET.md lists."""
    intended = relations.intended_relations(sentence.token_ids)
    found = [(sentence.words[i], sentence.words[j], preset.BONDS[b].head) for b, i, j in intended]
    assert found == [(r.query, r.key, r.head) for r in sentence.relations]


@pytest.mark.parametrize("sentence", SENTENCES, ids=lambda s: f"s{s.number}")
def test_relation_outcomes_agree_with_the_notes_verdicts(sentence) -> None:
    outcomes = relations.relation_outcomes(preset_trace(sentence.number))
    verdicts = notes_attention.relation_verdicts(sentence.number)
    assert len(outcomes) == len(verdicts)
    for o, v in zip(outcomes, verdicts, strict=True):
        assert (o.query_pos, o.key_pos, o.head, o.wins, o.winner_pos, o.runner_up_pos) == (
            v.query_pos, v.key_pos, v.head, v.wins, v.winner_pos, v.runner_up_pos)  # fmt: skip
        assert o.weight == v.weight and o.margin == pytest.approx(v.margin, abs=0)


def test_firing_detectors_are_the_notes_firings() -> None:
    for s in SENTENCES:
        fired = [(t, k) for t, k, _ in mp.firing_detectors(preset_trace(s.number))]
        assert fired == [(a.t, a.k) for a in notes_ffn.detector_attributions(s.number)]


def test_explore_and_outcome_are_the_explorer_settings() -> None:
    trace = mp.explore(mp.EXAMPLE, bond0=0.0, causal=True)
    expected = forward(preset.build_preset_with(bond0=0.0), np.array([0, 12, 7, 3, 15]), causal=True)
    np.testing.assert_array_equal(trace.attn, expected.attn)
    assert mp.outcome(mp.EXAMPLE, 1).query_pos == 2 and mp.outcome(mp.EXAMPLE, 1).key_pos == 3
    assert mp.EXAMPLE not in [s.text for s in SENTENCES]  # the page's own example is not a preset


def test_explorer_matrix_shapes() -> None:
    trace = preset_trace(4)
    T = len(trace.tokens)
    for stage in mp.EXPLORER_STAGES:
        m = mp.explorer_matrix(trace, stage)
        assert m.shape[-2] == T and m.ndim == (3 if stage in mp.PER_HEAD_STAGES else 2)
    np.testing.assert_array_equal(mp.explorer_matrix(trace, "Q")[:, 8:], trace.Q[:, 1, :])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mp.sdpa_state(0, True, False), "d_k must be an integer 1 … 64, got 0"),
        (lambda: mp.sdpa_state(65, True, False), "d_k must be an integer 1 … 64, got 65"),
        (lambda: mp.sdpa_state(8, "yes", False), "scale must be True or False"),
        (lambda: mp.sdpa_state(8, True, 1), "causal must be True or False"),
        (lambda: mp.pe_curve(32), "i must be an integer 0 … 31, got 32"),
        (lambda: mp.explorer_matrix(preset_trace(1), "W_Q"), "stage must be one of"),
        (lambda: mp.explorer_matrix(None, "X"), "trace must be a BlockTrace"),
        (lambda: mp.explore(mp.EXAMPLE, bond9=1.0), r"unknown setting\(s\) \['bond9'\]"),
        (lambda: mp.explore(mp.EXAMPLE, bond0=float("inf")), "knob bond0 must be a finite real number"),
        (lambda: mp.outcome(mp.EXAMPLE, 2), "relation must be 0 … 1"),
        (lambda: mp.knob_range("bond3"), "knob must be one of"),
    ],
)
def test_bad_arguments(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_a_bond_at_zero_gives_ties_not_a_winner_and_a_loser() -> None:
    """With bond 2 at 0 the predicate's row is uniform: both nouns tie with every other key, neither wins."""
    text = "猫 は 花 が 好き"
    outcomes = relations.relation_outcomes(mp.explore(text, bond2=0.0))
    predicate = [o for o in outcomes if o.query_pos == 4]
    assert [o.key_pos for o in predicate] == [0, 2]
    for o in predicate:
        assert o.verdict == "tie" and not o.wins and o.ties
        assert o.tied_pos == tuple(k for k in range(preset.T) if k != o.key_pos)
    # the bond at its preset value: a strict winner again, no ties named
    assert all(o.verdict != "tie" and o.tied_pos == () for o in relations.relation_outcomes(mp.explore(text)))


@pytest.mark.parametrize(
    ("margin", "verdict"),
    [(relations.TIE_TOLERANCE * 1.01, "win"), (relations.TIE_TOLERANCE, "tie"), (0.0, "tie"),
     (-relations.TIE_TOLERANCE, "tie"), (-relations.TIE_TOLERANCE * 1.01, "lose"), (0.5, "win"), (-0.5, "lose")],
)  # fmt: skip
def test_the_verdict_is_decided_by_the_tie_tolerance(margin: float, verdict: str) -> None:
    assert relations.verdict_of(margin) == verdict


def test_a_verdict_of_no_number_is_refused() -> None:
    with pytest.raises(ValueError, match="margin must be a finite number"):
        relations.verdict_of(float("nan"))


def test_ties_are_the_keys_at_the_top_of_the_row_within_the_tolerance() -> None:
    """Every tie names the other keys within the tolerance of the row's largest weight, and only those."""
    rng = np.random.default_rng(33)
    n_ties = 0
    for _ in range(300):
        tokens = rng.integers(0, preset.VOCAB_SIZE, size=preset.T)
        text = " ".join(preset.VOCAB[t] for t in tokens)
        knobs = {name: float(rng.choice([0.0, 0.05, 1.0, 2.5])) for name in ("bond0", "bond1", "bond2")}
        trace = mp.explore(text, positions=bool(rng.random() < 0.5), **knobs)
        for o in relations.relation_outcomes(trace):
            row = trace.attn[o.head, o.query_pos]
            top = row.max()
            near_top = {k for k in range(len(row)) if row[k] >= top - relations.TIE_TOLERANCE}
            if o.ties:
                n_ties += 1
                assert o.key_pos in near_top and set(o.tied_pos) == near_top - {o.key_pos}
            else:
                assert o.tied_pos == () and (near_top == {o.key_pos}) == o.wins
    assert n_ties > 20  # bonds at 0 made ties


def test_all_tie_with_bond_off_says_whether_every_relation_of_the_bond_ties() -> None:
    assert mp.all_tie_with_bond_off(2)  # the predicate's row is uniform without its bond
    assert not mp.all_tie_with_bond_off(0)  # the adjective's row still has a winner through bond 1 and W_P
    with pytest.raises(ValueError, match="bond must be 0 … 2, got 3"):
        mp.all_tie_with_bond_off(3)
