"""The intuition page's facts: its plane holds head 0's queries and keys whole, the dot products drawn there are
the block's scores, and its questions' answers agree with what a reader computes from the values shown."""

from __future__ import annotations

import math

import numpy as np

from transformer_math import preset_trace
from transformer_pages.notes import intuition, intuition_questions

D_K = preset_trace(1).Q.shape[-1]


def test_the_plane_loses_nothing_of_head_0():
    assert intuition.plane_is_exact()
    trace = preset_trace(intuition.SENTENCE)
    queries = np.array([intuition.plane_query(p) for p in range(trace.Q.shape[0])])
    scores = queries @ intuition.plane_keys().T / math.sqrt(D_K)
    assert np.allclose(scores, trace.scores[intuition.HEAD], rtol=0, atol=1e-12)


def test_the_dot_product_is_the_query_length_times_the_shadow():
    for p in range(5):
        for j in range(5):
            if intuition.query_length(p):
                expected = intuition.query_length(p) * intuition.shadow(p, j)
                assert math.isclose(intuition.plane_dot(p, j), expected, rel_tol=1e-12, abs_tol=1e-12)


def test_the_worked_query_is_the_most_aligned_with_a_long_query_and_the_flat_one_is_perpendicular():
    assert abs(intuition.cos_to_keys(intuition.FLAT_QUERY)) < 0.2
    assert 0 < intuition.angle_to_keys(intuition.QUERY) < 45


def test_the_lookup_question_has_one_answer_at_its_precision():
    assert round(intuition_questions.lookup_answer(), 2) == round(intuition_questions.lookup_from_shown(), 2)


def test_adding_the_same_number_to_every_score_leaves_the_weights():
    assert intuition_questions.shift_effect() == "same"
    assert np.allclose(intuition.shifted_row_weights(), intuition.row_weights(), rtol=1e-12, atol=0)
    assert intuition_questions.softmax_check()


def test_the_flat_row_is_explained_by_its_angle():
    assert intuition_questions.flat_row_cause() == "perpendicular"
