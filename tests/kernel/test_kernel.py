"""The browser's kernel (docs/assets/javascripts/kernel.js) equals src, value by value, within 1e-12.

Node runs the kernel (tests/kernel/run_kernel.js) on cases written here; everything it returns is compared with
``transformer_math`` (forward, tokenizer, the derivation of every stage, and the relations and detectors the
explorer summarises), for the model whose data the kernel was given (the encoder preset here;
test_kernel_second_model.py gives it another):

* the eight example sentences: every intermediate and the derivation of every cell of every stage;
* 1,000+ seeded random cases: random words (and lengths), the preset with random knobs and switches, and fully
  random weights of other sizes; every intermediate and a few random cells' derivations each;
* the tokenizer on valid and invalid text (same error kind, same position, same word);
* the kernel against the independent PyTorch reference on the eight sentences;
* and mutants of the kernel's source (√d_k dropped, ε outside the root, a wrong GELU constant, the mask after
  the softmax, …) must each fail the same equality check.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from transformer_math import ENCODER, SENTENCES, BlockTrace, BlockWeights, build_preset, forward, ops, preset, tokenize
from transformer_math import derivations as dv
from transformer_math import relations as rel
from transformer_math.model import Encoder
from transformer_pages import tryit
from transformer_site.panels.kernel_data import kernel_data, weights_data

pytestmark = pytest.mark.slow  # runs the kernel in Node

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "docs" / "assets" / "javascripts" / "kernel.js"
RUNNER = Path(__file__).with_name("run_kernel.js")
TOLERANCE = tryit.KERNEL_TOLERANCE  # what the page says
N_RANDOM = tryit.KERNEL_RANDOM_CASES
SEED = 20240501
TRACE_NAMES = [f.name for f in fields(BlockTrace) if f.name != "tokens"]


def node_binary() -> str:
    found = shutil.which("node")
    if found is None:
        reason = "Node.js is not installed (apt-get install -y nodejs): the kernel's equality needs it"
        if os.environ.get("CI") or os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return found


# ------------------------------------------------------------ cases


@dataclass
class Case:
    tokens: list[int]
    weights: BlockWeights
    switches: dict[str, bool]
    knobs: dict[str, float] | None = None  # the preset with these knobs; None: random weights (sent in full)
    cells: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)

    def to_json(self) -> dict:
        out = {"tokens": self.tokens, "switches": self.switches, "cells": [[s, list(i)] for s, i in self.cells]}
        if self.knobs is None:
            out["weights"] = {**weights_data(self.weights), "n_heads": self.weights.n_heads, "eps": self.weights.eps}
        else:
            out["knobs"] = self.knobs
        return out

    @property
    def label(self) -> str:
        kind = f"knobs {self.knobs}" if self.knobs is not None else f"random weights d_model={self.weights.d_model}"
        return f"tokens {self.tokens}, {kind}, switches {self.switches}"


def all_cells(trace: BlockTrace) -> list[tuple[str, tuple[int, ...]]]:
    return [(stage, tuple(int(i) for i in idx)) for stage in dv.CELL_STAGES
            for idx in np.ndindex(*getattr(trace, stage).shape)]  # fmt: skip


def random_knobs(rng: np.random.Generator) -> dict[str, float]:
    knobs = {}
    for knob in tryit.KNOB_RANGES:
        if rng.random() < 0.3:
            continue  # leave some at the preset's value
        if knob.log:
            knobs[knob.name] = float(10 ** rng.uniform(np.log10(knob.min), np.log10(knob.max)))
        else:
            knobs[knob.name] = float(rng.uniform(knob.min, knob.max))
    return knobs


def random_weights(rng: np.random.Generator) -> BlockWeights:
    """Dense random weights of other sizes (every entry matters, unlike the sparse preset's)."""
    h = int(rng.choice([1, 2, 4]))
    d_model = int(rng.choice([4, 8, 16])) if h < 4 else int(rng.choice([8, 16]))
    d_ff = int(rng.choice([8, 32]))
    n = rng.standard_normal
    return BlockWeights(
        W_E=n((preset.VOCAB_SIZE, d_model)), W_Q=n((d_model, d_model)), W_K=n((d_model, d_model)),
        W_V=n((d_model, d_model)), W_O=n((d_model, d_model)) / np.sqrt(d_model),
        ln1_gamma=1 + 0.3 * n(d_model), ln1_beta=0.3 * n(d_model), W1=n((d_model, d_ff)), b1=n(d_ff),
        W2=n((d_ff, d_model)) / np.sqrt(d_ff), b2=0.3 * n(d_model), ln2_gamma=1 + 0.3 * n(d_model),
        ln2_beta=0.3 * n(d_model), n_heads=h, eps=float(10 ** rng.uniform(-8, 0)),
    )  # fmt: skip


def random_cells(rng: np.random.Generator, trace: BlockTrace, n: int) -> list[tuple[str, tuple[int, ...]]]:
    cells = []
    for _ in range(n):
        stage = str(rng.choice(dv.CELL_STAGES))
        cells.append((stage, tuple(int(rng.integers(0, size)) for size in getattr(trace, stage).shape)))
    return cells


@lru_cache(maxsize=1)
def cases() -> tuple[Case, ...]:
    weights = build_preset()
    out = []
    for s in SENTENCES:
        trace = forward(weights, s.token_ids)
        out.append(Case(s.token_ids.tolist(), weights, dict(tryit.SWITCH_DEFAULTS), {}, all_cells(trace)))
    rng = np.random.default_rng(SEED)
    for n in range(N_RANDOM):
        T = preset.T if rng.random() < 0.8 else int(rng.integers(1, 9))
        tokens = rng.integers(0, preset.VOCAB_SIZE, size=T).tolist()
        switches = {name: bool(rng.random() < 0.5) for name in tryit.SWITCHES} if n % 3 else dict(
            tryit.SWITCH_DEFAULTS)  # fmt: skip
        if n % 4 == 3:
            case = Case(tokens, random_weights(rng), switches)
        else:
            knobs = random_knobs(rng)
            case = Case(tokens, preset.build_preset_with(**knobs), switches, knobs)
        case.cells = random_cells(rng, forward(case.weights, np.array(tokens), **switches), 6)
        out.append(case)
    return tuple(out)


def run_kernel(source: Path, payload: dict, tmp_path: Path, model: Encoder = ENCODER) -> dict:
    """What the kernel (``source``) computes for ``payload`` once loaded with ``model``'s data."""
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps({"preset": kernel_data(model), **payload}), encoding="utf-8")
    result = subprocess.run([node_binary(), str(RUNNER), str(source), str(cases_file)], capture_output=True,
                            text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, f"node failed on {source.name}:\n{result.stderr[-3000:]}"
    return json.loads(result.stdout)


# ------------------------------------------------------------ the equality check


def _far(a, b) -> bool:
    return not abs(a - b) <= TOLERANCE


def derivation_mismatch(ours, theirs: dict) -> str | None:
    """Where the kernel's derivation differs from src's (labels exactly, numbers within the tolerance)."""
    if theirs["cell"] != ours.cell or theirs["n_zero_terms"] != ours.n_zero_terms:
        return f"{ours.cell}: cell/zero terms {theirs['cell']}, {theirs['n_zero_terms']} ≠ {ours.n_zero_terms}"
    if [t["label"] for t in theirs["terms"]] != [t.label for t in ours.terms]:
        return f"{ours.cell}: term labels {[t['label'] for t in theirs['terms']]} ≠ {[t.label for t in ours.terms]}"
    for t_js, t_py in zip(theirs["terms"], ours.terms, strict=True):
        if _far(t_js["value"], t_py.value) or [f["label"] for f in t_js["factors"]] != [f.label for f in t_py.factors]:
            return f"{ours.cell}: term {t_py.label} = {t_js['value']} ≠ {t_py.value}"
        if any(_far(f_js["value"], f_py.value) for f_js, f_py in zip(t_js["factors"], t_py.factors, strict=True)):
            return f"{ours.cell}: a factor of {t_py.label} differs"
    names = [q["name"] for q in theirs["intermediates"]]
    if names != [q.name for q in ours.intermediates]:
        return f"{ours.cell}: intermediates {names} ≠ {[q.name for q in ours.intermediates]}"
    for q_js, q_py in zip(theirs["intermediates"], ours.intermediates, strict=True):
        if _far(q_js["value"], q_py.value):
            return f"{ours.cell}: {q_py.name} = {q_js['value']} ≠ {q_py.value}"
    if _far(theirs["value"], ours.value) or theirs["formula"] not in dv.FORMULAS:
        return f"{ours.cell}: value {theirs['value']} ≠ {ours.value} (formula {theirs['formula']!r})"
    if dv.FORMULAS[theirs["formula"]] != ours.formula:
        return f"{ours.cell}: the kernel names formula {theirs['formula']!r}, src uses another"
    return None


def relation_rows(trace: BlockTrace, model: Encoder) -> list[tuple]:
    return [(o.bond, o.head, o.query_pos, o.key_pos, o.winner_pos, o.runner_up_pos, o.wins, o.verdict,
             list(o.tied_pos)) for o in rel.relation_outcomes(trace, model)]  # fmt: skip


def mismatches(all_cases, results: list[dict], limit: int = 10, model: Encoder = ENCODER) -> list[str]:
    """Every way the kernel's results differ from src's on these cases (at most ``limit``), the kernel loaded with
    ``model``'s data; [] if none."""
    found: list[str] = []
    for n, (case, result) in enumerate(zip(all_cases, results, strict=True)):
        where = f"case {n} ({case.label})"
        if "error" in result:
            found.append(f"{where}: the kernel raised {result['error']}")
            continue
        trace = forward(case.weights, np.array(case.tokens), **case.switches)
        for name in TRACE_NAMES:
            ours, theirs = getattr(trace, name), np.asarray(result["trace"][name], dtype=np.float64)
            if theirs.shape != ours.shape:
                found.append(f"{where}: {name} has shape {theirs.shape}, src {ours.shape}")
            elif not np.max(np.abs(theirs - ours)) <= TOLERANCE:
                worst = np.unravel_index(np.argmax(np.abs(theirs - ours)), ours.shape)
                found.append(f"{where}: {name}{list(worst)} = {theirs[worst]!r}, src {ours[worst]!r}")
        for (stage, index), theirs in zip(case.cells, result["derivations"], strict=True):
            ours = dv.derive(trace, stage, index, case.weights, **case.switches)
            problem = derivation_mismatch(ours, theirs)
            if problem:
                found.append(f"{where}: {problem}")
        if case.knobs is not None:
            rows = [(r["bond"], r["head"], r["query_pos"], r["key_pos"], r["winner_pos"], r["runner_up_pos"], r["wins"],
                     r["verdict"], r["tied_pos"]) for r in result["relations"]]  # fmt: skip
            if rows != relation_rows(trace, model):
                found.append(f"{where}: relations {rows} ≠ {relation_rows(trace, model)}")
            for r, o in zip(result["relations"], rel.relation_outcomes(trace, model), strict=False):
                if _far(r["weight"], o.weight) or _far(r["margin"], o.margin):
                    found.append(f"{where}: relation {r['weight']}, {r['margin']} ≠ {o.weight}, {o.margin}")
            detectors = [(d["t"], d["k"]) for d in result["detectors"]]
            expected = [(t, k) for t, k, _ in rel.firing_detectors(trace, model)]
            if detectors != expected:
                found.append(f"{where}: firing detectors {detectors} ≠ {expected}")
        if len(found) >= limit:
            break
    return found[:limit]


@pytest.fixture(scope="module")
def kernel_results(tmp_path_factory) -> list[dict]:
    payload = {"cases": [c.to_json() for c in cases()]}
    return run_kernel(KERNEL, payload, tmp_path_factory.mktemp("kernel"))["cases"]


def test_there_are_enough_random_cases() -> None:
    assert len(cases()) == len(SENTENCES) + N_RANDOM >= 1008
    kinds = {(c.knobs is None, tuple(sorted(c.switches.items()))) for c in cases()}
    assert len(kinds) == 2 * 2**3  # preset and random weights, under every combination of the three switches
    assert {len(c.tokens) for c in cases()} >= set(range(1, 9))


def test_kernel_equals_src_on_the_eight_sentences(kernel_results) -> None:
    n = len(SENTENCES)
    assert mismatches(cases()[:n], kernel_results[:n]) == []
    # every cell of every stage was derived on each sentence
    assert all(len(c.cells) == sum(getattr(forward(c.weights, np.array(c.tokens)), s).size for s in
                                   dv.CELL_STAGES) for c in cases()[:n])  # fmt: skip


def test_kernel_equals_src_on_random_inputs_knobs_and_weights(kernel_results) -> None:
    n = len(SENTENCES)
    assert mismatches(cases()[n:], kernel_results[n:]) == []


@pytest.mark.torch
def test_kernel_equals_pytorch_on_the_eight_sentences(kernel_results) -> None:
    pytest.importorskip("torch", reason="the PyTorch reference needs torch==2.13.0 (CPU): pip install -e '.[torch]'")
    from transformer_site.torch_crosscheck import torch_forward

    weights = build_preset()
    for s, result in zip(SENTENCES, kernel_results, strict=False):
        reference = torch_forward(weights, s.token_ids)
        for name in TRACE_NAMES:
            diff = np.max(np.abs(np.asarray(result["trace"][name]) - reference[name]))
            assert diff <= TOLERANCE, f"sentence {s.number}: {name} differs from PyTorch by {diff}"


def test_knob_defaults_are_the_preset(tmp_path) -> None:
    """The kernel's weights with every knob at its default are the preset's, and each knob sets what src sets."""
    knobs = {k.name: k.default for k in preset.KNOBS}
    weights = preset.build_preset_with(**knobs)
    assert all(np.array_equal(getattr(weights, f.name), getattr(build_preset(), f.name)) for f in fields(weights))
    case = Case([0, 12, 8, 4, 15], weights, dict(tryit.SWITCH_DEFAULTS), knobs)
    result = run_kernel(KERNEL, {"cases": [case.to_json()]}, tmp_path)["cases"]
    assert mismatches([case], result) == []


def test_positional_encoding_of_the_pe_panel(tmp_path) -> None:
    sizes = [(tryit.PE_POSITIONS, tryit.PE_D_MODEL), (preset.T, preset.D_MODEL), (1, 2)]
    result = run_kernel(KERNEL, {"pe": sizes}, tmp_path)["pe"]
    for (T, d), theirs in zip(sizes, result, strict=True):
        assert np.max(np.abs(np.asarray(theirs) - ops.positional_encoding(T, d))) <= TOLERANCE


# ------------------------------------------------------------ tokenizer


UNKNOWN = ["犬", "abc", "<img src=x onerror=alert(1)>", '"><script>x()</script>', "😀", "ｘ", "本当", "\u200b",
           "は\u0301"]  # fmt: skip
SPACES = [" ", "\u3000", "\t", "\n", "  ", " \u3000 ", "\x1c", "\u2028", "\ufeff", "\x85"]


def texts() -> list[str]:
    rng = np.random.default_rng(SEED + 1)
    out = [s.text for s in SENTENCES] + ["".join(s.words) for s in SENTENCES]
    out += ["", "   ", "\u3000これ は 美しい 花 です\u3000", "これは美しい花です。", "これ は 美しい 花",
            "これは美しい花ですです"]  # fmt: skip
    for _ in range(400):
        n = int(rng.integers(1, 8))
        words = [str(rng.choice(preset.VOCAB)) if rng.random() < 0.85 else str(rng.choice(UNKNOWN)) for _ in range(n)]
        if rng.random() < 0.5:
            text = "".join(words)
        else:
            text = "".join(w + str(rng.choice(SPACES)) for w in words)
        if rng.random() < 0.2:
            text = str(rng.choice(SPACES)) + text
        out.append(text)
    return out


def python_tokenize(text: str, model: Encoder = ENCODER) -> dict:
    """src's answer in the runner's form: {"ids"} or {"error": {kind, position, word | rest | count}}."""
    try:
        return {"ids": tokenize(text, model).tolist()}
    except ValueError as error:
        message = str(error)
    if m := re.match(r"unknown word (.+?) at position (\d+); vocabulary", message):
        return {"error": {"kind": "unknown_word", "position": int(m[2]), "word": ast.literal_eval(m[1])}}
    if m := re.match(r"no vocabulary word starts at character (\d+) of ", message):
        position = int(m[1])
        rest = text.strip()[position:]
        assert f"(at {rest!r})" in message, message  # the rest of the text is what src names
        return {"error": {"kind": "no_word", "position": position, "rest": rest}}
    if m := re.match(r"the sentence has (\d+) tokens, but the block takes exactly T = (\d+)", message):
        return {"error": {"kind": "length", "count": int(m[1])}}
    raise AssertionError(f"a tokenizer error the kernel test does not know: {message}")


def test_tokenizer_mirrors_src_on_valid_and_invalid_text(tmp_path) -> None:
    all_texts = texts()
    result = run_kernel(KERNEL, {"texts": all_texts}, tmp_path)["texts"]
    kinds = set()
    for text, theirs in zip(all_texts, result, strict=True):
        ours = python_tokenize(text)
        if "error" in ours:
            kinds.add(ours["error"]["kind"])
            theirs_error = {k: v for k, v in theirs.get("error", {}).items() if k in ours["error"]}
            assert theirs_error == ours["error"], f"{text!r}: kernel {theirs}, src {ours}"
        else:
            kinds.add("valid")
            assert theirs == ours, f"{text!r}: kernel {theirs}, src {ours}"
    assert kinds == {"valid", "unknown_word", "no_word", "length"}  # every outcome was exercised


# ------------------------------------------------------------ mutants must fail the check

MUTANTS = {
    "√d_k dropped": ("if (sw.scale) dot /= Math.sqrt(dK);", ""),
    "ε outside the root": ("var root = Math.sqrt(variance + eps);", "var root = Math.sqrt(variance) + eps;"),
    "wrong GELU constant (0.04715)": ("(x + GELU_CUBIC * x ** 3)", "(x + 0.04715 * x ** 3)"),
    "wrong GELU constant (√(π/2))": ("Math.tanh(Math.sqrt(2 / Math.PI) * (x", "Math.tanh(Math.sqrt(Math.PI / 2) * (x"),
    "mask after the softmax": (
        "var weightsRow = softmax(masked);",
        "var weightsRow = softmax(row).map(function (w, jj) { return causal && jj > i ? 0 : w; });",
    ),
    "unbiased variance": ("variance /= d;", "variance /= d - 1;"),
    "sin and cos swapped": ("pe[t][2 * i] = Math.sin(angle);", "pe[t][2 * i] = Math.cos(angle);"),
    "W_O skipped": ("var Y = matmul(concat, W.W_O);", "var Y = concat;"),
    "residual2 from X": ("var residual2 = addRows(ln1_out, ffn_out);", "var residual2 = addRows(X, ffn_out);"),
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_mutant_of_the_kernel_fails_the_equality_check(name: str, tmp_path) -> None:
    find, replace = MUTANTS[name]
    source = KERNEL.read_text(encoding="utf-8")
    assert source.count(find) == 1, f"the mutant {name!r} must change exactly one place of kernel.js: {find!r}"
    mutant = tmp_path / "kernel-mutant.js"
    mutant.write_text(source.replace(find, replace), encoding="utf-8")
    subset = cases()[:: max(1, len(cases()) // 300)]  # 300+ cases across every kind keep it quick
    results = run_kernel(mutant, {"cases": [c.to_json() for c in subset]}, tmp_path)["cases"]
    assert mismatches(subset, results, limit=1), f"the mutant {name!r} passed the equality check"
