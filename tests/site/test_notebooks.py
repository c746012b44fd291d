"""Each page as a notebook: generated from the page's Markdown and snippet files, runnable top to bottom.

The pages are whatever ``docs/**/*.md`` holds now (pages written later are covered automatically). Every
notebook is executed with nbclient on the ``python3`` kernel of this interpreter (ipykernel), with the
package installed, as CI does; the count and the run time are printed.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from transformer_site.notebooks.export import (
    _src_sections_as_comments,
    download_button,
    notebook_path,
    page_notebook,
    split_page,
)
from transformer_site.notebooks.setup import SiteInfo
from transformer_site.page import Page
from transformer_site.page.tokens import find_checked_numbers

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if "assets" not in p.parts)
_EXEC_FENCE = re.compile(r"""^[ \t]*`{3,}\s*python[^\n]*\bexec=["']?on""", re.MULTILINE)


def _rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _notebooks() -> dict[str, nbformat.NotebookNode]:
    out = {}
    for page in PAGES:
        notebook = page_notebook(Page.read(page, _rel(page)), ROOT)
        if notebook is not None:
            out[_rel(page)] = notebook
    return out


def test_every_page_with_executed_code_has_a_notebook():
    with_code = {_rel(p) for p in PAGES if _EXEC_FENCE.search(p.read_text(encoding="utf-8"))}
    assert with_code, "no page runs code: the notebook export would be tested on nothing"
    assert set(_notebooks()) == with_code


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_code_cells_are_the_snippets_and_numbers_are_literals(page: Path):
    source = page.read_text(encoding="utf-8")
    notebook = page_notebook(Page(source, _rel(page)), ROOT)
    if notebook is None:
        pytest.skip("page runs no code")
    code = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    for include in re.findall(r"""--8<--\s+["']?([^"'\s]+)""", source):
        snippet = (ROOT / include).read_text(encoding="utf-8").strip("\n")
        if "markdown-exec: hide" in snippet:  # the src lines it shows are comments there (tested below)
            assert "--8<--" not in code, f"{_rel(page)}: {include}'s src include reached the notebook"
            snippet = _src_sections_as_comments(snippet, _rel(page), 1, ROOT)
        assert snippet in code, f"{_rel(page)}: {include} is not in the notebook as it is"
    prose = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert not find_checked_numbers(prose, "notebook"), "a checked-number token left in the prose (outside code)"
    for number in find_checked_numbers(source, _rel(page)):
        assert number.literal in prose, f"{number.location}: literal {number.literal!r} missing from the notebook"


def test_split_page_keeps_order_indentation_and_shown_fences(tmp_path: Path):
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "a.py").write_text("print('<b>a</b>')\n", encoding="utf-8")
    page = (
        "# 題\n\n値は {{ 0.50 = 1 / 2 }} です。\n\n"
        '=== "タブ"\n\n'
        '    ```python exec="on" html="on" id="t-a"\n    --8<-- "snippets/a.py"\n    ```\n\n'
        "```python\nshown_only = 1\n```\n\n後書き\n"
    )
    parts = split_page(Page(page, "docs/t.md"), tmp_path)
    assert [p.kind for p in parts] == ["markdown", "code", "markdown"]
    assert "値は 0.50 です" in parts[0].text and "{{" not in parts[0].text
    assert (parts[1].text, parts[1].output) == ("print('<b>a</b>')", "html")
    assert "shown_only = 1" in parts[2].text  # a fence that is only shown stays in the prose


def test_missing_snippet_names_page_and_line(tmp_path: Path):
    page = '# 題\n\n```python exec="on" id="x"\n--8<-- "snippets/none.py"\n```\n'
    with pytest.raises(ValueError, match=r"docs/t\.md:3: .*snippets/none\.py"):
        split_page(Page(page, "docs/t.md"), tmp_path)


def test_download_link_is_relative_to_the_page():
    assert 'href="../03-attention.ipynb"' in download_button("notes/03-attention/", "notes/03-attention.ipynb")
    assert 'href="index.ipynb"' in download_button("tryit/", "tryit/index.ipynb")
    assert notebook_path("notes/03-attention.md") == "notes/03-attention.ipynb"


def test_generation_is_deterministic():
    page = next(p for p in PAGES if _EXEC_FENCE.search(p.read_text(encoding="utf-8")))
    first, second = (nbformat.writes(page_notebook(Page.read(page, _rel(page)), ROOT)) for _ in "12")
    assert first == second


def _execute(item: tuple[str, nbformat.NotebookNode]) -> tuple[str, float, str | None]:
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    name, notebook = item
    start = time.perf_counter()
    try:
        NotebookClient(
            notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
        ).execute()
    except CellExecutionError as err:
        return name, time.perf_counter() - start, str(err)[-1500:]
    shown = sum(
        1 for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "display_data"
    )
    return name, time.perf_counter() - start, None if shown else "no figure or table was displayed"


@pytest.mark.slow  # executes every page's notebook
def test_every_notebook_runs_top_to_bottom():
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebooks = _notebooks()
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:  # two kernels at a time: the machine is shared
        results = list(pool.map(_execute, notebooks.items()))
    elapsed = time.perf_counter() - start
    print(f"\n{len(results)} notebooks executed in {elapsed:.1f} s (slowest: "
          f"{max(results, key=lambda r: r[1])[0]} {max(r[1] for r in results):.1f} s)")  # fmt: skip
    failures = [f"{name}: {error}" for name, _, error in results if error]
    assert not failures, "\n\n".join(failures)


# ------------------------------------------------------------------ questions, links, setup cell, Colab, outputs

SITE = SiteInfo(
    site_url="https://example.org/book/",
    wheel_uri="wheels/abc123/transformer_anatomy-0.1.0-py3-none-any.whl",
    repo_url="https://github.com/transformer-anatomy/transformer-block-math",
    commit="0123456789abcdef",
    files_uri="wheels/abc123/files.zip",
    page_urls={},
)


def _site() -> SiteInfo:
    """SITE with each page's URL as MkDocs makes it (directory URLs): notes/03-attention.md → notes/03-attention/."""
    urls = {}
    for page in PAGES:
        rel = page.relative_to(ROOT / "docs").with_suffix("").as_posix()
        directory = rel[: -len("index")] if rel.endswith("/index") else rel + "/"
        urls[f"docs/{rel}.md"] = "" if rel == "index" else directory
    return SiteInfo(SITE.site_url, SITE.wheel_uri, SITE.repo_url, SITE.commit, SITE.files_uri, urls)


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_questions_are_in_the_notebook_with_folded_solutions(page: Path):
    from transformer_site.page.exercises import find_exercises

    source = page.read_text(encoding="utf-8")
    notebook = page_notebook(Page(source, _rel(page)), ROOT)
    exercises, _ = find_exercises(source, _rel(page))
    if notebook is None or not exercises:
        pytest.skip("no notebook or no questions")
    questions = [c for c in notebook.cells if c.cell_type == "markdown" and c.source.startswith("### 問 ")]
    solutions = [c for c in notebook.cells if "solution" in c.metadata.get("tags", [])]
    assert len(questions) == len(solutions) == len(exercises)
    for exercise, question, solution in zip(exercises, questions, solutions, strict=True):
        assert "<details><summary>ヒント</summary>" in question.source and "!!! exercise" not in question.source
        assert solution.source.startswith("<details><summary>解答</summary>") and solution.source.endswith("</details>")
        assert f"答え: **{exercise.answer_literal}**" in solution.source or "答え: **(" in solution.source
        assert exercise.answer_expression in solution.source


def test_links_point_to_the_site_and_the_setup_cell_installs_the_served_wheel():
    page = ROOT / "docs/notes/03-attention.md"
    notebook = page_notebook(Page.read(page, _rel(page)), ROOT, _site())
    markdown = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert not re.search(r"\]\([^)]*\.md[)#]", markdown), "a link still points to a .md file"
    assert "](https://example.org/book/notes/04-concat/)" in markdown
    setup = notebook.cells[1]
    assert setup.metadata["tags"] == ["setup"]
    assert '%pip install -q "transformer-anatomy[figures] @ https://example.org/book/wheels/abc123/' in setup.source
    assert "torch" not in setup.source and "zipfile" not in setup.source  # §3 needs neither
    assert notebook.metadata["transformer_site"]["commit"] == SITE.commit


def test_a_page_that_needs_pytorch_and_the_pages_gets_them_in_its_setup_cell():
    page = ROOT / "docs/appendix/how-this-site-checks.md"
    setup = page_notebook(Page.read(page, _rel(page)), ROOT, _site()).cells[1].source
    assert '%pip install -q "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu' in setup
    assert "transformer-anatomy[docs,figures] @" in setup  # the checked-number count reads the site's tools
    assert "https://example.org/book/wheels/abc123/files.zip" in setup  # … and the pages (docs/)


def test_a_link_to_a_missing_page_is_an_error_naming_the_page():
    from transformer_site.notebooks.setup import site_links

    with pytest.raises(ValueError, match=r"docs/notes/03-attention\.md: the link 99-none\.md names no page"):
        site_links("[x](99-none.md)", "docs/notes/03-attention.md", _site())


def test_colab_link_form():
    from transformer_site.notebooks.setup import colab_url

    repo = re.search(r"^repo_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.MULTILINE)[1]
    assert colab_url(repo, "notes/03-attention.ipynb") == (
        "https://colab.research.google.com/github/transformer-anatomy/transformer-block-math/blob/notebooks/"
        "notes/03-attention.ipynb"
    )
    assert colab_url(repo + ".git", "a.ipynb").endswith("/transformer-block-math/blob/notebooks/a.ipynb")
    assert colab_url("https://gitlab.com/a/b", "a.ipynb") is None  # Colab opens notebooks from GitHub only
    assert colab_url("", "a.ipynb") is None
    assert 'href="https://colab.research.google.com/github/' in download_button(
        "notes/03-attention/", "notes/03-attention.ipynb", colab_url(repo, "notes/03-attention.ipynb")
    )


def test_the_build_outputs_are_attached_without_running_anything():
    page = ROOT / "docs/notes/03-attention.md"
    seen = []

    def outputs(code: str) -> str:
        seen.append(code)
        return f"<p>output {len(seen)}</p>"

    notebook = page_notebook(Page.read(page, _rel(page)), ROOT, _site(), outputs)
    shown = [c for c in notebook.cells if c.cell_type == "code" and c.outputs]
    assert len(shown) == len(seen) > 0
    assert shown[0].outputs[0]["data"]["text/html"] == "<p>output 1</p>"


def test_a_labs_download_gets_the_intro_the_setup_cell_and_site_links():
    """The lab's executed notebook (mkdocs-jupyter's page) runs anywhere once downloaded, as every page's does."""
    from transformer_site.notebooks.export import readers_lab

    lab = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# ラボ\n\n[逆伝播 1](01-loss.md) の勾配を使います。"),
            nbformat.v4.new_code_cell("from transformer_math import training\nprint(training.STEPS)"),
        ]
    )
    lab.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="100\n")]
    site = _site()
    page, uri = "docs/backprop/05-lab.md", "backprop/05-lab/05-lab.ipynb"
    out = nbformat.reads(readers_lab(nbformat.writes(lab).encode(), page, uri, ROOT, site).decode(), as_version=4)
    intro, setup, title, code = out.cells
    assert site.url(site.wheel_uri) in setup.source and setup.metadata["tags"] == ["setup"]
    assert "colab.research.google.com" in intro.source and uri in intro.source
    assert site.url(site.page_urls["docs/backprop/01-loss.md"]) in title.source and "01-loss.md)" not in title.source
    assert code.outputs[0]["text"] == "100\n" and [c["id"] for c in out.cells] == [f"cell-{n}" for n in range(4)]
    with pytest.raises(ValueError, match="names no page"):
        broken = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("[x](nowhere.md)")])
        readers_lab(nbformat.writes(broken).encode(), page, uri, ROOT, site)


def test_the_src_lines_a_snippet_shows_become_comments_in_the_notebook(tmp_path):
    """The page includes a src section into a hidden string; the notebook shows those lines as comments instead."""
    from transformer_site.notebooks.export import _code_of

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text("x = 1\n# --8<-- [start:two]\ny = 2\n# --8<-- [end:two]\n", encoding="utf-8")
    hidden = "r'''  # markdown-exec: hide\n--8<-- \"src/m.py:{}\"\n'''  # markdown-exec: hide  # fmt: skip\n"
    (tmp_path / "snippet.py").write_text("a = 0\n" + hidden.format("two") + "print(a)\n", encoding="utf-8")
    code = _code_of(['--8<-- "snippet.py"'], "docs/p.md", 3, tmp_path)
    assert code == "a = 0\n# src/m.py の two:\n#     y = 2\nprint(a)"
    (tmp_path / "snippet.py").write_text(hidden.format("three"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"docs/p\.md:3: .*src/m\.py:three, which is no section"):
        _code_of(['--8<-- "snippet.py"'], "docs/p.md", 3, tmp_path)
