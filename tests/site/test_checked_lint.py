"""The lint: uncited numbers in prose, tables and math are caught; code, comments and URLs are not read."""

from __future__ import annotations

import subprocess
import sys

import pytest

from transformer_site.checked.lint import lint_text


def _flagged(text: str) -> list[tuple[int, str]]:
    return [(p.line, p.text) for p in lint_text(text, "docs/p.md")]


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


def test_one_exemption_silences_exactly_one_number():
    assert _flagged("β2 = {{ 0.98 unchecked }}, ε = 1e-9") == [(1, "1e-9")]
    assert _flagged("β2 = {{ 0.98 unchecked }}") == []
    assert _flagged("$\\beta_2 = {{ 0.98 unchecked }}, \\beta_1 = 0.9$") == [(1, "0.9")]


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
        "MkDocs 1.6.1 と §3.2",
        "---\nversion: 0.5\n---\n本文",
        "整数 512 と 2048 は対象外",
    ],
)
def test_code_comments_urls_and_integers_are_not_read(text):
    assert _flagged(text) == []


def test_a_dollar_that_opens_no_math_is_flagged():
    assert _flagged("式 $ x = 1$ は数式にならない") == [(1, "$"), (1, "$")]
    assert _flagged("式 $x = 1$ と \\$5") == []


def test_malformed_tokens_are_lint_errors():
    assert _flagged("x {{ 0.5 s1.attn }}")[0][0] == 1


def test_cli_exit_status(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("重みは 0.834 です。\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "transformer_site.checked", "lint", str(page)], capture_output=True, text=True
    )
    assert result.returncode == 1
    assert ":1: uncited number 0.834" in result.stdout
    page.write_text("重みは {{ 0.834 unchecked }} です。\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "transformer_site.checked", "lint", str(page)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout
