"""Broken attempts at the checked-number syntax are errors at their line wherever prose can stand — paragraphs,
tables, admonitions, tabs, lists, footnotes, math — and ``check`` and ``lint`` report the same ones; TeX's own
double braces and code are left alone."""

from __future__ import annotations

import textwrap

import pytest

from transformer_site.checked import check, find_checked_numbers, lint_text

BROKEN = "{{ +3.526 = s1.scores[0, 2, 3] }"

PAGE = textwrap.dedent(f"""\
    # 見出し

    段落 {BROKEN}。

    | 量 | 値 |
    |---|---|
    | スコア | {BROKEN} |

    !!! note "注"
        注記の中 {BROKEN}。

    === "タブ"

        タブの中 {BROKEN}。

    - 箇条書き {BROKEN}

    脚注つき[^1]。

    [^1]: 脚注 {BROKEN}

    数式 $s = {BROKEN}$ と

    $$
    y = {BROKEN}
    $$

    閉じ括弧だけ s1.scores[0, 2, 3] }}}} の後。

    ```python
    print("{BROKEN}")  # code is not prose
    ```

    TeX の波括弧 $x^{{{{a}}}} + \\frac{{{{b}}}}{{c}}$ と `{{{{ 1 = 1 }}` はそのまま。
    """)
EXPECTED_LINES = [3, 7, 10, 14, 16, 20, 22, 25, 28]


def test_every_broken_token_is_an_error_at_its_line():
    numbers = find_checked_numbers(PAGE, "docs/p.md")
    problems = [n for n in numbers if n.problem]
    assert [n.line for n in problems] == EXPECTED_LINES, [(n.line, n.problem) for n in problems]
    assert all(not check(n).ok for n in problems)
    assert "without its {{" in problems[-1].problem  # the lone closing braces


def test_check_and_lint_report_the_same_broken_tokens():
    checked = {(n.line, n.problem) for n in find_checked_numbers(PAGE, "docs/p.md") if n.problem}
    linted = {(p.line, p.message) for p in lint_text(PAGE, "docs/p.md")}
    assert checked <= linted


@pytest.mark.parametrize("text", ["$x^{{a}}$", "$\\frac{{1}}{2}$", "`{{ 1 = }`", "```\n{{\n```"])
def test_tex_braces_and_code_are_not_attempts(text):
    assert [n for n in find_checked_numbers(text, "docs/p.md") if n.problem] == []
