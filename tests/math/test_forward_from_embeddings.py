import numpy as np
import pytest

from transformer_math import build_preset, forward, preset_trace
from transformer_math.block import forward_from_embeddings


def test_given_the_real_parts_it_is_the_forward_pass():
    trace = preset_trace(3)
    again = forward_from_embeddings(build_preset(), trace.tokens, trace.X_tok, trace.X_pos)
    assert np.array_equal(again.ln2_out, trace.ln2_out)
    assert np.array_equal(again.attn, forward(build_preset(), trace.tokens).attn)


def test_zeroed_position_changes_what_position_drives():
    trace = preset_trace(1)
    without = forward_from_embeddings(build_preset(), trace.tokens, trace.X_tok, 0 * trace.X_pos)
    # これ (position 0) gets 1.0 in d1 from cos 0, which is what makes it query like an adjective
    assert without.scores[0, 0, 3] < trace.scores[0, 0, 3]


@pytest.mark.parametrize("name", ["X_tok", "X_pos"])
def test_a_part_of_the_wrong_shape_is_named(name):
    trace = preset_trace(1)
    parts = {"X_tok": trace.X_tok, "X_pos": trace.X_pos}
    parts[name] = parts[name][:, :4]
    with pytest.raises(ValueError, match=rf"{name} must have shape \(5, 16\) \(T, d_model\), got \(5, 4\)"):
        forward_from_embeddings(build_preset(), trace.tokens, **parts)


def test_a_non_finite_part_is_named():
    trace = preset_trace(1)
    bad = np.array(trace.X_pos)
    bad[2, 7] = np.nan
    with pytest.raises(ValueError, match=r"X_pos\[2, 7\] = nan is not finite"):
        forward_from_embeddings(build_preset(), trace.tokens, trace.X_tok, bad)


@pytest.mark.parametrize("bad", [0, 9, 1.0, True, "1"])
def test_sentence_numbers_are_checked_in_one_place(bad):
    from transformer_math import preset
    from transformer_pages.notes import attention

    for call in (preset.sentence, preset_trace, attention.relation_verdicts):
        with pytest.raises(ValueError, match=rf"sentence_number must be 1 … 8, got {bad!r}"):
            call(bad)
