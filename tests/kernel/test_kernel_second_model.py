"""The kernel's data comes from a model value, and the kernel computes a second, differently sized model as it
does the preset: loaded with tests/second_model.py's data, it equals src on every intermediate, every cell's
derivation, the relations, the detectors and the tokenizer."""

from __future__ import annotations

import json

import numpy as np
import pytest
from second_model import SECOND
from test_kernel import KERNEL, Case, all_cells, mismatches, python_tokenize, run_kernel

from transformer_math import ENCODER, forward
from transformer_site.panels.kernel_data import kernel_data, weights_data

pytestmark = pytest.mark.slow  # runs the kernel in Node


def test_the_kernel_data_is_the_model_value() -> None:
    data = json.loads(json.dumps(kernel_data(SECOND)))  # what a page would embed: JSON, nothing lost
    assert data["vocab"] == list(SECOND.vocab) and data["T"] == SECOND.T == 7
    assert data["n_heads"] == SECOND.h == 3 and data["eps"] == SECOND.eps
    assert data["weights"] == weights_data(SECOND.weights) and np.shape(data["weights"]["W1"]) == (12, 20)
    assert data["categories"] == list(SECOND.categories)
    assert data["bonds"] == [{"query_dim": 1, "key_dim": 0, "head": 1}]
    assert [k["name"] for k in data["knobs"]] == ["bond0", "eps"] and data["firing_threshold"] == 0.5
    assert kernel_data(SECOND) is kernel_data(SECOND) and kernel_data() == kernel_data(ENCODER)
    assert kernel_data()["T"] == 5 and len(kernel_data()["vocab"]) == 16  # the preset's data is untouched


def second_cases() -> list[Case]:
    cases = []
    for s in SECOND.sentences:  # every cell of every stage, the model as it is
        weights = SECOND.weights_with()
        cases.append(Case(s.token_ids.tolist(), weights, {}, {}, all_cells(SECOND.trace(s.number))))
    tokens = SECOND.sentence(2).token_ids
    for knobs, switches in (({"bond0": 3.0}, {"causal": True}), ({"eps": 0.2}, {"scale": False, "positions": False})):
        weights = SECOND.weights_with(**knobs)
        cells = all_cells(forward(weights, tokens, **switches))
        cases.append(Case(tokens.tolist(), weights, switches, knobs, cells))
    return cases


def test_the_kernel_equals_src_on_the_second_model(tmp_path) -> None:
    cases = second_cases()
    results = run_kernel(KERNEL, {"cases": [c.to_json() for c in cases]}, tmp_path, SECOND)["cases"]
    assert mismatches(cases, results, model=SECOND) == []
    assert any(r["relations"] for r in results) and any(r["detectors"] for r in results)  # both were compared


def test_the_kernel_tokenizes_the_second_vocabulary(tmp_path) -> None:
    texts = [s.text for s in SECOND.sentences] + ["".join(s.words) for s in SECOND.sentences]
    texts += ["犬 が 見る", "赤い猫が見る", "これ は 美しい 花 です"]
    result = run_kernel(KERNEL, {"texts": texts}, tmp_path, SECOND)["texts"]
    for text, theirs in zip(texts, result, strict=True):
        ours = python_tokenize(text, SECOND)
        if "error" in ours:
            assert {k: v for k, v in theirs["error"].items() if k in ours["error"]} == ours["error"], text
        else:
            assert theirs == ours, text
