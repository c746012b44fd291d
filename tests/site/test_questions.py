"""確認問題: the ``!!! exercise`` syntax, its errors (``page.md:line``), its markup, and what the build does with it.

Reading and checking a question needs no build (``page.exercises``, ``exercises.render``); the last tests build a tiny
project with the real configuration: a good page gets the markup the browser script drives, and a page with the
three mistakes the issue names — no computed answer, a number question whose answer is not a number, a right
option that is not among the options — fails the strict build, each named by its page and line.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from tiny_project import run_build, write_tiny_project

from transformer_site.exercises.html import exercise_markdown
from transformer_site.exercises.render import check_answer
from transformer_site.page.exercises import ExerciseError, find_exercises

ROOT = Path(__file__).resolve().parents[2]

NUMBER = """\
# 題

本文。

!!! exercise number
    answer: {{ 2.83 = sqrt(preset.D_K) }}

    $\\sqrt{d_k}$ を求めてください。

    - 箇条書きも
      書けます

    hint:
        $d_k = 8$ です。

    solution:
        $\\sqrt{8} = {{ 2.83 = sqrt(preset.D_K) }}$ です。

        2 段落目。

次へ
"""

CHOICE = """\
!!! exercise choice
    answer: b = "b"

    どれですか。

    option a: 前
        前ではない理由。
    option b: 後
        後が正しい説明。

    hint: 一行のヒント

    solution:
        後です。
"""


def test_a_number_question_is_read_with_its_lines_and_precision():
    (exercise,), bank = find_exercises(NUMBER, "docs/t.md")
    assert bank is None
    assert (exercise.kind, exercise.line, exercise.answer_line) == ("number", 5, 6)
    assert (exercise.answer_literal, exercise.answer_expression) == ("2.83", "sqrt(preset.D_K)")
    assert (exercise.decimals, exercise.form.words, exercise.topic) == (2, "小数第 2 位まで", "")
    lines = NUMBER.split("\n")
    assert exercise.question[0].text(lines) == "$\\sqrt{d_k}$ を求めてください。\n\n- 箇条書きも\n  書けます"
    assert exercise.hint.text(lines) == "$d_k = 8$ です。"
    assert exercise.solution.text(lines).endswith("2 段落目。")
    assert exercise.end == lines.index("次へ") - 1  # the blank line after the block belongs to the page
    assert check_answer(exercise) is None


def test_a_choice_question_keeps_each_reason_with_its_option():
    (exercise,), _ = find_exercises(CHOICE, "docs/t.md", first_line=10)
    lines = CHOICE.split("\n")
    assert exercise.location == "docs/t.md:10"
    assert [(o.key, o.text(lines), o.line) for o in exercise.options] == [("a", "前", 15), ("b", "後", 17)]
    assert exercise.option("a").reason.text(lines) == "前ではない理由。"
    assert exercise.hint.text(lines) == "一行のヒント"
    assert check_answer(exercise) is None


def test_the_markup_is_the_contract_the_script_drives():
    (exercise,), _ = find_exercises(NUMBER, "docs/t.md")
    html = "\n".join(exercise_markdown(exercise, 3, NUMBER.split("\n")))
    assert re.search(r'<div class="exercise" data-kind="number" data-answer="2\.83" id="q-[0-9a-f]{10}"', html)
    assert 'data-decimals="2"' in html and "（小数第 2 位まで）" in html and "問 3" in html
    assert re.search(r"<button type=\"button\" class=\"[^\"]*\bexercise-check\b", html) and ">確かめる</button>" in html
    assert 'role="status"' in html and 'inputmode="decimal"' in html
    assert '??? tip exercise-hint "ヒント"' in html and '??? success exercise-solution "解答"' in html
    (choice,), _ = find_exercises(CHOICE, "docs/t.md")
    html = "\n".join(exercise_markdown(choice, 1, CHOICE.split("\n")))
    assert 'data-kind="choice" data-answer="b"' in html and html.count('type="radio"') == 2
    assert "「前」: 前ではない理由。" in html and "答え: **後**" in html  # reasons go with the solution
    assert '<span class="exercise-reason" data-option="a" hidden></span>「前」' in html  # the script quotes it
    assert 'data-served="0"' in html and 'data-served="1"' in html


def test_ids_are_stable_and_a_repeated_question_is_an_error():
    first = find_exercises(NUMBER, "docs/t.md")[0][0].exercise_id
    assert first == find_exercises("前置き\n\n" + NUMBER, "docs/t.md")[0][0].exercise_id
    with pytest.raises(ExerciseError, match=r"docs/t\.md:\d+: the same question as docs/t\.md:5"):
        find_exercises(NUMBER + "\n" + NUMBER[NUMBER.index("!!!") :], "docs/t.md")


HS = "\n\nhint:\n    h\n\nsolution:\n    s\n"  # a hint and a solution, for the cases that need them
TWO = "\n\noption a: x\n    r\noption b: y\n    r"  # two options, each with a reason


def _block(body: str, kind: str = "number") -> str:
    return f"# 題\n\n!!! exercise {kind}\n" + textwrap.indent(textwrap.dedent(body), "    ")


BAD = {
    "no answer": (_block("問題。" + HS), r"t\.md:3: a question without a computed answer"),
    "typed answer": (
        _block("answer: 0.5\n\n問題。" + HS),
        r"t\.md:4: the answer '0\.5' is typed, not computed",
    ),
    "no expression": (
        _block("answer: {{ 0.5 unchecked }}\n\n問題。\n\nhint:\n    h\n\nsolution:\n    s\n"),
        r"t\.md:4: a question without a computed answer",
    ),
    "not a literal a reader types": (
        _block("answer: {{ 1e-5 = preset.EPS }}\n\n問題。\n\nhint:\n    h\n\nsolution:\n    s\n"),
        r"t\.md:4: the answer '1e-5' of a number question is not a number a reader can type",
    ),
    "unknown kind": (_block("問題。\n", kind="essay"), r"t\.md:3: unknown question kind 'essay'"),
    "no hint": (_block("answer: {{ 8 = preset.D_K }}\n\n問題。\n\nsolution:\n    s\n"), r"t\.md:3: .*no `hint:`"),
    "option in a number question": (
        _block("answer: {{ 8 = preset.D_K }}\n\n問題。\n\noption a: x\n"),
        r"t\.md:8: a number question has no options",
    ),
    "wrong option without a reason": (
        _block('answer: a = "a"\n\n問題。\n\noption a: x\noption b: y' + HS, "choice"),
        r"t\.md:9: option b is wrong: say why",
    ),
    "marked option not among the options": (
        _block('answer: c = "c"\n\n問題。' + TWO + HS, "choice"),
        r"t\.md:4: the right option 'c' is not among the options \(a, b\)",
    ),
    "text after the options": (
        _block('answer: a = "a"\n\n問題。\n\noption a: x\noption b: y\n    r\n\nもう一文。\n', "choice"),
        r"t\.md:12: the question's text comes before its options",
    ),
    "unknown field": (_block("answr: 1\n\n問題。\n"), r"t\.md:4: unknown field `answr:`"),
    "indented question": ("# 題\n\n- 項目\n\n    !!! exercise number\n", r"t\.md:5: .* stands at the top level"),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_each_mistake_is_an_error_naming_page_and_line(case):
    page, message = BAD[case]
    with pytest.raises(ExerciseError, match=message):
        find_exercises(page, "docs/t.md")


CHECKS = {
    "answer not a number": (
        _block("answer: {{ 8 = preset.sentence(1).words }}\n\n問題。\n\nhint:\n    h\n\nsolution:\n    s\n"),
        r"t\.md:4: the answer of a number question is not a number: preset\.sentence\(1\)\.words is a tuple",
    ),
    "right option not among the options": (
        _block('answer: a = "z"\n\n問題。\n\noption a: x\noption b: y\n    r' + HS, "choice"),
        r"t\.md:4: the right option computed by src, 'z', is not among the options \(a, b\)",
    ),
    "src disagrees with the page": (
        _block('answer: a = "b"\n\n問題。\n\noption a: x\noption b: y\n    r' + HS, "choice"),
        r"t\.md:4: the page marks option 'a' as right, but src computes 'b'",
    ),
    "an answer src cannot compute": (
        _block("answer: {{ 8 = preset.NO_SUCH }}\n\n問題。\n\nhint:\n    h\n\nsolution:\n    s\n"),
        r"t\.md:4: the answer of this question cannot be computed",
    ),
}


@pytest.mark.parametrize("case", CHECKS, ids=list(CHECKS))
def test_an_answer_src_does_not_give_is_an_error_naming_page_and_line(case):
    page, message = CHECKS[case]
    (exercise,), _ = find_exercises(page, "docs/t.md")
    problem = check_answer(exercise)
    assert problem is not None and re.search(message, problem), problem


def test_a_question_inside_a_code_fence_is_an_example_not_a_question():
    page = "# 題\n\n```markdown\n!!! exercise number\n    answer: 1\n```\n"
    assert find_exercises(page, "docs/t.md") == ([], None)


def test_the_bank_marker_is_found_once():
    (_, bank) = find_exercises("# 題\n\n!!! exercise-bank\n\n" + CHOICE, "docs/t.md")
    assert (bank.line, bank.index) == (3, 2)
    with pytest.raises(ExerciseError, match=r"t\.md:4: a second `!!! exercise-bank`"):
        find_exercises("!!! exercise-bank\n\n\n!!! exercise-bank\n", "docs/t.md")


def test_every_content_page_has_a_question_section_with_two_to_four_questions():
    content = sorted(p for d in ("notes", "chapter", "scale") for p in (ROOT / "docs" / d).glob("[0-9][0-9]-*.md"))
    content = [p for p in content if p.name not in ("10-references.md", "10-review.md")]
    assert len(content) >= 22
    for page in content:
        text = page.read_text(encoding="utf-8")
        exercises, _ = find_exercises(text, page.name)
        assert "\n## 確認問題\n" in text, f"{page.name}: no 確認問題 section"
        assert 2 <= len(exercises) <= 4, f"{page.name}: {len(exercises)} questions"
        assert {e.kind for e in exercises} - {"number"}, f"{page.name}: only number questions"
        heading = text.index("\n## 確認問題\n")
        assert all(text.index(e.raw) > heading for e in exercises), f"{page.name}: a question above its section"


# --------------------------------------------------------------------------------------------- the build

NO_ANSWER = """\
# 題

!!! exercise number
    問題の答えがありません。

    hint:
        h

    solution:
        s
"""

BAD_ANSWERS = """\
# 題

!!! exercise number
    answer: {{ 8 = preset.sentence(1).words }}

    数でない答え。

    hint:
        h

    solution:
        s

!!! exercise choice
    answer: a = "z"

    選択肢にない正解。

    option a: x
    option b: y
        違う理由。

    hint:
        h

    solution:
        s
"""


def _line_of(page: str, text: str, after: int = 0) -> int:
    lines = page.split("\n")
    return next(n for n, line in enumerate(lines, start=1) if n > after and text in line)


@pytest.mark.build
def test_the_build_shows_good_questions_and_fails_on_bad_ones_at_their_lines(tmp_path):
    write_tiny_project(tmp_path / "good", NUMBER + "\n" + CHOICE, {})
    code, log = run_build(tmp_path / "good")
    assert code == 0, log[-3000:]
    html = (tmp_path / "good" / "site" / "page" / "index.html").read_text(encoding="utf-8")
    assert html.count('<div class="exercise" ') == 2 and "!!! exercise" not in html
    assert '<details class="success exercise-solution">' in html and 'data-answer="2.83"' in html

    write_tiny_project(tmp_path / "no-answer", NO_ANSWER, {})
    code, log = run_build(tmp_path / "no-answer")
    assert code != 0, "a question without a computed answer was published"
    assert "docs/page.md:3: a question without a computed answer" in log, log[-3000:]

    write_tiny_project(tmp_path / "bad-answers", BAD_ANSWERS, {})
    code, log = run_build(tmp_path / "bad-answers")
    assert code != 0
    not_a_number = _line_of(BAD_ANSWERS, "answer: {{ 8")
    not_an_option = _line_of(BAD_ANSWERS, 'answer: a = "z"')
    assert f"docs/page.md:{not_a_number}: the answer of a number question is not a number" in log, log[-3000:]
    assert f"docs/page.md:{not_an_option}: the right option computed by src, 'z', is not among the options" in log
    assert not (tmp_path / "bad-answers" / "site" / "page" / "index.html").exists(), "a failed build left its site"
