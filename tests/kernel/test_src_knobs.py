"""The src side of the explorer's controls: block.forward's switches and the preset's knobs (build_preset_with)."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from transformer_math import build_preset, forward, ops, preset

TOKENS = preset.sentence(3).token_ids


def test_build_preset_with_no_knobs_is_the_preset() -> None:
    a, b = build_preset(), preset.build_preset_with()
    for f in fields(a):
        assert np.array_equal(getattr(a, f.name), getattr(b, f.name)), f.name


def test_each_knob_lists_the_preset_entries_it_sets() -> None:
    weights = build_preset()
    for knob in preset.KNOBS:
        assert knob.entries, knob.name
        for field_name, index in knob.entries:
            value = getattr(weights, field_name)
            assert (value[index] if index else value) == knob.default, (knob.name, field_name, index)
        changed = preset.build_preset_with(**{knob.name: 0.25})
        for field_name, index in knob.entries:
            value = getattr(changed, field_name)
            assert (value[index] if index else value) == 0.25
    # the knobs set disjoint entries, so setting one never moves another
    entries = [e for k in preset.KNOBS for e in k.entries]
    assert len(entries) == len(set(entries))


def test_a_bond_strength_scales_its_score_term() -> None:
    """Bond 0's strength is W_Q[d1, g0]: the adjective's score against a noun grows linearly with it."""
    s = preset.sentence(6)  # 大きい 猫 は 美しい です
    i, j = s.position("大きい"), s.position("猫")
    base = forward(build_preset(), s.token_ids, scale=False)
    doubled = forward(preset.build_preset_with(bond0=2.0), s.token_ids, scale=False)
    term = base.Q[i, 0, 0] * base.K[j, 0, 0]
    assert doubled.scores[0, i, j] - base.scores[0, i, j] == pytest.approx(term, rel=1e-12)


@pytest.mark.parametrize(
    ("values", "message"),
    [({"bond3": 1.0}, r"unknown knob\(s\) \['bond3'\]"), ({"eps": float("nan")}, "knob eps must be a finite"),
     ({"bond0": True}, "knob bond0 must be a finite real number"), ({"eps": 0.0}, "eps must be a positive")],
)  # fmt: skip
def test_bad_knobs_are_named(values, message) -> None:
    with pytest.raises(ValueError, match=message):
        preset.build_preset_with(**values)


def test_forward_defaults_are_the_notes_block() -> None:
    w = build_preset()
    a, b = forward(w, TOKENS), forward(w, TOKENS, scale=True, causal=False, positions=True)
    for f in fields(a):
        assert np.array_equal(getattr(a, f.name), getattr(b, f.name))


def test_switches_change_what_they_say() -> None:
    w = build_preset()
    unscaled = forward(w, TOKENS, scale=False)
    q, k = unscaled.Q.transpose(1, 0, 2), unscaled.K.transpose(1, 0, 2)
    np.testing.assert_allclose(unscaled.scores, q @ k.transpose(0, 2, 1), atol=1e-12)

    masked = forward(w, TOKENS, causal=True)
    assert np.all(masked.attn[:, np.triu(np.ones((5, 5), dtype=bool), k=1)] == 0.0)
    np.testing.assert_allclose(masked.attn.sum(axis=-1), 1.0, atol=1e-15)
    np.testing.assert_array_equal(masked.scores, forward(w, TOKENS).scores)  # scores are kept before the mask
    independent = ops.multi_head_attention(masked.X, masked.X, w.W_Q, w.W_K, w.W_V, w.W_O, w.n_heads,
                                           mask=ops.causal_mask(5))  # fmt: skip
    np.testing.assert_allclose(masked.Y, independent, atol=1e-12)

    no_pe = forward(w, TOKENS, positions=False)
    assert not no_pe.X_pos.any()
    np.testing.assert_array_equal(no_pe.X, w.W_E[TOKENS])


@pytest.mark.parametrize("name", ["scale", "causal", "positions"])
def test_switches_must_be_booleans(name) -> None:
    with pytest.raises(ValueError, match=f"{name} must be True or False, got 1"):
        forward(build_preset(), TOKENS, **{name: 1})
