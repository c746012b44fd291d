"""The code-name rule: a name of the code or the build planted in any kind of text a lesson's reader sees is found
at page.md:line — prose, tables, captions, alt texts, tooltip labels, question texts, hints and explanations —
while the notes' symbols, code blocks, math and the pages that may speak of the build are left alone."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from transformer_site import labels
from transformer_site.checked import code_names
from transformer_site.checked.lint import lint_text

LESSON = "docs/notes/03-attention.md"


def _found(text: str, path: str = LESSON) -> list[tuple[int, str, str]]:
    return [(c.line, c.name, c.where) for c in code_names.in_page(text, path, labels=False)]


# ------------------------------------------------------------------------------------------------------ prose


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("値は `transformer_pages.notes.ffn` が計算します。", "`transformer_pages.notes.ffn`"),  # inline code
        ("値は transformer_pages.notes.ffn が計算します。", "transformer_pages.notes.ffn"),  # a module
        ("差は counting.block_params の値です。", "counting.block_params"),  # a function
        ("tests/pages/test_notes_ffn.py が確かめます。", "tests/pages/test_notes_ffn.py"),  # a test file
        ("kernel.js で計算します。", "kernel.js"),  # a file
        ("train() を呼びます。", "train()"),  # a call
        ("分解は derive_ln1 が作ります。", "derive_ln1"),  # an identifier
        ("mkdocs がページを作ります。", "mkdocs"),  # a tool
        ("pytest が確かめます。", "pytest"),
        ("この数は検査つき数値です。", "検査つき数値"),  # the site's machinery
    ],
)
def test_a_name_planted_in_prose_is_found(text, name):
    assert _found("前の行\n" + text) == [(2, name, "prose")]


def test_a_name_planted_in_a_table_is_found():
    table = "| 値 | 出どころ |\n|---|---|\n| 3.526 | s1.scores の成分 |\n| 1.00 | notes.ffn.find の結果 |"
    assert _found(table) == [(3, "s1.scores", "prose"), (4, "notes.ffn.find", "prose")]


def test_a_name_planted_in_an_admonition_or_a_claim_is_found():
    page = '!!! note "注意"\n    値は transformer_math.ops が計算します。\n\n{{ どの文でも ops.gelu で if 1 == 1 }}'
    assert _found(page) == [(2, "transformer_math.ops", "prose"), (4, "ops.gelu", "a checked claim's words")]


def test_a_name_planted_in_a_pages_own_alt_text_is_found():
    assert _found('前\n<img src="x.svg" alt="図は snippets/notes/x.py が描く">') == [
        (2, "snippets/notes/x.py", "an alt text or title")
    ]


# ------------------------------------------------------------------------------ questions, hints and answers


QUESTION = textwrap.dedent(
    """\
    !!! exercise choice
        answer: copy = notes.accuracy_questions.copies_only()

        なぜですか (ops.split_heads を見てください)。

        option copy: 列を写すだけだから
        option T_dff: 単位行列だから
            単位行列なのは W_V だけです。derive_ln1 と比べてください。

        hint:
            F.layer_norm と同じです。

        solution:
            tests/math/test_block_vs_torch.py が確かめています。
    """
)


def test_names_planted_in_a_question_its_options_hint_and_solution_are_found():
    assert _found(QUESTION) == [
        (4, "ops.split_heads", "prose"),  # the question text
        (8, "derive_ln1", "prose"),  # an option's explanation
        (11, "F.layer_norm", "prose"),  # the hint
        (14, "tests/math/test_block_vs_torch.py", "prose"),  # the worked solution
    ]  # the answer's expression (line 2) and the options' keys (copy, T_dff) are the author's code


def test_a_banks_topic_keys_are_the_authors_code_and_its_topic_names_are_read():
    bank = "!!! exercise-bank\n    topic label_smoothing: split_heads の話\n        [ページ](a.md)\n\n"
    question = QUESTION.replace("    answer:", "    topic: label_smoothing\n    answer:")
    assert _found(bank + question)[0] == (2, "split_heads", "prose")  # the name is shown; the key is not
    assert "label_smoothing" not in [name for _, name, _ in _found(bank + question)]


# -------------------------------------------------------------------------------------------- tooltip labels


def test_a_name_planted_in_a_tooltip_label_is_found(monkeypatch):
    monkeypatch.setitem(labels.MATH_LABELS, "preset.T", "1 文のトークン数 (preset_T)")
    labels.label.cache_clear()
    try:
        found = code_names.in_page("前\nT は {{ 5 = preset.T }} です。", LESSON)
    finally:
        labels.label.cache_clear()
    assert [(c.line, c.name, c.where) for c in found] == [(2, "preset_T", "a tooltip label")]


def test_the_labels_of_the_notes_symbols_are_clean():
    assert code_names.in_page("{{ +3.526 = s1.scores[0, 2, 3] }} と {{ +1.00 = s3.ffn_h[0, 13] }}", LESSON) == []


# ---------------------------------------------------------------------------------- captions and alt texts


def test_a_name_planted_in_a_figures_alt_text_or_caption_is_found():
    from matplotlib.figure import Figure

    from transformer_figures import figure_html

    fig = Figure()
    fig.add_subplot().plot([0, 1], [0, 1])
    output = figure_html(fig, alt="文1 の scores (ops.softmax の前)", caption="描いたのは notes_attention_figs.py")
    assert [(c.line, c.name, c.where) for c in code_names.in_output(output, LESSON, 42)] == [
        (42, "ops.softmax", "an alt text"),
        (42, "notes_attention_figs.py", "a caption"),
    ]


def test_a_name_planted_in_a_tables_caption_or_cell_is_found():
    from transformer_figures import table_html

    output = table_html(["段", "値"], [["scores", "torch_crosscheck.TOLERANCE"]], caption="集計は checked_count.py")
    assert [(c.name, c.where) for c in code_names.in_output(output, LESSON, 7)] == [
        ("checked_count.py", "a caption"),
        ("torch_crosscheck.TOLERANCE", "a figure's or table's text"),
    ]


def test_math_code_and_data_in_an_output_are_not_read():
    output = (
        '<p><span class="arithmatex">\\(\\mathrm{ffn\\_pre} = \\sum_d x\\)</span> と \\(\\mu_t\\)</p>'
        '<pre><code>ops.gelu(x)</code></pre><template>{"single_bias": 1}</template>'
    )
    assert code_names.in_output(output, LESSON, 1) == []


# ------------------------------------------------------------------------------------------ what is allowed


@pytest.mark.parametrize(
    "text",
    [
        "ln1_out と ffn_h と ffn_pre と Q_full と X_tok と W_Q と d_model",  # the notes' symbols
        "X_j、W_1、b_Q、P_drop、head_h、ln1_out_j、d_concat",  # with subscripts, gradients
        "```python\nfrom transformer_math import ops\n```",  # code blocks keep their code
        "$\\mathrm{ffn\\_h} = \\mathrm{GELU}(x)$",  # math
        "[§3](03-attention.md) と [論文](https://arxiv.org/abs/1706.03762)",  # link targets
        "sin/cos と d0/d1、e.g. と i.e. と Vaswani et al. と PyTorch と NumPy",
        "<!-- transformer_pages.notes.ffn -->",
        "---\nstage: ffn_h\n---\n本文",
    ],
)
def test_symbols_code_math_links_and_comments_are_not_code_names(text):
    assert _found(text) == []


@pytest.mark.parametrize(
    "path",
    ["docs/reference/citable.md", "docs/reference/api/transformer_math.md", "docs/appendix/how-this-site-checks.md"],
)
def test_reference_api_and_appendix_pages_may_name_the_code(path):
    assert not code_names.is_lesson_page(path)
    assert code_names.in_page("`transformer_site.checked` と mkdocs", path) == []


# -------------------------------------------------------------------------------------------------- the lint


def test_the_lint_fails_on_a_code_name_once_enforced(monkeypatch):
    page = "値は `transformer_pages.notes.ffn` です。\n"
    monkeypatch.setattr(code_names, "ENFORCED", True)
    (problem,) = lint_text(page, LESSON)
    assert str(problem).startswith(f"{LESSON}:1: code name '`transformer_pages.notes.ffn`' (inline code) in prose")
    monkeypatch.setattr(code_names, "ENFORCED", False)
    assert lint_text(page, LESSON) == []


def test_the_rule_is_enforced():
    assert code_names.ENFORCED, "every lesson page is clean: the lint fails on a code name"


PLANTED = {  # one name planted in each kind of text a lesson's reader sees, and where the lint must report it
    "prose": ("前\n値は counting.block_params です。\n", 2, "counting.block_params", "prose"),
    "alt text": ('前\n<img alt="図は snippets/notes/x.py が描く">\n', 2, "snippets/notes/x.py", "an alt text"),
    "claim": ("前\n{{ どの文でも ops.gelu で if 1 == 1 }}\n", 2, "ops.gelu", "a checked claim's words"),
    "question text": (QUESTION, 4, "ops.split_heads", "prose"),
    "option explanation": (QUESTION, 8, "derive_ln1", "prose"),
    "hint": (QUESTION, 11, "F.layer_norm", "prose"),
    "question explanation": (QUESTION, 14, "tests/math/test_block_vs_torch.py", "prose"),
}


@pytest.mark.parametrize("kind", PLANTED)
def test_the_lint_fails_on_a_name_planted_in_each_kind_of_text(kind):
    page, line, name, where = PLANTED[kind]
    messages = [str(p) for p in lint_text(page, LESSON)]
    assert f"{LESSON}:{line}: code name {name!r}" in "\n".join(messages)
    assert any(m.startswith(f"{LESSON}:{line}: code name {name!r}") and f" in {where}" in m for m in messages)


def test_the_lint_fails_on_a_name_planted_in_a_tooltip_label(monkeypatch):
    monkeypatch.setitem(labels.MATH_LABELS, "preset.T", "1 文のトークン数 (preset_T)")
    labels.label.cache_clear()
    try:
        messages = [str(p) for p in lint_text("前\nT は {{ 5 = preset.T }} です。\n", LESSON)]
    finally:
        labels.label.cache_clear()
    assert any(m.startswith(f"{LESSON}:2: code name 'preset_T' (an identifier) in a tooltip label") for m in messages)


@pytest.mark.slow  # runs the lint in a subprocess
def test_the_lint_fails_on_a_name_planted_in_a_caption(tmp_path, monkeypatch):
    _lesson_with_a_table(tmp_path, caption="derive_ln1 の表")
    monkeypatch.setenv("TRANSFORMER_FIGURE_CACHE", "off")
    result = subprocess.run(
        [sys.executable, "-m", "transformer_site.checked", "lint", "--figures", "docs"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stdout.startswith("docs/notes/x.md:3: code name 'derive_ln1' (an identifier) in a caption")


@pytest.mark.slow  # runs the lint in a subprocess
def test_the_report_lists_every_name_at_page_and_line(tmp_path):
    lesson = tmp_path / "docs" / "notes" / "x.md"
    lesson.parent.mkdir(parents=True)
    lesson.write_text("前\n値は counting.block_params です。\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "transformer_site.checked", "lint", "--code-names", "docs"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert result.stdout.startswith("docs/notes/x.md:2: code name 'counting.block_params' (a dotted name) in prose")
    assert "code names: 1 in 1 lesson page(s)" in result.stderr
    assert result.returncode == (1 if code_names.ENFORCED else 0)


def test_the_lint_runs_a_lesson_pages_blocks_with_figures(tmp_path, monkeypatch):
    _lesson_with_a_table(tmp_path, caption="derive_ln1 の表")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRANSFORMER_FIGURE_CACHE", "off")
    found = code_names.find(["docs"], figures=True)
    assert [str(c).split(": a lesson")[0] for c in found] == [
        "docs/notes/x.md:3: code name 'derive_ln1' (an identifier) in a caption"
    ]


def _lesson_with_a_table(root, caption: str) -> None:
    """A project at ``root`` with one lesson page, docs/notes/x.md, whose block (line 3) prints a table with
    ``caption``."""
    snippet = root / "snippets" / "notes" / "x" / "table.py"
    snippet.parent.mkdir(parents=True)
    snippet.write_text(
        f'from transformer_figures import table_html\n\nprint(table_html(["a"], [["x"]], caption="{caption}"))\n',
        encoding="utf-8",
    )
    lesson = root / "docs" / "notes" / "x.md"
    lesson.parent.mkdir(parents=True)
    lesson.write_text(
        '# x\n\n```python exec="on" html="on"\n--8<-- "snippets/notes/x/table.py"\n```\n', encoding="utf-8"
    )
