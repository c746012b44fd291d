"""The browser kernel's decoder (docs/assets/javascripts/kernel.js, ``makeDecoder``) equals src within 1e-12.

Node runs the kernel (tests/kernel/run_decoder.js) loaded with the decoder data a page embeds
(``transformer_site.panels.kernel_data.decoder_data``), on cases written here; everything it returns is compared with
``transformer_math.decoder_model`` and ``transformer_math.generation``:

* forward on the eight sentences, their prompts, a sequence filling the 12 positions and seeded random ids: every
  intermediate of every block, the tied logits and the probabilities;
* the same on seeded random decoders of other sizes (1 to 3 blocks, 1 to 4 heads, biases, γ ≠ 1, β ≠ 0);
* generation for prompts × settings × seeds: the ids, why it stopped, and at every step the uniform number, the
  four distributions (softmax, tempered, after top-k, after top-p) and the attention rows;
* prompts typed as text, and bad input: the same argument is named on both sides;
* mutants of the kernel's decoder (no mask, an untied output, the output read before the last LayerNorm, the
  temperature multiplied, another mulberry32 constant, top-p keeping one word too few) each fail the check.
"""

from __future__ import annotations

import json
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from test_kernel import KERNEL, TOLERANCE, node_binary

from transformer_math import decoder_model as dec
from transformer_math import decoder_preset as dp
from transformer_math import generation as gen
from transformer_site.panels.kernel_data import decoder_data

pytestmark = pytest.mark.slow  # runs the kernel in Node

RUNNER = Path(__file__).with_name("run_decoder.js")
SEED = 20261203
BLOCK_NAMES = ["X", "Q", "K", "V", "scores", "attn", "head_out", "concat", "Y", "residual1", "ln1_out", "ffn_pre",
               "ffn_h", "ffn_out", "residual2", "ln2_out"]  # fmt: skip
SETTINGS = [
    {"topK": 1},
    {"seed": 0},
    {"seed": 1},
    {"seed": 7, "temperature": 0.7, "topK": 3},
    {"seed": 3, "temperature": 1.5, "topP": 0.9},
    {"seed": 11, "temperature": 2.0, "topK": 5, "topP": 0.5, "steps": 4},
    {"seed": 4294967295, "temperature": 3.0, "steps": 1},
    {"seed": 12345, "temperature": 1.2},
]
PY_NAMES = {"topK": "top_k", "topP": "top_p", "temperature": "temperature", "steps": "steps", "seed": "seed"}


def preset() -> dec.Decoder:
    return dp.decoder_preset()


@lru_cache(maxsize=1)
def random_models() -> tuple[dec.Decoder, ...]:
    return (
        dp.random_decoder(1),
        dp.random_decoder(2, d_model=8, h=4, d_ff=12, n_blocks=1, words=5, positions=6),
        dp.random_decoder(3, d_model=6, h=1, d_ff=10, n_blocks=2, words=9, positions=12),
    )


def run_decoder(model: dec.Decoder, payload: dict, tmp_path: Path, source: Path = KERNEL) -> dict:
    """What the kernel (``source``) computes for ``payload`` with ``model``'s data, as a page embeds it (JSON)."""
    cases_file = tmp_path / f"decoder-{abs(hash(model.name))}.json"
    cases_file.write_text(json.dumps({"decoder": decoder_data(model), **payload}), encoding="utf-8")
    result = subprocess.run([node_binary(), str(RUNNER), str(source), str(cases_file)], capture_output=True,
                            text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, f"node failed on {source.name}:\n{result.stderr[-3000:]}"
    return json.loads(result.stdout)


# ------------------------------------------------------------ cases


def forward_cases(model: dec.Decoder, n_random: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    out = []
    if model is preset():
        out += [dp.sentence_ids(n).tolist() for n in range(1, 9)]
        out += [dp.sentence_ids(n)[: 1 + dp.PROMPT_WORDS].tolist() for n in range(1, 9)]
        out += [[model.bos], [model.bos, *([model.id_of("猫")] * (model.n_positions - 1))]]
    for _ in range(n_random):
        T = int(rng.integers(1, model.n_positions + 1))
        out.append([model.bos, *rng.integers(0, model.vocab_size, size=T - 1).tolist()])
    return out


def generate_cases(model: dec.Decoder, n_prompts: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    prompts = [[model.bos]]
    if model is preset():
        prompts += [dp.sentence_ids(n)[: 1 + dp.PROMPT_WORDS].tolist() for n in range(1, 9)]
        prompts.append(model.ids("<bos> 私 私 を").tolist())
        prompts.append([model.bos, *([model.id_of("花")] * (model.n_positions - 1))])  # fills every position
    for _ in range(n_prompts):
        T = int(rng.integers(1, model.n_positions))
        prompts.append([model.bos, *rng.integers(0, model.eos, size=T - 1).tolist()])
    return [{"ids": p, "settings": s} for p in prompts for s in SETTINGS]


def src_generation(model: dec.Decoder, case: dict) -> gen.Generation:
    kwargs = {PY_NAMES[k]: v for k, v in case["settings"].items()}
    return gen.generate(model, np.array(case["ids"]), **kwargs)


# ------------------------------------------------------------ the equality check


def _diff(theirs, ours) -> float:
    theirs, ours = np.asarray(theirs, dtype=np.float64), np.asarray(ours, dtype=np.float64)
    if theirs.shape != ours.shape:
        return np.inf
    return float(np.max(np.abs(theirs - ours))) if ours.size else 0.0


def forward_mismatches(model: dec.Decoder, cases: list[list[int]], results: list[dict], limit: int = 10) -> list[str]:
    found = []
    for ids, result in zip(cases, results, strict=True):
        if "error" in result:
            found.append(f"{ids}: the kernel raised {result['error']['message']}")
            continue
        trace = dec.forward(model, np.array(ids))
        pairs = [("X_tok", result["X_tok"], trace.X_tok), ("X_pos", result["X_pos"], trace.X_pos),
                 ("logits", result["logits"], trace.logits), ("probs", result["probs"], trace.probs)]  # fmt: skip
        if len(result["blocks"]) != len(trace.blocks):
            found.append(f"{ids}: {len(result['blocks'])} blocks, src {len(trace.blocks)}")
            continue
        for b, (theirs, ours) in enumerate(zip(result["blocks"], trace.blocks, strict=True)):
            pairs += [(f"blocks[{b}].{name}", theirs[name], getattr(ours, name)) for name in BLOCK_NAMES]
        for name, theirs, ours in pairs:
            if not _diff(theirs, ours) <= TOLERANCE:
                found.append(f"{model.name} {ids}: {name} differs by {_diff(theirs, ours)!r}")
        if len(found) >= limit:
            break
    return found[:limit]


def generation_mismatches(model: dec.Decoder, cases: list[dict], results: list[dict], limit: int = 10) -> list[str]:
    found = []
    for case, result in zip(cases, results, strict=True):
        where = f"{model.name} {case['ids']} {case['settings']}"
        if "error" in result:
            found.append(f"{where}: the kernel raised {result['error']['message']}")
            continue
        ours = src_generation(model, case)
        if result["tokens"] != ours.tokens.tolist() or result["generated"] != ours.tokens.tolist():
            found.append(f"{where}: ids {result['tokens']}, src {ours.tokens.tolist()}")
        elif result["stopped"] != ours.stopped or len(result["steps"]) != len(ours.steps):
            found.append(f"{where}: stopped {result['stopped']} after {len(result['steps'])}, src {ours.stopped}")
        else:
            for n, (theirs, step) in enumerate(zip(result["steps"], ours.steps, strict=True)):
                c = theirs["choice"]
                pairs = [("logits", c["logits"], step.choice.logits), ("probs", c["probs"], step.choice.probs),
                         ("tempered", c["tempered"], step.choice.tempered),
                         ("after top-k", c["afterTopK"], step.choice.after_top_k),
                         ("final", c["final"], step.choice.final)]  # fmt: skip
                pairs += [(f"attn of block {b}", a, step.attn[b]) for b, a in enumerate(theirs["attn"])]
                if c["u"] != step.choice.u or theirs["context"] != step.context.tolist():
                    found.append(f"{where}: step {n}: u {c['u']} or context differs from src's {step.choice.u}")
                for name, a, b in pairs:
                    if not _diff(a, b) <= TOLERANCE:
                        found.append(f"{where}: step {n}: {name} differs by {_diff(a, b)!r}")
        if len(found) >= limit:
            break
    return found[:limit]


@pytest.fixture(scope="module")
def preset_results(tmp_path_factory) -> tuple[list, dict]:
    forward_ids = forward_cases(preset(), 60, SEED)
    generate = generate_cases(preset(), 6, SEED + 1)
    payload = {"forward": forward_ids, "generate": generate}
    return forward_ids, generate, run_decoder(preset(), payload, tmp_path_factory.mktemp("decoder"))


def test_the_decoder_data_is_the_preset() -> None:
    data = json.loads(json.dumps(decoder_data()))  # what the page embeds: JSON, nothing lost
    m = preset()
    assert data["vocab"] == list(m.vocab) and data["heads"] == m.n_heads == 2 and data["eps"] == m.eps
    assert np.array_equal(data["weights"]["W_E"], m.W_E) and np.array_equal(data["weights"]["W_P"], m.W_P)
    for theirs, ours in zip(data["weights"]["blocks"], m.blocks, strict=True):
        assert np.array_equal(theirs["W_O"], ours.W_O) and np.array_equal(theirs["gamma2"], ours.ln2_gamma)
        assert set(theirs) == {"W_Q", "W_K", "W_V", "W_O", "W1", "b1", "W2", "b2", "gamma1", "beta1", "gamma2",
                               "beta2"}  # fmt: skip
    assert (data["bos"], data["eos"]) == (m.bos, m.eos)


def test_forward_equals_src_on_the_sentences_prompts_and_random_ids(preset_results) -> None:
    forward_ids, _, results = preset_results
    assert len(forward_ids) >= 70 and {len(ids) for ids in forward_ids} == set(range(1, preset().n_positions + 1))
    assert forward_mismatches(preset(), forward_ids, results["forward"]) == []


def test_forward_equals_src_on_random_decoders_of_other_sizes(tmp_path) -> None:
    for n, model in enumerate(random_models()):
        ids = forward_cases(model, 25, SEED + 10 + n)
        assert forward_mismatches(model, ids, run_decoder(model, {"forward": ids}, tmp_path)["forward"]) == []


def test_generation_equals_src_step_by_step(preset_results) -> None:
    _, cases, results = preset_results
    assert generation_mismatches(preset(), cases, results["generate"]) == []
    stopped = {r["stopped"] for r in results["generate"]}
    assert stopped == {"eos", "steps", "positions"}  # every way of stopping was exercised


def test_generation_equals_src_on_random_decoders(tmp_path) -> None:
    for n, model in enumerate(random_models()):
        cases = generate_cases(model, 3, SEED + 20 + n)
        assert generation_mismatches(model, cases, run_decoder(model, {"generate": cases}, tmp_path)["generate"]) == []


def test_greedy_completes_every_sentence_as_src_does(preset_results) -> None:
    _, cases, results = preset_results
    sentences = {tuple(dp.sentence_ids(n)[: 1 + dp.PROMPT_WORDS]): dp.sentence_ids(n).tolist() for n in range(1, 9)}
    completed = 0
    for case, result in zip(cases, results["generate"], strict=True):
        if case["settings"] == {"topK": 1} and tuple(case["ids"]) in sentences:
            assert result["tokens"] == sentences[tuple(case["ids"])]
            completed += 1
    assert completed == 8


# ------------------------------------------------------------ prompts and bad input

PROMPTS = ["これ は 美しい", "\u3000私\tは 猫 ", "大きい　猫 は 美しい です", "", "   ", "犬", "これ は 犬",
           "<img src=x onerror=alert(1)>", "これは美しい", " ".join(["猫"] * 11), " ".join(["猫"] * 12)]  # fmt: skip


def src_prompt(text: str) -> dict:
    try:
        return {"ids": gen.prompt_ids(preset(), text).tolist()}
    except ValueError as error:
        return {"error": str(error).split(" ")[0].rstrip(":")}


def test_prompts_typed_as_text_are_read_as_src_reads_them(tmp_path) -> None:
    results = run_decoder(preset(), {"prompts": PROMPTS}, tmp_path)["prompts"]
    outcomes = set()
    for text, theirs in zip(PROMPTS, results, strict=True):
        ours = src_prompt(text)
        if "ids" in ours:
            assert theirs == ours, text
        else:
            assert theirs["error"]["argument"] == "prompt" and ours["error"] == "prompt", (text, theirs, ours)
            outcomes.add(theirs["error"]["kind"])
    assert outcomes == {"empty", "unknown_word", "length"}


BAD = [
    ([], {}, "prompt"),
    ([16] * 13, {}, "prompt"),
    ([16, 18], {}, "prompt"),
    ([16], {"temperature": 0}, "temperature"),
    ([16], {"temperature": -1}, "temperature"),
    ([16], {"temperature": "NaN"}, "temperature"),
    ([16], {"topP": 0}, "topP"),
    ([16], {"topP": 1.5}, "topP"),
    ([16], {"topK": 0}, "topK"),
    ([16], {"topK": 2.5}, "topK"),
    ([16], {"steps": 0}, "steps"),
    ([16], {"seed": -1}, "seed"),
    ([16], {"seed": 2**32}, "seed"),
]


@pytest.mark.parametrize(("ids", "settings", "argument"), BAD)
def test_bad_input_names_the_same_argument_in_the_kernel_and_in_src(ids, settings, argument, tmp_path) -> None:
    # JSON has no NaN: the kernel gets the text "NaN" (which it must refuse as well), src the float
    theirs = run_decoder(preset(), {"generate": [{"ids": ids, "settings": settings}]}, tmp_path)["generate"][0]
    assert "error" in theirs and theirs["error"]["argument"] == argument, theirs
    py_settings = {PY_NAMES[k]: (float(v) if v == "NaN" else v) for k, v in settings.items()}
    with pytest.raises(ValueError, match=PY_NAMES.get(argument, argument)):
        gen.generate(preset(), np.array(ids, dtype=np.int64), **py_settings)


# ------------------------------------------------------------ mutants must fail the check

MUTANTS = {
    "no causal mask in the decoder": (
        "var DECODER_SWITCHES = { scale: true, causal: true, positions: true };",
        "var DECODER_SWITCHES = { scale: true, causal: false, positions: true };",
    ),
    "the output layer not tied (W_E's rows shifted)": (
        "return W.W_E.map(function (embedding) {",
        "return W.W_E.map(function (_, w) { var embedding = W.W_E[(w + 1) % W.W_E.length];",
    ),
    "the output read before the last LayerNorm": (
        "var logits = X.map(function (row) {",
        "var logits = blocks[blocks.length - 1].residual2.map(function (row) {",
    ),
    "the temperature multiplies": ("return x / s.temperature;", "return x * s.temperature;"),
    "another mulberry32 constant": ("a = (a + 0x6d2b79f5) | 0;", "a = (a + 0x6d2b79f3) | 0;"),
    "top-p keeps one word too few": (
        "if (before < topP) keep[id] = true;",
        "if (before + p[id] < topP) keep[id] = true;",
    ),
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_mutant_of_the_decoder_fails_the_equality_check(name: str, preset_results, tmp_path) -> None:
    find, replace = MUTANTS[name]
    source = KERNEL.read_text(encoding="utf-8")
    assert source.count(find) == 1, f"the mutant {name!r} must change exactly one place of kernel.js: {find!r}"
    mutant = tmp_path / "kernel-mutant.js"
    mutant.write_text(source.replace(find, replace), encoding="utf-8")
    forward_ids, cases, _ = preset_results
    results = run_decoder(preset(), {"forward": forward_ids[:20], "generate": cases[::3]}, tmp_path, mutant)
    problems = forward_mismatches(preset(), forward_ids[:20], results["forward"], limit=1)
    problems += generation_mismatches(preset(), cases[::3], results["generate"], limit=1)
    assert problems, f"the mutant {name!r} passed the equality check"
