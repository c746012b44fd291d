"""Each page as a Jupyter notebook, generated from the same Markdown and snippets (``hooks:`` in mkdocs.yml).

``page_notebook`` turns one page into a notebook:

- prose → Markdown cells, with every checked number ``{{ +3.526 = s1.scores[0, 2, 3] }}`` written as its
  literal ``+3.526`` (the build has checked it against ``src``);
- each executed fence (``exec="on"``) → a code cell holding the snippet file's source as it is (the
  ``--8<--`` include is resolved; nothing is copied by hand). A fence whose output is HTML or Markdown gets
  ``%%capture`` on top and a second cell that displays what it printed, so the figure appears as on the page.

The hook adds ``<page>.ipynb`` next to each page that has executed code (``on_files``, as a generated file
served with the site) and puts a download button under the page title (``on_page_content``).
Readers run it after ``pip install "transformer-anatomy[figures]"``; ``tests/site/test_notebooks.py`` executes
every notebook top to bottom.
"""

from __future__ import annotations

import logging
import posixpath
import re
import textwrap
from pathlib import Path

import nbformat
from mkdocs.exceptions import PluginError

from transformer_site.checked.syntax import find_checked_numbers
from transformer_site.fences import INCLUDE, find_fences

log = logging.getLogger("mkdocs.hooks.notebooks")

ROOT = Path(__file__).resolve().parents[2]
_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n.*?\n(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)
SETUP_SOURCE = "from IPython.display import HTML, Markdown, display"
INSTALL_NOTE = (
    "> このノートブックはサイトのページ `{page}` から自動生成されたものです。"
    "図や表を作るコードは、ページの「ソース」タブと同じスニペットです。\n"
    '> 実行には `pip install "transformer-anatomy[figures]"` '
    '(このリポジトリでは `pip install -e ".[figures]"`) が必要です。'
)


def _literals(markdown: str, page: str) -> str:
    """Checked numbers → the literal the reader sees (the build and pytest verify them, not the notebook)."""
    pieces, pos = [], 0
    for number in find_checked_numbers(markdown, page):
        pieces += [markdown[pos : number.start], number.literal]
        pos = number.end
    return "".join(pieces) + markdown[pos:]


def _code_of(body: list[str], page: str, line: int, root: Path) -> str:
    """The code an executed fence runs: each ``--8<-- "file"`` line replaced by that file's text."""
    out = []
    for text in body:
        include = INCLUDE.match(text)
        if include:
            path = root / include["path"]
            if not path.is_file():
                raise ValueError(f"{page}:{line}: executed block includes {include['path']}, which does not exist")
            out.append(path.read_text(encoding="utf-8").rstrip("\n"))
        else:
            out.append(text)
    return "\n".join(out).strip("\n")


def split_page(markdown: str, page: str, root: Path = ROOT) -> list[tuple[str, str, str]]:
    """``[(kind, text, output)]`` in page order: kind "markdown" (text = prose with literals) or "code"
    (text = the executed code, output = "html", "markdown" or "text": how the page shows what it prints)."""
    markdown = _FRONT_MATTER.sub("", markdown)
    lines = markdown.split("\n")
    parts: list[tuple[str, str, str]] = []
    prose: list[str] = []
    i = 0
    for fence in find_fences(lines):
        if not (fence.lang == "python" and fence.executed):
            continue  # a fence shown, not run: stays in the Markdown cell with the prose around it
        prose.extend(lines[i : fence.start])
        if any(p.strip() for p in prose):
            parts.append(("markdown", _literals("\n".join(prose), page).strip("\n"), ""))
        prose = []
        output = "html" if re.search(r"""\bhtml=["']?(on|true|1)\b""", fence.attrs) else "markdown"
        if re.search(r"""\bresult=["']?\w""", fence.attrs):
            output = "text"
        parts.append(("code", _code_of(list(fence.body), page, fence.line, root), output))
        i = fence.end + 1
    prose.extend(lines[i:])
    if any(p.strip() for p in prose):
        parts.append(("markdown", _literals("\n".join(prose), page).strip("\n"), ""))
    return parts


def page_notebook(markdown: str, page: str, root: Path = ROOT) -> nbformat.NotebookNode | None:
    """The notebook of one page, or None when the page runs no code."""
    parts = split_page(markdown, page, root)
    if not any(kind == "code" for kind, _, _ in parts):
        return None
    cells = [nbformat.v4.new_markdown_cell(INSTALL_NOTE.format(page=page)), nbformat.v4.new_code_cell(SETUP_SOURCE)]
    for kind, text, output in parts:
        if kind == "markdown":
            cells.append(nbformat.v4.new_markdown_cell(text))
        elif output == "text":
            cells.append(nbformat.v4.new_code_cell(text))
        else:
            # %%capture keeps the snippet's source unchanged; the next cell shows what it printed.
            cells.append(nbformat.v4.new_code_cell("%%capture printed\n" + text))
            show = "HTML" if output == "html" else "Markdown"
            cells.append(nbformat.v4.new_code_cell(f"display({show}(printed.stdout))"))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    for n, cell in enumerate(notebook.cells):  # stable ids: the same page gives byte-identical notebooks
        cell["id"] = f"cell-{n}"
    nbformat.validate(notebook)
    return notebook


def notebook_path(src_uri: str) -> str:
    """notes/03-attention.md → notes/03-attention.ipynb"""
    return src_uri[: -len(".md")] + ".ipynb"


# ------------------------------------------------------------------------------------------------ MkDocs hooks

_notebooks: dict[str, str] = {}  # page src_uri → notebook src_uri


def on_files(files, config, **kwargs):
    from mkdocs.structure.files import File

    _notebooks.clear()
    project = Path(config.config_file_path).parent  # snippets resolve from the project that is being built
    for file in list(files.documentation_pages()):
        source = Path(file.abs_src_path).read_text(encoding="utf-8") if file.abs_src_path else None
        if source is None:
            continue
        try:
            notebook = page_notebook(source, f"{Path(config['docs_dir']).name}/{file.src_uri}", project)
        except ValueError as exc:  # an error with -q too: the build stops here, naming page and line
            raise PluginError(f"notebook export: {exc}") from None
        if notebook is None:
            continue
        target = notebook_path(file.src_uri)
        files.append(File.generated(config, target, content=nbformat.writes(notebook) + "\n"))
        _notebooks[file.src_uri] = target
    log.info(f"notebooks: {len(_notebooks)} pages as .ipynb")
    return files


def download_button(page_url: str, notebook_uri: str) -> str:
    """The button under the page title; the link is relative, so it works under any site_url."""
    start = page_url[:-1] if page_url.endswith("/") else posixpath.dirname(page_url)
    href = posixpath.relpath(notebook_uri, start or ".")
    name = posixpath.basename(notebook_uri)
    return (
        f'<p class="tf-notebook"><a class="md-button" href="{href}" download="{name}" '
        f'title="このページのコードと本文をまとめた Jupyter ノートブック">'
        f"ノートブックをダウンロード ({name})</a></p>"
    )


_H1_END = re.compile(r"</h1>", re.IGNORECASE)


def on_page_content(html, page, **kwargs):
    target = _notebooks.get(page.file.src_uri)
    if target is None:
        return html
    button = download_button(page.url, target)
    match = _H1_END.search(html)
    if match is None:
        return button + html
    return html[: match.end()] + textwrap.dedent(button) + html[match.end() :]
