"""Every derivation, recomputed from its own terms, equals the trace's value for all cells of all 8 sentences."""

from __future__ import annotations

import json
from dataclasses import fields

import numpy as np
import pytest

from transformer_math import ENCODER, SENTENCES, BlockTrace, build_preset, forward, ops, preset_trace
from transformer_math import derivations as dv

SENTENCE_NUMBERS = range(1, len(SENTENCES) + 1)


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
@pytest.mark.parametrize("stage", dv.STAGES)
def test_every_cell_equals_trace(n: int, stage: str) -> None:
    trace = preset_trace(n)
    ders = dv.derive_all(trace, stage)
    assert len(ders) == getattr(trace, stage).size
    for der in ders:
        expected = getattr(trace, stage)[der.index]
        assert abs(der.value - expected) <= 1e-12, (n, der.cell, der.value, expected)


@pytest.mark.parametrize("n", SENTENCE_NUMBERS)
def test_terms_add_up(n: int) -> None:
    """The listed non-zero terms alone reproduce the sums the derivation states."""
    trace, w = preset_trace(n), build_preset()
    for der in dv.derive_all(trace, "scores"):
        assert sum(t.value for t in der.terms) == pytest.approx(der.intermediate("sum"), abs=1e-12)
        assert len(der.terms) + der.n_zero_terms == trace.Q.shape[2]
        for t in der.terms:
            assert t.value == pytest.approx(t.factors[0].value * t.factors[1].value, abs=0)
            assert t.value != 0.0
    for der in dv.derive_all(trace, "ffn_h", w):
        assert sum(t.value for t in der.terms) == pytest.approx(der.intermediate("sum"), abs=1e-12)
        assert der.intermediate("ffn_pre") == pytest.approx(trace.ffn_pre[der.index], abs=1e-12)
    for der in dv.derive_all(trace, "attn"):
        h, i, _ = der.index
        assert der.intermediate("max") == np.max(trace.scores[h, i])
        assert sum(t.value for t in der.terms) == pytest.approx(der.intermediate("sum"), abs=1e-12)
    for stage, residual, mu in (("ln1_out", trace.residual1, trace.mu1), ("ln2_out", trace.residual2, trace.mu2)):
        for der in dv.derive_all(trace, stage, w):
            t, d = der.index
            assert der.intermediate("input") == residual[t, d]
            assert der.intermediate("mu") == pytest.approx(mu[t], abs=1e-12)
            assert sum(term.value for term in der.terms) / residual.shape[1] == pytest.approx(mu[t], abs=1e-12)


def test_score_terms_are_the_nonzero_products() -> None:
    """The listed terms are exactly the k with Q[i,h,k]·K[j,h,k] ≠ 0, found here by numpy on whole rows."""
    trace = preset_trace(1)
    for h, i, j in np.ndindex(*trace.scores.shape):
        products = trace.Q[i, h, :] * trace.K[j, h, :]
        expected = [f"Q[{i},{h},{k}] × K[{j},{h},{k}]" for k in np.flatnonzero(products)]
        der = dv.derive_score(trace, h, i, j)
        assert [t.label for t in der.terms] == expected
        assert der.intermediate("sqrt_d_k") == np.sqrt(trace.Q.shape[2])


def test_ffn_h_gelu_matches_ops() -> None:
    trace, w = preset_trace(1), build_preset()
    for der in dv.derive_all(trace, "ffn_h", w):
        assert der.value == pytest.approx(float(ops.gelu(der.intermediate("ffn_pre"))), abs=1e-15)


def test_ln2_exposes_its_residual_parts() -> None:
    trace = preset_trace(3)
    der = dv.derive_ln2(trace, 2, 0)
    assert der.intermediate("ln1_out") + der.intermediate("ffn_out") == pytest.approx(der.intermediate("input"))


def test_dict_is_json_and_rounds() -> None:
    der = dv.derive_attn(preset_trace(2), 1, 4, 3)
    d = json.loads(json.dumps(dv.derivation_to_dict(der, decimals=3)))
    assert d["cell"] == "attn[1,4,3]"
    assert d["value"] == round(der.value, 3)
    assert len(d["terms"]) == preset_trace(2).scores.shape[2]
    assert json.loads(json.dumps(der.to_dict()))["value"] == der.value


def test_every_cell_of_every_stage_recomputes_the_trace() -> None:
    """Two routes to one number: each derivation's value (from its own terms) is the trace's, on every stage,
    with some knobs moved."""
    weights = ENCODER.weights_with(bond0=1.7, single_bias=-0.8, eps=0.01)
    trace = forward(weights, ENCODER.sentence(6).token_ids)
    for stage in dv.CELL_STAGES:
        for der in dv.derive_all(trace, stage, weights):
            assert der.value == pytest.approx(dv.trace_value(trace, der), abs=1e-12), (stage, der.index)
            assert der.formula in dv.FORMULAS.values()
            assert all(t.value != 0.0 for t in der.terms)


def test_the_switched_stages_recompute_the_trace() -> None:
    """Each switch turned from its default changes one stage's derivation (scores without √d_k, attn under the
    mask, X_pos without W_P); the other stages read the trace as always. The kernel's test compares the
    browser's derivations with these under every combination of the switches."""
    switches = {"scale": False, "causal": True, "positions": False}
    weights = build_preset()
    trace = forward(weights, ENCODER.sentence(6).token_ids, **switches)
    for stage in ("scores", "attn", "X_pos"):
        for der in dv.derive_all(trace, stage, weights, **switches):
            assert der.value == pytest.approx(dv.trace_value(trace, der), abs=1e-12), (stage, der.index)
            assert all(t.value != 0.0 for t in der.terms)


def test_the_cell_stages_are_every_intermediate_but_the_concatenation() -> None:
    """concat is head_out laid side by side (no arithmetic of its own); tokens are ids."""
    assert set(dv.CELL_STAGES) == {f.name for f in fields(BlockTrace)} - {"tokens", "concat"}
    assert set(dv.STAGES) < set(dv.CELL_STAGES) and list(dv.FORMULAS)[: len(dv.STAGES)] == list(dv.STAGES)


def test_switched_off_derivations_say_what_changed() -> None:
    weights = build_preset()
    unscaled = forward(weights, SENTENCES[0].token_ids, scale=False)
    der = dv.derive(unscaled, "scores", (0, 2, 3), weights, scale=False)
    assert [q.name for q in der.intermediates] == ["d_k", "sum"] and der.value == der.intermediate("sum")
    assert der.formula == dv.FORMULAS["scores_unscaled"]
    masked = forward(weights, SENTENCES[0].token_ids, causal=True)
    der = dv.derive(masked, "attn", (0, 1, 3), weights, causal=True)
    assert der.value == 0.0 and der.n_zero_terms == 3 and len(der.terms) == 2  # keys 0 and 1 only
    off = forward(weights, SENTENCES[0].token_ids, positions=False)
    der = dv.derive(off, "X_pos", (2, 0), weights, positions=False)
    assert der.value == 0.0 and der.formula == dv.FORMULAS["X_pos_off"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: dv.derive_score(t, 2, 0, 0), "head must be 0 … 1, got 2"),
        (lambda t: dv.derive_score(t, 0, 5, 0), "i must be 0 … 4, got 5"),
        (lambda t: dv.derive_attn(t, 0, 0, -1), "j must be 0 … 4, got -1"),
        (lambda t: dv.derive_ln1(t, 0, 16), "d must be 0 … 15, got 16"),
        (lambda t: dv.derive_ln2(t, 1.0, 0), "t must be an integer 0 … 4"),
        (lambda t: dv.derive_ffn_h(t, build_preset(), 0, 32), "k must be 0 … 31, got 32"),
        (lambda t: dv.derive_ffn_h(t, None, 0, 0), "weights must be BlockWeights"),
        (lambda t: dv.derive_score("s1", 0, 0, 0), "trace must be a BlockTrace"),
        (lambda t: dv.derive(t, "W_Q", (0, 0)), "stage must be one of"),
        (lambda t: dv.derive(t, "concat", (0, 0)), "stage must be one of"),
        (lambda t: dv.derive(t, "attn", (0, 0)), "index for attn must be a tuple of 3"),
        (lambda t: dv.derive(t, "Q", (0, 0)), "index for Q must be a tuple of 3"),
        (lambda t: dv.derive(t, "attn", (0, 5, 0)), r"index\[1\] must be an integer 0 … 4, got 5"),
        (lambda t: dv.derive(t, "X_pos", (0, True)), r"index\[1\] must be an integer 0 … 15, got True"),
        (lambda t: dv.derive_all(t, "W_Q"), "stage must be one of"),
        (lambda t: dv.derivation_to_dict(dv.derive_score(t, 0, 0, 0), decimals=-1), "decimals must be"),
    ],
)
def test_bad_arguments_name_the_argument(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call(preset_trace(1))
