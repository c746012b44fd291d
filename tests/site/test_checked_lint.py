"""The lint: uncited numbers in prose, tables and math are caught; code, comments and URLs are not read."""

from __future__ import annotations

import subprocess
import sys

import pytest

from transformer_site.checked.lint import lint_text


def _flagged(text: str) -> list[tuple[int, str]]:
    """The numbers the lint flags (code names are the code-name rule's, tests/docs/test_code_names.py)."""
    return [(p.line, p.text) for p in lint_text(text, "docs/p.md") if not p.message.startswith("code name")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("重みは 0.834 です。", [(1, "0.834")]),
        ("| a | b |\n|---|---|\n| 花 | 0.912 |", [(3, "0.912")]),
        ("式 $e \\approx 2.718$ より", [(1, "2.718")]),
        ("$$\ny = x / 2.828\n$$", [(2, "2.828")]),
        ("\\[ x = 1.5 \\] と \\( y = 2.5 \\)", [(1, "1.5"), (1, "2.5")]),
        ("!!! note\n    注意: 0.98 を使う", [(2, "0.98")]),
        ("パラメータは 109,482,240 個", [(1, "109,482,240")]),
        ("学習率 1e-9 と 3.1e6 と 3.1 × 10^6", [(1, "1e-9"), (1, "3.1e6"), (1, "3.1 × 10^6")]),
        ("値は−0.170", [(1, "−0.170")]),
        ("脚注[^1]\n\n[^1]: 論文では 0.98", [(3, "0.98")]),
        ("[リンク 0.5 の文](https://example.org/)", [(1, "0.5")]),
    ],
)
def test_uncited_numbers_are_caught(text, expected):
    assert _flagged(text) == expected


def test_message_says_how_to_fix():
    (problem,) = lint_text("\n重みは 0.834 です。", "docs/notes/03-attention.md")
    assert str(problem).startswith("docs/notes/03-attention.md:2: uncited number 0.834: write {{ 0.834 = expression }}")


def test_one_marker_silences_exactly_one_number():
    assert _flagged("β2 = {{ 0.999 reported @kingma2015, Algorithm 1 }}, ε = 1e-9") == [(1, "1e-9")]
    assert _flagged("β2 = {{ 0.999 reported @kingma2015, Algorithm 1 }}") == []
    assert _flagged("$\\beta_2 = {{ 0.999 reported @kingma2015, Algorithm 1 }}, \\beta_1 = 0.9$") == [(1, "0.9")]
    assert _flagged("原論文 ({{ 2017 year @vaswani2017 }}) と 2018 年") == [(1, "2018")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("語彙 16 語、8 文 40 行", [(1, "16"), (1, "40")]),  # integers of two or more digits, not single ones
        ("論文は 110M と 175B", [(1, "110"), (1, "175")]),  # a unit may follow
        ("$\\omega = 10000^{-2i/d}$ と $2^{30}$", [(1, "10000"), (1, "30")]),  # in math too, exponents included
        ("$\\tanh(\\sqrt{2/\\pi}\\,x)$", [(1, "\\sqrt{2/\\pi}")]),  # a constant of src written as a formula
        ("d12〜d15、h13、W1、GPT-2、float64", []),  # glued to a name: part of it
        ("$x - 12$", [(1, "12")]),  # after an operand the minus is an operator
        ("{{ どの文でも 16 の関係が if 1 == 1 }}", [(1, "16")]),  # a claim's words are read
        ("§11 と §3.5 を見よ", [(1, "§11"), (1, "§3.5")]),  # only the notes' sections §0 … §10
        ("[§3 注意](03-attention.md) と [§3](04-concat.md)", [(1, "[§3](04-concat.md")]),  # the link leads to §3
    ],
)
def test_integers_constants_claims_and_sections(text, expected):
    assert _flagged(text) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{{ 2016 year @vaswani2017 }}", "is from 2017, not 2016"),
        ("{{ 2017 year }}", "a year marker names its source"),
        ("{{ 12 index @vaswani2017 }}", "takes no source"),
        ("{{ 0.98 unchecked }}", "'unchecked' is not an exemption any more"),
        ("[@nobody2099]", "cites no entry of §10"),
        ("[@vaswani2017, §9.9]", "lists no '§9.9'"),
        ("{{ 偽 if s1.attn[0, 0, 3] < 0 }}", "is false"),
        ("{{ 真偽でない if s1.attn[0] }}", "not True or False"),
    ],
)
def test_markers_citations_and_claims_are_checked_by_the_lint_too(text, says):
    (problem,) = lint_text(text, "docs/p.md")
    assert says in problem.message and problem.line == 1


def test_checked_numbers_are_not_flagged():
    assert _flagged("値 {{ 0.834 = s1.attn[0, 2, 3] }} と $x = {{ 2.828 = sqrt(preset.D_K) }}$") == []


@pytest.mark.parametrize(
    "text",
    [
        "```python\nx = 0.5\n```",
        '```python exec="on" html="on" id="a" tabs="ソース|結果"\n--8<-- "snippets/x/y_0.5.py"\n```',
        "    ```\n    0.5 (indented fence in an admonition)\n    ```",
        "インラインコード `x = 0.5` は読まない",
        "<!-- 0.5 はコメント -->",
        "[論文](https://arxiv.org/abs/1706.03762)",
        "https://arxiv.org/abs/1706.03762",
        "[ref]: https://example.org/v1.5/",
        '<span style="width: 0.5em">x</span>',
        "MkDocs 1.6.1 と §3 と §10",
        "---\nversion: 0.5\n---\n本文",
        "1 桁の整数 5 と 8 は読まない",
    ],
)
def test_code_comments_urls_and_integers_are_not_read(text):
    assert _flagged(text) == []


def test_a_dollar_that_opens_no_math_is_flagged():
    assert _flagged("式 $ x = 1$ は数式にならない") == [(1, "$"), (1, "$")]
    assert _flagged("式 $x = 1$ と \\$5") == []


def test_malformed_tokens_are_lint_errors():
    assert _flagged("x {{ 0.5 s1.attn }}")[0][0] == 1


@pytest.mark.slow  # runs the command line in a subprocess
def test_cli_exit_status(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("重みは 0.834 です。\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "transformer_site.checked", "lint", str(page)], capture_output=True, text=True
    )
    assert result.returncode == 1
    assert ":1: uncited number 0.834" in result.stdout
    page.write_text("重みは {{ 0.834 = s1.attn[0, 2, 3] }} です。\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "transformer_site.checked", "lint", str(page)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout
