"""The model as a value: the encoder preset's sizes from its weights, its cached traces, the checks a model makes
of itself, and no module of the math layer reading a preset from a global."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from second_model import SECOND, VOCAB, second_weights

import transformer_math
from transformer_math import ENCODER, build_preset, preset, preset_trace, preset_weights
from transformer_math.model import Bond, Knob, Model, Sentence, sentences_over

MATH = Path(transformer_math.__file__).parent


def test_the_encoder_presets_sizes_are_read_off_its_weights_and_agree_with_its_rules() -> None:
    assert (ENCODER.T, ENCODER.d_model, ENCODER.h, ENCODER.d_k, ENCODER.d_ff, ENCODER.vocab_size, ENCODER.eps) == (
        preset.T, preset.D_MODEL, preset.N_HEADS, preset.D_K, preset.D_FF, preset.VOCAB_SIZE, preset.EPS)  # fmt: skip
    assert ENCODER.name == "japanese-mini" and ENCODER.vocab == preset.VOCAB and ENCODER.sentences == preset.SENTENCES
    assert ENCODER.word_id == preset.WORD_ID and ENCODER.knob_names == preset.KNOB_NAMES
    assert ENCODER.categories == tuple(preset.LEXICON[w][0] for w in preset.VOCAB)


def test_the_preset_names_are_the_values_weights_and_traces() -> None:
    assert preset_weights() is ENCODER.weights and preset_trace(4) is ENCODER.trace(4)
    assert preset.sentence(2) is ENCODER.sentence(2) is ENCODER.sentences[1]
    fresh = build_preset()
    assert all(np.array_equal(getattr(fresh, n), getattr(ENCODER.weights, n)) for n in ("W_E", "W_Q", "W1", "b1"))
    for n in ("W_E", "ln2_beta"):
        assert not getattr(ENCODER.weights, n).flags.writeable


def test_a_model_copies_its_weights_and_leaves_the_callers_alone() -> None:
    weights = second_weights()
    model = replace(SECOND, weights=weights)
    weights.W_Q[0, 0] = 99.0  # the caller's array is still writable, and the model did not see the write
    assert model.weights.W_Q[0, 0] != 99.0 and not model.weights.W_Q.flags.writeable


def test_each_model_caches_its_own_traces() -> None:
    other = replace(SECOND, weights=second_weights(seed=1))  # a variant: a new value with empty caches
    assert other.trace(1) is other.trace(1) and other.trace(1) is not SECOND.trace(1)
    assert not np.array_equal(other.trace(1).attn, SECOND.trace(1).attn)
    assert other != SECOND and len({other, SECOND, ENCODER}) == 3  # values compared by identity


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"vocab": VOCAB[:-1]}, "second: W_E has 11 rows but the vocabulary 10 words"),
        ({"vocab": (*VOCAB[:-1], "犬")}, "vocab must be non-empty words, each once"),
        ({"T": 5}, "second: sentence 1 has 7 words and 7 ids, the model takes up to T = 5"),
        ({"T": 8}, "second: sentence 1 has 7 words, the block takes T = 8"),
        ({"T": 0}, "T must be a positive integer, got 0"),
        ({"sentences": SECOND.sentences[1:]}, "sentence 1 is numbered 2: the sentences are numbered 1 … in order"),
        ({"sentences": (Sentence(1, ("犬",) * 7, (1,) * 7),)}, "word 0 '犬' has id 1, the vocabulary says 0"),
        ({"bonds": (Bond("b", 1, 0, column=5, head=0),)}, "says head 0, but column 5 lies in head 1 \\(d_k = 4\\)"),
        ({"bonds": (Bond("b", 12, 0, column=0, head=0),)}, "bond 'b' lies outside W_Q/W_K \\(12 × 12\\)"),
        ({"categories": (0, 1)}, "categories must give one dimension 0 … 11 per word of the 11-word vocabulary"),
        ({"knobs": (Knob("k", 1.0, (("W_Q", (12, 0)),)),)}, "knob 'k' names W_Q\\[12, 0\\], which the weights lack"),
        ({"knobs": (Knob("k", 1.0, (("W_P", (0, 0)),)),)}, "knob 'k' names W_P\\[0, 0\\]"),
        ({"weights": {"W_E": np.eye(11)}}, "weights must be BlockWeights, got dict"),
    ],
)
def test_a_model_that_contradicts_itself_is_an_error_naming_what(changes, message) -> None:
    with pytest.raises(ValueError, match=message):
        replace(SECOND, **changes)


def test_sentences_over_a_vocabulary_name_the_unknown_word() -> None:
    assert sentences_over(VOCAB, "犬 が 見る")[0].ids == (0, 8, 6)
    with pytest.raises(ValueError, match="sentence 2 \\('花 が 見る'\\): '花' is not in the vocabulary"):
        sentences_over(VOCAB, "犬 が 見る", "花 が 見る")


def test_a_model_kind_must_say_how_it_runs() -> None:
    bare = Model(name="bare", vocab=("a",), T=1, sentences=sentences_over(("a",), "a"))
    with pytest.raises(NotImplementedError, match="Model does not define forward"):
        bare.trace(1)
    with pytest.raises(ValueError, match="sentence_number must be 1 … 1, got 2"):
        bare.sentence(2)


def test_bad_knob_values_are_named() -> None:
    with pytest.raises(ValueError, match=r"unknown knob\(s\) \['bond1'\]; the knobs are \['bond0', 'eps'\]"):
        SECOND.weights_with(bond1=1.0)
    with pytest.raises(ValueError, match="knob eps must be a finite real number, got nan"):
        SECOND.weights_with(eps=float("nan"))
    assert replace(SECOND.weights_with(), eps=1e-6).W_Q.flags.writeable  # a fresh, writable copy


# --- the bar of issue 31: no module constant of the math layer is derived from a preset ---------------------


def _math_modules() -> list[Path]:
    return sorted(p for p in MATH.glob("*.py") if p.name not in ("preset.py", "__init__.py"))


def test_no_module_but_the_preset_reads_a_preset_from_a_global() -> None:
    """Outside preset.py, the math layer imports from it only the model value (a default argument), never a
    constant, and no module-level name is computed from that value."""
    assert [problem for path in _math_modules() for problem in _preset_globals(path)] == []


def _preset_globals(path: Path) -> list[str]:
    problems = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        imported = [a.name for a in node.names] if isinstance(node, ast.Import | ast.ImportFrom) else []
        from_preset = isinstance(node, ast.ImportFrom) and node.module == "preset"
        if (from_preset and imported != ["ENCODER"]) or "preset" in imported:
            problems.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            if any(isinstance(n, ast.Name) and n.id == "ENCODER" for n in ast.walk(node.value)):
                problems.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return problems
