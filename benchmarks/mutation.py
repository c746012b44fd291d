"""Mutation score: do the checks catch what they claim to catch?

(a) Doc values, in-process: for every checked number in docs/**/*.md, change the last digit of its literal
    (9 → 8, any other d → d+1) in the page text, collect that page again with the collector's own functions
    (find_checked_numbers, check, number_ids) and require that exactly that ``page.md:line`` fails.
(c) Numbers a reader sees, chosen without the checked-number syntax: every decimal and every integer of two or
    more digits in what the page shows — prose, tables, math, a token's literal or a claim's words, a citation's
    locator; not code, comments, link targets, a token's expression or source, nor digits glued to a name (d12,
    W1), nor section numbers after § (the exemption the § marks; the lint checks those).
    Its last digit is changed; the page must then fail the check or the lint (pages that are not clean before are
    listed, not scored).
(d) Checked claims: each condition is negated (``not (…)``); exactly that claim's ``page.md:line`` must fail.
(b) src mutants: each mutation is applied to a temporary copy of the project (src, tests, docs, snippets,
    mkdocs.yml, pyproject.toml); ``pytest -x tests/math tests/docs`` runs there with PYTHONPATH on the copy's
    src, and must fail. The one equivalent mutant (softmax without the max-subtraction) must pass the same
    suite AND change no value: every checked number's live value formats the same, and every intermediate of
    the eight sentences' traces is compared with the original (largest difference printed).

Usage: ``.venv/bin/python benchmarks/mutation.py [--part a|b|c|d] [--jobs 2] [--only NAME]``. Prints a score per
part and in total; exits 1 unless every mutant is killed and the equivalent mutant survives unchanged.
"""

# ruff: noqa: E501  (the mutant table reads best one mutant per line)
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COPIED = ("src", "tests", "docs", "snippets", "mkdocs.yml", "pyproject.toml")
SUITE = ("tests/math", "tests/docs")


# ---------------------------------------------------------------------------------------------- (a) doc values


def mutate_last_digit(literal: str) -> tuple[str, int]:
    """The literal with its last digit changed, and that digit's index in the literal."""
    index = max(i for i, ch in enumerate(literal) if ch.isdigit())
    digit = int(literal[index])
    new = "8" if digit == 9 else str(digit + 1)
    return literal[:index] + new + literal[index + 1 :], index


def doc_value_mutants(docs: Path = REPO / "docs") -> tuple[int, int, list[str]]:
    """(killed, total, problems) over every checked number of every page."""
    sys.path.insert(0, str(REPO / "src"))
    from transformer_site.checked import check, find_checked_numbers, number_ids, verify
    from transformer_site.checked.verify import display_path, markdown_files, read_page

    # Expressions are pure over a read-only namespace, so each is evaluated once (speed only: check() still
    # formats and compares every number of the mutated page).
    verify.evaluate = cache(verify.evaluate)
    killed, total, problems = 0, 0, []
    for page in markdown_files([docs]):
        text, where = read_page(page), display_path(page, REPO)
        numbers = find_checked_numbers(text, where)
        ids = number_ids(numbers)
        baseline = [check(n) for n in numbers]
        if not all(o.ok for o in baseline):
            problems.append(f"{where}: not clean before mutation: {[o.message for o in baseline if not o.ok][:3]}")
            continue
        for number, number_id in zip(numbers, ids, strict=True):
            if number.kind != "number":
                continue  # claims are part (d), markers and citations part (c)
            total += 1
            new_literal, index = mutate_last_digit(number.literal)
            at = number.literal_start + index
            mutated = text[:at] + new_literal[index] + text[at + 1 :]
            again = find_checked_numbers(mutated, where)
            failing = [i for n, i in zip(again, number_ids(again), strict=True) if not check(n).ok]
            if failing == [number_id]:
                killed += 1
            else:
                problems.append(f"{number_id}: {number.literal} → {new_literal}: failing {failing or 'nothing'}")
    return killed, total, problems


# ------------------------------------------------------------------------------- (c) numbers a reader sees

# 0.834, 512, 2017 — not d12 or W1 (names), not 1.6.1's ".1", not §3.5: a section number, marked as one by its § (the lint
# holds the notes' § numbers to §0 … §10, and a citation's locator to those its source lists)
SEEN_NUMBER = re.compile(r"(?<![A-Za-z0-9_.§])(?:\d+\.\d+|\d{2,})(?![0-9])")


def seen_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds what a reader sees: prose, tables and math, and of each token only its shown part."""
    from transformer_site.page.tokens import find_checked_numbers, scan

    spans = [(r.start, r.end) for r in scan(text) if r.kind in ("text", "math")]
    tokens = find_checked_numbers(text, "page.md")
    hidden = [(t.start, t.end) for t in tokens]  # a token's inside, inside math too, is hidden …
    spans = [piece for span in spans for piece in _minus(span, hidden)]
    for t in tokens:  # … except what the reader sees of it
        if t.kind in ("number", "marker", "claim"):
            spans.append((t.literal_start, t.literal_end))
        elif t.kind == "cite" and t.source:
            at = text.index(t.source, t.start)
            spans.append((at, at + len(t.source)))
    return sorted(spans)


def _minus(span: tuple[int, int], holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    pieces, (start, end) = [], span
    for a, b in sorted(holes):
        if b <= start or a >= end:
            continue
        if a > start:
            pieces.append((start, a))
        start = max(start, b)
    if start < end:
        pieces.append((start, end))
    return pieces


def seen_number_mutants(docs: Path = REPO / "docs") -> tuple[int, int, list[str], list[str]]:
    """(killed, total, survivors, pages skipped) over every number a reader sees on every page."""
    sys.path.insert(0, str(REPO / "src"))
    from transformer_site.checked import check, find_checked_numbers, lint_text, verify
    from transformer_site.checked.verify import display_path, markdown_files, read_page
    from transformer_site.page.tokens import LineIndex

    verify.evaluate = cache(verify.evaluate) if not hasattr(verify.evaluate, "cache_info") else verify.evaluate

    def clean(text: str, where: str) -> bool:
        return all(check(n).ok for n in find_checked_numbers(text, where)) and not lint_text(text, where)

    killed, total, survivors, skipped = 0, 0, [], []
    for page in markdown_files([docs]):
        text, where = read_page(page), display_path(page, REPO)
        if not clean(text, where):
            skipped.append(where)
            continue
        lines = LineIndex(text)
        for start, end in seen_spans(text):
            for m in SEEN_NUMBER.finditer(text, start, end):
                total += 1
                new, _ = mutate_last_digit(m[0])
                mutated = text[: m.start()] + new + text[m.end() :]
                if clean(mutated, where):
                    survivors.append(f"{where}:{lines.line(m.start())}: {m[0]} → {new} passes check and lint")
                else:
                    killed += 1
    return killed, total, survivors, skipped


# ------------------------------------------------------------------------------------------ (d) claims


def claim_negation_mutants(docs: Path = REPO / "docs") -> tuple[int, int, list[str]]:
    """(killed, total, problems): each claim's condition negated fails exactly its page.md:line."""
    sys.path.insert(0, str(REPO / "src"))
    from transformer_site.checked import check, find_checked_numbers, number_ids
    from transformer_site.checked.verify import display_path, markdown_files, read_page

    killed, total, problems = 0, 0, []
    for page in markdown_files([docs]):
        text, where = read_page(page), display_path(page, REPO)
        numbers = find_checked_numbers(text, where)
        ids = number_ids(numbers)
        for number, number_id in zip(numbers, ids, strict=True):
            if number.kind != "claim" or number.problem:
                continue
            total += 1
            at = text.index(number.expression, number.literal_end)
            mutated = text[:at] + f"not ({number.expression})" + text[at + len(number.expression) :]
            again = find_checked_numbers(mutated, where)
            failing = [
                i for n, i in zip(again, number_ids(again), strict=True) if n.kind == "claim" and not check(n).ok
            ]
            if failing == [number_id]:
                killed += 1
            else:
                problems.append(f"{number_id}: not ({number.expression}): failing {failing or 'nothing'}")
    return killed, total, problems


# ---------------------------------------------------------------------------------------------- (b) src mutants


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    edits: tuple[tuple[str, str], ...]  # (old, new): old must occur exactly once
    equivalent: bool = False


OPS = "src/transformer_math/ops.py"
BW = "src/transformer_math/backward.py"
# fmt: off
MUTANTS = (
    # The six the issue names.
    Mutant("no √d_k scaling", OPS, (("scores = scores / np.sqrt(q.shape[-1])", "scores = scores"),)),
    Mutant("ε 1e-5 → 1e-3", OPS, (("LAYER_NORM_EPS = 1e-5", "LAYER_NORM_EPS = 1e-3"),)),
    Mutant(
        "unbiased variance",
        OPS,
        (("var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)", "var = ((x - mu) ** 2).sum(axis=-1, keepdims=True) / (x.shape[-1] - 1)"),),
    ),
    Mutant("GELU 0.044715 → 0.05", OPS, (("GELU_CUBIC_COEFF = 0.044715", "GELU_CUBIC_COEFF = 0.05"),)),
    Mutant("PE exponent 2i/d → i/d", OPS, (("base ** (-2.0 * i / d_model)", "base ** (-1.0 * i / d_model)"),)),
    Mutant(
        "swap W_Q and W_K",
        "src/transformer_math/block.py",
        (("Q = ops.split_heads(X @ weights.W_Q, h)", "Q = ops.split_heads(X @ weights.W_K, h)"),
         ("K = ops.split_heads(X @ weights.W_K, h)", "K = ops.split_heads(X @ weights.W_Q, h)")),
    ),
    # One more per ops function.
    Mutant("softmax: normalise over all axes", OPS, (("e / np.sum(e, axis=axis, keepdims=True)", "e / np.sum(e)"),)),
    Mutant("layer_norm: ε outside the root", OPS, (("np.sqrt(var + eps)", "(np.sqrt(var) + eps)"),)),
    Mutant("gelu: √(2/π) → 2/π", OPS, (("GELU_SQRT_2_OVER_PI = float(np.sqrt(2.0 / np.pi))", "GELU_SQRT_2_OVER_PI = float(2.0 / np.pi)"),)),
    Mutant(
        "relu: leaky (0.01·x below 0)",
        OPS,
        (("return np.maximum(np.asarray(x, dtype=np.float64), 0.0)", "x = np.asarray(x, dtype=np.float64)\n    return np.maximum(x, 0.01 * x)"),),
    ),
    Mutant(
        "positional_encoding: sin and cos swapped",
        OPS,
        (("pe[:, 0::2] = np.sin(angles)", "pe[:, 0::2] = np.cos(angles)"),
         ("pe[:, 1::2] = np.cos(angles)", "pe[:, 1::2] = np.sin(angles)")),
    ),
    Mutant("pe_wavelengths: π/ω instead of 2π/ω", OPS, (("return 2.0 * np.pi / pe_angular", "return np.pi / pe_angular"),)),
    Mutant("pe_rotation: transposed", OPS, (("np.array([[c, s], [-s, c]])", "np.array([[c, -s], [s, c]])"),)),
    Mutant("causal_mask: one future position visible", OPS, (("dtype=bool), k=1)", "dtype=bool), k=2)"),)),
    Mutant("padding_mask: masks queries, not keys", OPS, (("np.where(valid, 0.0, -np.inf)[None, :]", "np.where(valid, 0.0, -np.inf)[:, None]"),)),
    Mutant("scaled_dot_product_attention: mask ignored", OPS, (("masked = scores if mask is None else scores + mask", "masked = scores"),)),
    Mutant("split_heads: interleaved columns", OPS, (("return x.reshape(T, h, width // h)", "return x.reshape(T, width // h, h).swapaxes(1, 2)"),)),
    Mutant("concat_heads: transposed", OPS, (("return x.reshape(T, h * d_k)", "return x.transpose(0, 2, 1).reshape(T, h * d_k)"),)),
    Mutant("multi_head_attention: V from the query side", OPS, (("v = split_heads(x_kv @ W_V, h)", "v = split_heads(x_q @ W_V, h)"),)),
    Mutant("ffn: bias b1 subtracted", OPS, (("pre = x @ W1 + b1", "pre = x @ W1 - b1"),)),
    Mutant("post_ln: residual added after the norm", OPS, (("return norm(x + sublayer(x))", "return x + norm(sublayer(x))"),)),
    Mutant("pre_ln: residual path normalised", OPS, (("return x + sublayer(norm(x))", "return norm(x) + sublayer(norm(x))"),)),
    # The backward pass: one per stage (the three the issue names first).
    Mutant("layer_norm_backward: mean term dropped", BW, (("mean=np.zeros_like(x) - d_x_hat.sum(axis=-1, keepdims=True) / d / sigma,", "mean=np.zeros_like(x),"),)),
    Mutant("activation_backward: ReLU′ for GELU′", BW, (("return d_ffn_h * gelu_derivative(ffn_pre)", "return d_ffn_h * (ffn_pre > 0)"),)),
    Mutant("softmax_jacobian: off-diagonal forgotten", BW, (("return diagonal - a[..., :, None] * a[..., None, :]", "return (diagonal - a[..., :, None] * a[..., None, :]) * np.eye(a.shape[-1])"),)),
    Mutant("layer_norm_backward: variance term dropped", BW, (("variance=-x_hat * (d_x_hat * x_hat).sum(axis=-1, keepdims=True) / d / sigma,", "variance=np.zeros_like(x),"),)),
    Mutant("layer_norm_backward: γ forgotten", BW, (("d_x_hat = d_y * gamma", "d_x_hat = d_y"),)),
    Mutant("gelu_derivative: the tanh′ term dropped", "src/transformer_math/activations.py", (("return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t**2) * du_dx", "return 0.5 * (1.0 + t)"),)),
    Mutant("scores_backward: no 1/√d_k", BW, (("scale = 1.0 / np.sqrt(Q.shape[-1])", "scale = 1.0"),)),
    Mutant("residual_backward: skip path dropped", BW, (("return d_sum + d_through_sublayer", "return d_through_sublayer"),)),
    Mutant("weighted_sum_backward: d_V through attn, not attnᵀ", BW, (("d_V = (attn.transpose(0, 2, 1) @ d_out)", "d_V = (attn @ d_out)"),)),
    Mutant("cross_entropy_backward: one-hot not subtracted", BW, (("d_logits[target] -= 1.0", "d_logits[target] -= 0.0"),)),
    Mutant("tied_output_backward: W_E's output share dropped", BW, (("d_W_E=d_W_E_output + d_W_E_input,", "d_W_E=d_W_E_input,"),)),
    Mutant("embedding_backward: the hidden word's row counted", BW, (("keep[hidden_position] = False", "keep[hidden_position] = True"),)),
    Mutant("softmax_gradient_size: scaled and unscaled swapped", BW, (("S = raw / np.sqrt(d_k) if scaled else raw", "S = raw if scaled else raw / np.sqrt(d_k)"),)),
    Mutant("adam_change: no bias correction of m", "src/transformer_math/adam.py", (("m_hat = m / (1 - beta1**t)", "m_hat = m"),)),
    # 確認問題: a question's answer changed in src is caught by the doc values (a number's checked literal, a choice's marked option).
    Mutant("question: §3's softmax read at the wrong key", "src/transformer_pages/notes/attention_questions.py", (("ROW_SENTENCE, ROW_HEAD, ROW_QUERY, ROW_KEY = 1, 0, 4, 3", "ROW_SENTENCE, ROW_HEAD, ROW_QUERY, ROW_KEY = 1, 0, 4, 2"),)),
    Mutant("question: the mask placement judged on the zeroed rows", "src/transformer_pages/chapter/attention_kinds_questions.py", (('"before": bool(np.allclose(m.masked_before.sum(axis=1), 1.0))', '"before": bool(np.allclose(m.zeroed_after.sum(axis=1), 1.0))'), ('"after": bool(np.allclose(m.zeroed_after.sum(axis=1), 1.0))', '"after": bool(np.allclose(m.masked_before.sum(axis=1), 1.0))'))),
    Mutant("question: the PE slip's wavelength read at the column, not the pair", "src/transformer_pages/chapter/positional_encoding_questions.py", (("float(ops.pe_wavelengths(d_model)[pair])", "float(ops.pe_wavelengths(d_model)[column // 2 * 2])"),)),
    Mutant("question: GELU(−2) without the cubic term", "src/transformer_pages/chapter/ffn_questions.py", (("return float(ops.gelu(GELU_AT))", "return float(0.5 * GELU_AT * (1 + np.tanh(np.sqrt(2 / np.pi) * GELU_AT)))"),)),
    # Must survive: the max cancels in e^(z−m) / Σ e^(z−m).
    Mutant("softmax: no max-subtraction", OPS, (("shifted = z - np.max(z, axis=axis, keepdims=True)", "shifted = z"),), equivalent=True),
)
# fmt: on


def make_copy(destination: Path, mutant: Mutant | None = None, origin: Path = REPO) -> Path:
    """A copy of the project (from ``origin``: the snapshot, so pages edited meanwhile change nothing)."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source = origin / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, destination / name)
    if mutant is not None:
        path = destination / mutant.path
        text = path.read_text(encoding="utf-8")
        for old, new in mutant.edits:
            if text.count(old) != 1:
                raise SystemExit(f"mutant {mutant.name!r}: {old!r} occurs {text.count(old)} times in {mutant.path}")
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return destination


def copy_env(copy: Path) -> dict[str, str]:
    pythonpath = os.pathsep.join([str(copy / "src"), str(REPO / "benchmarks")])  # the copy's src first
    return dict(os.environ, PYTHONPATH=pythonpath, PYTHONDONTWRITEBYTECODE="1", CHECKED_NUMBERS_ROOT=str(copy))


def run_suite(copy: Path, fail_fast: bool) -> tuple[bool, list[str], str]:
    """(passed, failing test ids, a one-line summary)."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--no-header",
        "-rf",
        "-p",
        "mutation_profile",
        *SUITE,
    ]
    if fail_fast:
        command.insert(4, "-x")
    result = subprocess.run(command, cwd=copy, env=copy_env(copy), capture_output=True, text=True, timeout=900)
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    failed = [line.split()[1] for line in lines if line.startswith(("FAILED", "ERROR")) and len(line.split()) > 1]
    summary = next((line for line in lines if line.startswith(("FAILED", "ERROR"))), lines[-1] if lines else "")
    return result.returncode == 0, failed, summary or result.stderr[-300:]


DUMP = """
import json, sys
import numpy as np
import transformer_math
from dataclasses import fields
from transformer_site.checked import check, collect
from transformer_math import preset_trace, SENTENCES
assert transformer_math.__file__.startswith(sys.argv[1]), transformer_math.__file__
values = {}
for i, n in enumerate(collect([sys.argv[1] + "/docs"])):
    outcome = check(n)
    values[f"{n.location}#{i}"] = [outcome.live, outcome.value]
arrays = {}
for s in range(1, len(SENTENCES) + 1):
    trace = preset_trace(s)
    for f in fields(trace):
        a = getattr(trace, f.name)
        if isinstance(a, np.ndarray) and a.dtype.kind == "f":
            arrays[f"s{s}.{f.name}"] = a.tolist()
json.dump({"values": values, "arrays": arrays}, sys.stdout)
"""


def dump_values(copy: Path) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", DUMP, str(copy)], cwd=copy, env=copy_env(copy), capture_output=True, text=True, check=True
    )  # fmt: skip
    return json.loads(result.stdout)


ROUND_OFF = 1e-12  # a value this small is a floating-point residue (a mean that is "0"), not a result


def compare_values(original: dict, mutant: dict) -> tuple[list[str], list[str], float, int]:
    """(checked numbers shown differently, of those the round-off residues, largest |Δ| of a trace cell, cells)."""
    import numpy as np

    changed, residues = [], []
    for key, (shown, value) in original["values"].items():
        if shown != mutant["values"][key][0]:
            (residues if abs(value or 0.0) < ROUND_OFF else changed).append(
                f"{key.rsplit('#', 1)[0]} {shown} → {mutant['values'][key][0]}"
            )
    largest, cells = 0.0, 0
    for name, array in original["arrays"].items():
        a, b = np.asarray(array), np.asarray(mutant["arrays"][name])
        cells += a.size
        if a.shape != b.shape or not np.array_equal(np.isfinite(a), np.isfinite(b)):
            return changed, residues, float("inf"), cells
        finite = np.isfinite(a)
        if not np.array_equal(a[~finite], b[~finite]):
            return changed, residues, float("inf"), cells
        if finite.any():
            largest = max(largest, float(np.max(np.abs(a[finite] - b[finite]))))
    return changed, residues, largest, cells


def src_mutant(mutant: Mutant, scratch: Path, original_values: dict | None, snapshot: Path) -> tuple[bool, str]:
    copy = make_copy(Path(tempfile.mkdtemp(dir=scratch)), mutant, origin=snapshot)
    start = time.perf_counter()
    passed, failed, summary = run_suite(copy, fail_fast=not mutant.equivalent)
    took = time.perf_counter() - start
    if not mutant.equivalent:
        return not passed, f"{'killed' if not passed else 'SURVIVED'} in {took:.0f} s — {summary}"
    # Equivalent on values: the only tests allowed to notice are those about overflow, the one thing the
    # max-subtraction is for; no checked number changes beyond round-off residues; trace cells agree to 1e-12.
    changed, residues, largest, cells = compare_values(original_values, dump_values(copy))
    unexpected = [test for test in failed if "overflow" not in test]
    ok = not unexpected and not changed and largest <= ROUND_OFF
    lines = [
        f"{'equivalent on every value' if ok else 'NOT EQUIVALENT'} ({took:.0f} s): "
        f"largest |Δ| over {cells} trace cells of the 8 sentences = {largest:.1e}; "
        f"{len(changed)} checked numbers changed",
        f"suite: {'passes' if passed else 'fails only on ' + ', '.join(failed) if not unexpected else 'fails: ' + ', '.join(unexpected)}"
        + (" (it feeds e^1000: the max-subtraction exists for that)" if failed and not unexpected else ""),
    ]
    lines += [f"changed: {c}" for c in changed]
    lines += [f"round-off residue quoted as a literal (shown differently): {r}" for r in residues]
    return ok, "\n        ".join(lines)


def src_mutants(jobs: int, only: str | None) -> tuple[int, int, bool]:
    chosen = [m for m in MUTANTS if only is None or only.lower() in m.name.lower()]
    chosen.sort(key=lambda m: not m.equivalent)  # the one full suite run starts first
    killed = total = 0
    equivalent_ok = True
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        scratch = Path(tmp)
        # One snapshot of the work tree: every mutant (and the reference values) starts from the same files.
        snapshot = make_copy(scratch / "snapshot")
        original_values = None
        if any(m.equivalent for m in chosen):
            original_values = dump_values(snapshot)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(src_mutant, m, scratch, original_values, snapshot): m for m in chosen}
            for future in as_completed(futures):
                mutant, (ok, detail) = futures[future], future.result()
                print(f"  [{'ok' if ok else '!!'}] {mutant.name}: {detail}", flush=True)
                if mutant.equivalent:
                    equivalent_ok = equivalent_ok and ok
                else:
                    total += 1
                    killed += ok
    return killed, total, equivalent_ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--part", choices=["a", "b", "c", "d"],
        help="only (a) checked numbers, (b) src mutants, (c) numbers a reader sees, (d) checked claims",
    )  # fmt: skip
    parser.add_argument("--jobs", type=int, default=2, help="src mutants run in parallel (default 2)")
    parser.add_argument("--only", help="only src mutants whose name contains this")
    args = parser.parse_args()
    start = time.perf_counter()
    killed = total = 0
    equivalent_ok = True
    if args.part in (None, "a") and not args.only:
        t = time.perf_counter()
        a_killed, a_total, problems = doc_value_mutants()
        for problem in problems[:20]:
            print(f"  !! {problem}")
        print(f"(a) checked numbers: {a_killed}/{a_total} last-digit mutants fail at exactly their page.md:line "
              f"({time.perf_counter() - t:.1f} s)")  # fmt: skip
        killed, total = killed + a_killed, total + a_total + (len(problems) if not a_total else 0)
        total += len([p for p in problems if "not clean" in p])
    if args.part in (None, "c") and not args.only:
        t = time.perf_counter()
        c_killed, c_total, survivors, skipped = seen_number_mutants()
        for survivor in survivors[:30]:
            print(f"  !! {survivor}")
        for page in skipped:
            print(f"  -- {page}: not clean before mutation (check or lint fails), not scored")
        print(f"(c) numbers a reader sees (decimals, integers ≥ 10): {c_killed}/{c_total} last-digit mutants fail the "
              f"check or the lint ({time.perf_counter() - t:.1f} s)")  # fmt: skip
        killed, total = killed + c_killed, total + c_total
    if args.part in (None, "d") and not args.only:
        t = time.perf_counter()
        d_killed, d_total, problems = claim_negation_mutants()
        for problem in problems[:20]:
            print(f"  !! {problem}")
        print(f"(d) checked claims: {d_killed}/{d_total} negated conditions fail at exactly their page.md:line "
              f"({time.perf_counter() - t:.1f} s)")  # fmt: skip
        killed, total = killed + d_killed, total + d_total
    if args.part in (None, "b"):
        t = time.perf_counter()
        print(f"(b) src mutants ({', '.join(SUITE)}, pytest -x):")
        b_killed, b_total, equivalent_ok = src_mutants(args.jobs, args.only)
        ran_equivalent = any(m.equivalent and (args.only or "").lower() in m.name.lower() for m in MUTANTS)
        verdict = "survives with no value changed" if equivalent_ok else "NOT as expected"
        print(f"(b) src mutants: {b_killed}/{b_total} killed; equivalent mutant "
              f"{verdict if ran_equivalent else 'not run'} ({time.perf_counter() - t:.0f} s)")  # fmt: skip
        killed, total = killed + b_killed, total + b_total
    score = 100.0 * killed / total if total else 0.0
    print(f"mutation score: {killed}/{total} = {score:.1f} %  (total {time.perf_counter() - start:.0f} s)")
    return 0 if killed == total and total and equivalent_ok else 1


if __name__ == "__main__":
    sys.exit(main())
