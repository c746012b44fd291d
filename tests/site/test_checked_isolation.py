"""A checked number's expression cannot change state — not by a list of forbidden methods, but because it only
ever holds read-only values, reaches no module that is not citable, runs under the isolation guard, and the
state is compared (and put back) after it. Pathological expressions are clear errors, never a hang or a crash.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from transformer_site.checked import check, find_checked_numbers
from transformer_site.checked.evaluation import MAX_LENGTH, ExpressionError, evaluate


def _message(expression: str, literal: str = "1.0") -> str:
    (number,) = find_checked_numbers(f"本文 {{{{ {literal} = {expression} }}}} です。\n", "docs/p.md")
    outcome = check(number)
    assert not outcome.ok and not outcome.stale
    assert outcome.message.startswith("docs/p.md:1: ")
    return outcome.message


@pytest.mark.parametrize(
    "expression",
    ["s1.scores.fill(0)", "s1.scores.sort()", "W.W1.put(0, 1.0)", "W.b1.resize(3)", "W.W1.T.fill(0)"],
)
def test_arrays_are_read_only_views(expression):
    before = {k: v.copy() for k, v in vars(evaluate("s1")).items() if isinstance(v, np.ndarray)}
    message = _message(f"len([{expression}]) - 1", "0")
    assert "read-only" in message or "cannot set WRITEABLE flag" in message or "cannot resize" in message, message
    after = vars(evaluate("s1"))
    assert all(np.array_equal(after[k], v) for k, v in before.items())  # the trace is untouched


def test_a_module_that_is_not_citable_is_unreachable():
    message = _message("len([ops.np.copyto(W.W1, 0.0)]) - 1", "0")
    assert "reaches the module numpy, which is not a citable name" in message
    assert float(evaluate("W.W1[0, 0]")) != 0.0


def test_lists_and_dicts_are_handed_out_read_only():
    assert "has no attribute 'append'" in _message("len([sentences.append(1)])", "0")
    assert isinstance(evaluate("sentences"), tuple)


def test_a_change_through_a_citable_function_is_reported_on_its_own_expression_and_undone(monkeypatch):
    """Whatever the expression calls, a changed state is this expression's error, and the state comes back."""
    import transformer_math
    from transformer_site.citable import NAMES

    preset = NAMES["preset"]
    original = preset.D_FF

    def sneaky(value):  # a citable function that sets a module constant
        preset.D_FF = value
        return value

    names = dict(NAMES, sneaky=sneaky)
    with pytest.raises(ExpressionError, match=r"changed transformer_math\.preset\.D_FF: \d+ → 64 \(undone\)"):
        evaluate("sneaky(64)", names, where="docs/p.md:1")
    assert preset.D_FF == original and transformer_math.preset.D_FF == original


def test_writing_a_file_is_refused(tmp_path):
    names = {"path": str(tmp_path / "x.txt"), "write": lambda p: open(p, "w").close() or 1}
    with pytest.raises(ExpressionError, match="wrote outside its temporary folder"):
        evaluate("write(path)", names)
    assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize(
    ("expression", "says"),
    [
        ("+".join(["1"] * 5000), f"at most {MAX_LENGTH}"),
        ("(" * 300 + "1" + ")" * 300, "characters long"),
        ("abs(" * 40 + "1" + ")" * 40, "nested more than"),
        ("9 ** 9 ** 9", "too large to compute"),
        ("len('x' * 10 ** 9)", "repeats a sequence"),
        ("s1.scores[" + "0," * 100 + "]", "index"),
    ],
)
def test_pathological_expressions_are_clear_errors(expression, says):
    assert says in _message(expression)


@pytest.mark.slow  # runs the check in a subprocess
def test_check_does_not_crash_on_pathological_pages(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "# p\n\n"
        + "長い {{ 1 = " + "+".join(["1"] * 20000) + " }}\n\n"
        + "深い {{ 1 = " + "(" * 5000 + "1" + ")" * 5000 + " }}\n\n"
        + "{{ " * 3000 + "\n\n"
        + "`" * 5000 + " " + "{{ 1 = 1 }} " * 500 + "\n",
        encoding="utf-8",
    )  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "transformer_site.checked", "check", str(page)], capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert any(":3: the expression is" in line for line in lines), lines[:5]
    assert any(":5: the expression is" in line for line in lines), lines[:5]
    assert any(":7: unclosed checked number" in line for line in lines), lines[:5]
