"""Bad input sweep: each mistake is a clear error naming ``page.md:line`` and nothing wrong is published.

One strict build of a small project whose page holds every kind of mistake at its own line (checked-number
syntax, expressions with side effects, a block that prints nothing, figures from NaN data, a table showing
nan, a very large output): the build must fail, report each one at its line (and the snippet), and leave no
site behind. Raising snippets, missing snippets, glyphs and ids are covered by test_bad_input_builds.py; the
output checks are also unit-tested below without a build.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tiny_project import write_tiny_project

from transformer_site.execution.output_checks import (
    BadOutputError,
    NonFiniteFigureError,
    check_output,
    nan_free_figures,
)

REPO = Path(__file__).resolve().parents[2]

FENCE = '```python exec="on" html="on" source="tabbed-right" tabs="ソース|結果" id="{id}"\n--8<-- "{path}"\n```\n'
SNIPPETS = {
    "silent": "x = 1 + 1  # computes, prints nothing\n",
    "nan-heatmap": (
        "import numpy as np\nfrom transformer_figures import heatmap, new_figure, show\n"
        "fig, ax = new_figure(3, 2)\n"
        "heatmap(ax, np.array([[1.0, np.nan], [0.5, 2.0]]), ['a', 'b'], ['c', 'd'], fmt='{:.1f}')\n"
        "show(fig, alt='NaN を含むヒートマップ')\n"
    ),
    "nan-line": (
        "import numpy as np\nfrom transformer_figures import new_figure, show\n"
        "fig, ax = new_figure(3, 2)\nax.plot([0, 1, 2], [0.0, np.nan, 1.0], label='gelu')\n"
        "show(fig, alt='NaN を含む折れ線')\n"
    ),
    "nan-table": "print('| 量 | 値 |\\n|---|---|\\n| σ | nan |')\n",
    "huge": "print('<p>' + 'x' * 3_000_000 + '</p>')\n",
    "fine": "print('<p>正しいブロック</p>')\n",
}
# (line text, what the log must say at that line)
LINES = [
    ("引用 {{ 3.52.6 = s1.scores[0, 2, 3] }}。", "is not a number literal"),
    ("引用 {{ +3.526 s1.scores[0, 2, 3] }}。", "malformed checked number"),
    ("引用 {{ 3.526 = }}。", "malformed checked number"),
    ("副作用 {{ 0 = s1.scores.fill(0) }}。", "assignment destination is read-only"),
    ("副作用 {{ 1 = (x := 1) }}。", "an assignment (:=) is not allowed"),
    ("副作用 {{ 0 = W.W_Q.sort() }}。", "array is read-only"),
    ('副作用 {{ 0 = setattr(s1, "scores", 0) }}。', "unknown name 'setattr'"),
    ("副作用 {{ 0 = ops.np.random.seed(0) }}。", "reaches the module numpy"),
    ("主張 {{ どの行でも if s1.attn[0] > 0 }}。", "not True or False (reduce it with .all() or .any())"),
    ("主張 {{ どの行でも if s1.attn[0, 0, 3] }}。", "not True or False (a claim's condition is a comparison)"),
    ("主張 {{ 偽の主張 if s1.attn[0, 0, 3] < 0 }}。", "the claim '偽の主張' is false"),
    ("主張 {{ 数 {{ 1 = preset.T }} を含む if True }}。", "unclosed checked number"),
    ("印 {{ 2016 year @vaswani2017 }}。", "is from 2017, not 2016"),
    ("印 {{ 2017 year }}。", "a year marker names its source"),
    ("印 {{ 0.98 unchecked }}。", "'unchecked' is not an exemption any more"),
    ("印 {{ 65 reported @vaswani2017 }}。", "names where in the source"),
    ("印 {{ 66 reported @vaswani2017, Table 3 }}。", "records no figure 66 at Table 3"),
    ("引用 [@nobody2099, §1]。", "cites no entry of §10"),
    ("引用 [@vaswani2017, §9.9]。", "lists no '§9.9'"),
    ("引用 [@Vaswani 2017]。", "malformed citation"),
]


@pytest.fixture(scope="module")
def broken_build(tmp_path_factory) -> tuple[Path, str, dict[str, int]]:
    project = tmp_path_factory.mktemp("bad-input")
    page, where = ["# 悪い入力", ""], {}
    for text, _ in LINES:
        page += [text, ""]
    for name in SNIPPETS:
        where[name] = len(page) + 1
        page += [*FENCE.format(id=f"bad-{name}", path=f"snippets/page/{name}.py").splitlines(), ""]
    snippets = {f"snippets/page/{name}.py": code for name, code in SNIPPETS.items()}
    write_tiny_project(project, "\n".join(page), snippets)
    site = project / "site"
    site.mkdir()
    (site / "stale.html").write_text("an earlier build", encoding="utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(REPO / "src"), TRANSFORMER_FIGURE_CACHE="off")
    env.pop("TRANSFORMER_SITE_NO_EXEC", None)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=project, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode != 0, "a page full of mistakes built"
    return site, result.stdout + result.stderr, where


@pytest.mark.build
@pytest.mark.parametrize(("index", "says"), [(i, says) for i, (_, says) in enumerate(LINES)])
def test_checked_number_mistakes_name_their_line(broken_build, index, says):
    _, log, _ = broken_build
    line = 3 + 2 * index
    messages = [m for m in log.splitlines() if f"docs/page.md:{line}:" in m]
    assert messages and says in messages[0], f"line {line}: expected {says!r}; log:\n{log[-3000:]}"


def test_the_same_mistakes_fail_the_lint_and_the_collector_at_their_line():
    """Without a build: the lint (``python -m transformer_site.checked lint``) and pytest's collector
    (``tests/docs``) report every one of the token mistakes above at its own line, with the same message."""
    from transformer_site.checked import check, find_checked_numbers, lint_text

    text = "\n".join(["# 悪い入力", ""] + [line for text, _ in LINES for line in (text, "")])
    lint = lint_text(text, "docs/page.md")
    collected = [check(n) for n in find_checked_numbers(text, "docs/page.md")]
    for index, (_, says) in enumerate(LINES):
        line = 3 + 2 * index
        found = [o.message for o in collected if not o.ok and o.number.line == line]
        assert found and says in found[0], f"collector, line {line}: expected {says!r}, got {found}"
        if LINES[index][0].startswith("副作用"):
            continue  # a number's expression is evaluated by the collector and the build, not by the lint
        problems = [p.message for p in lint if p.line == line]
        assert problems and says in problems[0], f"lint, line {line}: expected {says!r}, got {problems}"


@pytest.mark.build
@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("silent", "BadOutputError: the block printed nothing"),
        ("nan-heatmap", "ValueError: matrix must be finite"),  # the house heatmap refuses NaN itself
        ("nan-line", "NonFiniteFigureError: the figure has NaN data in Line2D 'gelu'"),
        ("nan-table", "BadOutputError: the output shows nan as a value"),
        ("huge", "BadOutputError: the block printed 3.0 MB (limit 2.0 MB per block)"),
    ],
)
def test_bad_block_output_names_page_line_and_snippet(broken_build, name, says):
    _, log, where = broken_build
    head = f"page.md:{where[name]}: executed block id='bad-{name}' (snippet snippets/page/{name}.py)"
    lines = [line for line in log.splitlines() if head in line]
    assert lines, f"no message naming {head}; log:\n{log[-3000:]}"
    assert says in lines[0], lines[0]


@pytest.mark.build
def test_the_good_block_is_not_reported_and_nothing_is_published(broken_build):
    site, log, _ = broken_build
    assert "executed block id='bad-fine'" not in log
    assert site.is_dir() and not any(site.iterdir()), f"a failed build left {sorted(site.iterdir())[:5]}"


# --- the same checks without a build ---------------------------------------------------------------------


def test_output_checks_accept_good_output_and_words_that_contain_nan():
    check_output("<p>値は (nan-free: X = 0 なら例外) 正しい</p>")
    check_output("| a | b |\n|---|---|\n| 1.0 | −inf |")


@pytest.mark.parametrize(
    ("output", "says"),
    [("", "printed nothing"), ("  \n", "printed nothing"), ("<td>NaN</td>", "nan as a value"),
     ("| x | nan |", "nan as a value"), ("<text>−nan</text>", "nan as a value"), ("y" * 2_000_001, "limit")],
)  # fmt: skip
def test_output_checks_reject(output, says):
    with pytest.raises(BadOutputError, match=says):
        check_output(output)


def test_nan_guard_allows_inf_and_masked_nan_but_not_nan():
    import io

    import matplotlib
    from matplotlib import pyplot as plt
    from matplotlib.figure import Figure

    before, hooks = Figure.savefig, list(matplotlib.rcParams["figure.hooks"])

    def save(draw) -> None:
        with nan_free_figures():  # as a block runs: every pyplot figure made inside is watched
            fig, ax = plt.subplots()
            draw(ax)
            try:
                fig.savefig(io.BytesIO(), format="svg")
            finally:
                plt.close(fig)

    save(lambda ax: ax.imshow(np.array([[0.0, -np.inf], [1.0, 2.0]])))  # masked attention scores are −∞
    save(lambda ax: ax.imshow(np.ma.masked_array([[0.0, 9.0], [1.0, 2.0]], mask=[[0, 1], [0, 0]])))  # a blank cell
    with pytest.raises(NonFiniteFigureError, match="AxesImage"):
        save(lambda ax: ax.imshow(np.array([[0.0, np.nan], [1.0, 2.0]])))
    with pytest.raises(NonFiniteFigureError, match="Rectangle"):
        save(lambda ax: ax.bar([0, 1], [1.0, np.nan]))
    with pytest.raises(NonFiniteFigureError, match="PathCollection"):
        save(lambda ax: ax.scatter([0, 1], [np.nan, 1.0]))
    assert Figure.savefig is before  # matplotlib's own method, never replaced
    assert matplotlib.rcParams["figure.hooks"] == hooks  # the watch ends with the block, raising or not
