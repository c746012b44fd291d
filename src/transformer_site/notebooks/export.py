"""Each page as a Jupyter notebook that runs anywhere, generated from the same Markdown and snippets.

``page_notebook`` turns one page into a notebook:

- a first Markdown cell saying where it comes from (the page's URL, the commit, "Open in Colab"), then the
  setup cell (tagged ``setup``): ``%pip install`` of exactly the wheel the site serves for this build, and
  PyTorch's CPU build or the project files it reads where the page's code needs them
  (``transformer_site.notebooks.setup``, ``transformer_site.notebooks.wheel``);
- prose → Markdown cells, with every checked number ``{{ +3.526 = s1.scores[0, 2, 3] }}`` written as its
  literal ``+3.526`` (the build has checked it against ``src``), links to other pages as their URLs on the
  site, and admonitions (``!!! note "…"``) as quotes;
- each executed fence (``exec="on"``) → a code cell holding the snippet file's source as it is (the
  ``--8<--`` include is resolved; nothing is copied by hand). A fence whose output is HTML or Markdown gets
  ``%%capture`` on top and a second cell that displays what it printed, so the figure appears as on the page.
  That cell carries the output of the build's own run (read from the figure cache: no kernel is started), so
  the notebook reads well before it runs;
- each question (``!!! exercise``, ``transformer_site.page.exercises``) → its text and options, an empty cell to
  work in, and the hint and the worked solution each folded in a ``<details>`` cell (tagged ``solution``).

The build adds ``<page>.ipynb`` next to each page that has executed code, written at its end (:func:`write`,
when every block has run), the wheel and the files the notebooks read (:func:`plan`, while the files are
gathered), and a download button (with the Colab link) under the page title (:func:`with_button`).
``tests/site/test_notebooks*.py`` executes every notebook, and one downloaded from a built site in a fresh
virtual environment outside the repository.
"""

from __future__ import annotations

import functools
import io
import logging
import posixpath
import re
import subprocess
import textwrap
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import nbformat

from transformer_site.execution.blocks import BlockRun, run_block
from transformer_site.execution.cache import execution_disabled
from transformer_site.failures import BuildError
from transformer_site.notebooks.setup import (
    DISPLAY_IMPORT,
    FILES_ZIP,
    Requirements,
    SiteInfo,
    colab_url,
    intro_markdown,
    requirements,
    setup_source,
    site_links,
)
from transformer_site.page import Page
from transformer_site.page.exercises import Exercise, Option, served_orders
from transformer_site.page.fences import INCLUDE
from transformer_site.page.model import Admonition, SiteFiles
from transformer_site.page.tokens import CheckedNumber

log = logging.getLogger("mkdocs.plugins.transformer_site.notebooks")

TEXT = {
    "question": "### 問 {number} ({kind})",
    "choose": "答えを A〜{last} から 1 つ選んでください。",
    "form": "答えの形: {form}",
    "hint": "ヒント",
    "solution": "解答",
    "number_answer": "答え: **{answer}**（{form}）",
    "choice_answer": "答え: **({letter}) {text}**",
    "why_not": "**ほかの選択肢が違う理由**",
    "computed_by": "この答えは `src` の `{expression}` が計算しています。",
    "work_here": "# ここで計算してみましょう\n",
    "src_section": "# {path} の {name}:",
    "button_title": "このページのコードと本文と確認問題をまとめた Jupyter ノートブック",
    "download": "ノートブックをダウンロード ({name})",
    "colab": "Google Colab で開く",
}
"""The reader-facing words of a page's notebook (its questions) and of the download button under the title."""

ROOT = Path(__file__).resolve().parents[2]
SETUP_SOURCE = DISPLAY_IMPORT  # the setup cell of a notebook made without a site (a test's): display only


@dataclass(frozen=True)
class Part:
    kind: str  # "markdown", "code" or "exercise"
    text: str = ""  # prose with literals, or the executed code
    output: str = ""  # code: how the page shows what it prints ("html", "markdown" or "text")
    exercise: Exercise | None = None
    lines: tuple[str, ...] = ()  # exercise: the page's body, line for line, with checked numbers as literals
    admonitions: tuple[tuple[int, str], ...] = ()  # markdown: (line of the part, title) of each admonition
    order: tuple[Option, ...] = ()  # exercise: its options in the order the page serves them


def literal_lines(page: Page, cite: Callable[[CheckedNumber], str] | None = None) -> list[str]:
    """The page's lines with every checked number as the literal the reader sees (the build and pytest verify
    them, not the notebook), and each citation as ``cite`` writes it (by default its key). A token stands on one
    line."""
    lines = list(page.lines)
    for index in sorted({number.line - 1 for number in page.tokens}, reverse=True):
        start = page.line_start(index)
        pieces, pos = [], 0
        for number in (n for n in page.tokens if n.line - 1 == index):
            shown = cite(number) if cite is not None and number.kind == "cite" else number.literal
            pieces += [lines[index][pos : number.start - start], shown]
            pos = number.end - start
        lines[index] = "".join(pieces) + lines[index][pos:]
    return lines


def _code_of(body: list[str], page: str, line: int, root: Path) -> str:
    """The code an executed fence runs: each ``--8<-- "file"`` line replaced by that file's text."""
    out = []
    for text in body:
        include = INCLUDE.match(text)
        if include:
            path = root / include["path"]
            if not path.is_file():
                raise ValueError(f"{page}:{line}: executed block includes {include['path']}, which does not exist")
            out.append(_src_sections_as_comments(path.read_text(encoding="utf-8").rstrip("\n"), page, line, root))
        else:
            out.append(text)
    return "\n".join(out).strip("\n")


# A snippet shows lines of src above its code (the source tab): a string the page hides, holding a section include.
_SRC_SECTION = re.compile(
    r"""^r'\'\'  # markdown-exec: hide\n"""
    r"""-{1,2}8<-{1,2} "(?P<path>[^":]+):(?P<name>[\w-]+)"\n"""
    r"""'\'\'  # markdown-exec: hide.*$""",
    re.MULTILINE,
)


def _section(path: Path, name: str) -> list[str] | None:
    """The lines between ``--8<-- [start:name]`` and ``--8<-- [end:name]`` of ``path`` (pymdownx.snippets' sections)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    marks = [n for n, text in enumerate(lines) if re.search(rf"--8<-- \[(start|end):{re.escape(name)}\]", text)]
    return lines[marks[0] + 1 : marks[1]] if len(marks) == 2 else None


def _src_sections_as_comments(code: str, page: str, line: int, root: Path) -> str:
    """The src lines a snippet shows, as comments in the notebook (the page's include marker would mean nothing
    there, and the code that runs is the installed package's)."""

    def comments(match: re.Match) -> str:
        lines = _section(root / match["path"], match["name"])
        if lines is None:
            raise ValueError(f"{page}:{line}: the snippet shows {match['path']}:{match['name']}, which is no section")
        header = TEXT["src_section"].format(path=match["path"], name=match["name"])
        return "\n".join([header] + [f"#     {text}".rstrip() for text in lines])

    return _SRC_SECTION.sub(comments, code)


def _prose_parts(page: Page, literal: list[str], start: int, end: int) -> list[Part]:
    """Lines ``start``–``end`` (indices of the page's lines) of prose: Markdown parts (each knowing where its
    admonitions are), and each question block a part of its own."""
    body = tuple(literal[page.body_index :])
    headers = {a.line - 1: a for a in page.admonitions}
    bank = page.bank
    skip = range(page.body_index + bank.index, page.body_index + bank.end) if bank else range(0)  # the page's controls
    parts, pos = [], start
    questions = [e for e in page.exercises if start <= page.body_index + e.start < end]
    for exercise in [*questions, None]:
        until = page.body_index + exercise.start if exercise else end
        kept = [(i, literal[i]) for i in range(pos, until) if i not in skip]
        while kept and not kept[0][1]:
            kept.pop(0)
        while kept and not kept[-1][1]:
            kept.pop()
        text = "\n".join(line for _, line in kept)
        if text.strip():
            titles = tuple((n, _title(line, headers[i])) for n, (i, line) in enumerate(kept) if i in headers)
            parts.append(Part("markdown", text, admonitions=titles))
        if exercise is not None:
            parts.append(Part("exercise", exercise=exercise, lines=body))
            pos = page.body_index + exercise.end
    return parts


def _title(line: str, admonition: Admonition) -> str:
    """The admonition's title as the reader sees it (``line``: its header with checked numbers as literals)."""
    if admonition.title is None:
        return admonition.kind
    return line[line.index('"') + 1 : line.rindex('"')]


def split_page(page: Page, root: Path = ROOT) -> list[Part]:
    """The page's parts in order: prose ("markdown", with literals), executed code ("code", with how the page
    shows what it prints: "html", "markdown" or "text") and questions ("exercise")."""
    if page.exercise_error is not None:
        raise ValueError(str(page.exercise_error))
    literal = literal_lines(page)
    parts: list[Part] = []
    i = page.body_index
    for fence in page.fences:
        if not (fence.lang == "python" and fence.executed):
            continue  # a fence shown, not run: stays in the Markdown cell with the prose around it
        parts += _prose_parts(page, literal, i, fence.start)
        output = "html" if re.search(r"""\bhtml=["']?(on|true|1)\b""", fence.attrs) else "markdown"
        if re.search(r"""\bresult=["']?\w""", fence.attrs):
            output = "text"
        parts.append(Part("code", _code_of(list(fence.body), page.path, fence.line, root), output))
        i = fence.end + 1
    parts += _prose_parts(page, literal, i, len(page.lines))
    questions = [n for n, part in enumerate(parts) if part.kind == "exercise"]
    for n, order in zip(questions, served_orders([parts[n].exercise for n in questions]), strict=True):
        parts[n] = replace(parts[n], order=order)  # the page's order: counted over the whole page
    return parts


def _as_quotes(part: Part) -> str:
    """The part's admonitions (``!!! note "Title"`` and its indented body) → quotes Jupyter renders (it knows no
    admonitions)."""
    titles = dict(part.admonitions)
    out, inside = [], False
    for n, line in enumerate(part.text.split("\n")):
        if n in titles:
            out.append(f"> **{titles[n]}**")
            inside = True
        elif inside and (line.startswith("    ") or not line.strip()):
            out.append(("> " + line[4:]).rstrip())
        else:
            inside = False
            out.append(line)
    return "\n".join(out)


def _exercise_cells(part: Part, number: int, page: str, site: SiteInfo | None) -> list[nbformat.NotebookNode]:
    """A question: its text and options, a cell to work in, and the hint and solution folded away."""
    ex, lines = part.exercise, list(part.lines)

    def prose(text: str) -> str:
        return site_links(text, page, site) if site else text

    question = [TEXT["question"].format(number=number, kind=ex.kind_name), ""]
    question += [prose(section.text(lines)) + "\n" for section in ex.question]
    options = part.order or ex.options
    letter = {o.key: chr(ord("A") + n) for n, o in enumerate(options)}  # the page's keys are for the page
    if options:
        question += [f"- ({letter[o.key]}) {prose(o.text(lines))}" for o in options] + [""]
        question.append(TEXT["choose"].format(last=letter[options[-1].key]))
    else:
        question.append(TEXT["form"].format(form=ex.form.words))
    hint = f"<details><summary>{TEXT['hint']}</summary>\n\n{prose(ex.hint.text(lines))}\n\n</details>"
    if ex.kind == "number":
        answer = TEXT["number_answer"].format(answer=ex.answer_literal, form=ex.form.words)
    else:
        right = ex.option(ex.answer_literal)
        answer = TEXT["choice_answer"].format(letter=letter[right.key], text=prose(right.text(lines)))
        if right.reason is not None:
            answer += "\n\n" + prose(right.reason.text(lines))
    body = [answer, prose(ex.solution.text(lines))]
    wrong = [o for o in options if o.key != ex.answer_literal]
    if wrong:
        body.append(TEXT["why_not"] + "\n\n" + "\n".join(
            f"- ({letter[o.key]}) {prose(o.text(lines))}: "
            + " ".join(piece.strip() for piece in o.reason.text(lines).split("\n") if piece.strip())
            for o in wrong
        ))  # fmt: skip
    body.append(TEXT["computed_by"].format(expression=ex.answer_expression))
    solution = f"<details><summary>{TEXT['solution']}</summary>\n\n" + "\n\n".join(body) + "\n\n</details>"
    cells = [
        nbformat.v4.new_markdown_cell("\n".join(question).rstrip() + "\n\n" + hint),
        nbformat.v4.new_code_cell(TEXT["work_here"]),
        nbformat.v4.new_markdown_cell(solution),
    ]
    cells[2].metadata["tags"] = ["solution"]
    return cells


def page_notebook(
    page: Page,
    root: Path = ROOT,
    site: SiteInfo | None = None,
    outputs: Callable[[str], str | None] | None = None,
    parts: list[Part] | None = None,
) -> nbformat.NotebookNode | None:
    """The notebook of one page, or None when the page runs no code. ``site``: the build's site (setup cell, links,
    Colab); ``outputs``: a code cell's output from the build's run, by its code (None: the cell has none);
    ``parts``: ``split_page``'s, if known."""
    parts = split_page(page, root) if parts is None else parts
    codes = [part.text for part in parts if part.kind == "code"]
    if not codes:
        return None
    if site is None:
        cells = [nbformat.v4.new_code_cell(SETUP_SOURCE)]
    else:
        needs = requirements(codes, root)
        intro = intro_markdown(page.path, site, notebook_path(page.path.split("/", 1)[-1]))
        cells = [nbformat.v4.new_markdown_cell(intro), nbformat.v4.new_code_cell(setup_source(site, needs))]
    cells[-1].metadata["tags"] = ["setup"]
    questions = 0
    for part in parts:
        if part.kind == "markdown":
            text = _as_quotes(part)
            cells.append(nbformat.v4.new_markdown_cell(site_links(text, page.path, site) if site else text))
        elif part.kind == "exercise":
            questions += 1
            cells += _exercise_cells(part, questions, page.path, site)
        elif part.output == "text":
            cell = nbformat.v4.new_code_cell(part.text)
            printed = outputs(part.text) if outputs else None
            if printed:
                cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
            cells.append(cell)
        else:
            # %%capture keeps the snippet's source unchanged; the next cell shows what it printed.
            cells.append(nbformat.v4.new_code_cell("%%capture printed\n" + part.text))
            show = "HTML" if part.output == "html" else "Markdown"
            cell = nbformat.v4.new_code_cell(f"display({show}(printed.stdout))")
            printed = outputs(part.text) if outputs else None
            if printed:
                mime = "text/html" if part.output == "html" else "text/markdown"
                cell.outputs = [nbformat.v4.new_output("display_data", data={mime: printed})]
            cells.append(cell)
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    if site is not None and site.commit:
        notebook.metadata["transformer_site"] = {"commit": site.commit, "wheel": site.url(site.wheel_uri)}
    for n, cell in enumerate(notebook.cells):  # stable ids: the same page gives byte-identical notebooks
        cell["id"] = f"cell-{n}"
    nbformat.validate(notebook)
    return notebook


def notebook_path(src_uri: str) -> str:
    """notes/03-attention.md → notes/03-attention.ipynb"""
    return src_uri[: -len(".md")] + ".ipynb"


def build_commit(root: Path) -> str:
    """HEAD of the project's git work tree, or "" outside git."""
    try:
        result = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""


def files_zip(root: Path, paths: list[str]) -> bytes:
    """The project files the notebooks read — a named file, or a named folder's pages (``docs`` → ``docs/**/*.md``:
    what the site's tools read) — zipped with fixed dates: the same files, the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(paths):
            base = root / name
            for path in sorted([base] if base.is_file() else base.rglob("*.md")):  # a folder: its pages
                if path.is_file():
                    info = zipfile.ZipInfo(path.relative_to(root).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


# ------------------------------------------------------------------------------------------------ one build


@dataclass
class NotebookBuild:
    """The notebooks of one build: the site they point at, and each page's parts and notebook."""

    project: Path
    docs_dir: str
    site: SiteInfo
    pages: dict[str, tuple[list[Part], str]]  # page src_uri → (its parts, notebook src_uri)


def plan(
    files: SiteFiles, page_of: Callable[[str, Path], Page], project: Path, docs_dir: str, site_url: str, repo_url: str,
    lab_downloads: dict[str, str],
) -> NotebookBuild:
    """Every page with executed code gets a notebook (written after the build, :func:`write`); the wheel they
    install and the project files they read are added to ``files``, and each lab's readers' notebook
    (``lab_downloads``: its served path → its page, as messages name it) gets the intro and setup cell of every
    page's notebook. A page that cannot be split is a :class:`BuildError` naming page and line."""
    from transformer_site.execution.cache import find_src_root
    from transformer_site.notebooks.wheel import WheelError, project_wheel

    start = time.perf_counter()
    pages, codes = {}, []
    for uri, source in files.pages():
        if source is None:
            continue
        try:
            parts = split_page(page_of(uri, source), project)
        except ValueError as exc:  # an error with -q too: the build stops here, naming page and line
            raise BuildError(f"notebook export: {exc}") from None
        found = [part.text for part in parts if part.kind == "code"]
        if found:
            pages[uri] = (parts, notebook_path(uri))
            codes += found
    code_root = find_src_root().parent  # the project whose src computed this site (a test's tiny site: this repo)
    try:
        wheel = project_wheel(code_root, code_root / ".cache" / "wheels")
    except WheelError as exc:
        raise BuildError(f"notebook export: {exc}") from None
    for uri in (wheel.pinned_uri, wheel.stable_uri):
        files.add(uri, source=wheel.path)
    needs = requirements(codes, project) if codes else Requirements()
    files_uri = ""
    if needs.files:
        files_uri = f"{posixpath.dirname(wheel.pinned_uri)}/{FILES_ZIP}"
        files.add(files_uri, content=files_zip(project, list(needs.files)))
    site = SiteInfo(
        site_url=site_url if site_url.endswith("/") else site_url + "/",
        wheel_uri=wheel.pinned_uri,
        repo_url=repo_url,
        commit=build_commit(project),
        files_uri=files_uri,
        page_urls={f"{docs_dir}/{uri}": files.url(uri) for uri, _ in files.pages()},
    )
    for uri, page in lab_downloads.items():  # a lab's download runs anywhere, as every page's does
        try:
            files.set_content(uri, readers_lab(files.content(uri), page, uri, project, site))
        except ValueError as exc:
            raise BuildError(f"notebook export: {exc}") from None
    log.info(f"notebooks: {len(pages)} pages as .ipynb; wheel {wheel.pinned_uri} ({time.perf_counter() - start:.1f} s)")
    return NotebookBuild(project, docs_dir, site, pages)


def readers_lab(content: bytes, page: str, notebook_uri: str, root: Path, site: SiteInfo) -> bytes:
    """A lab's executed readers' notebook with the intro, the setup cell of this build's wheel, and links to the
    site's pages (``page``: docs/backprop/05-lab.md, as messages name it); outputs and the lab's cells unchanged."""
    notebook = nbformat.reads(content.decode("utf-8"), as_version=4)
    codes = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    setup = nbformat.v4.new_code_cell(setup_source(site, requirements(codes, root)))
    setup.metadata["tags"] = ["setup"]
    intro = nbformat.v4.new_markdown_cell(intro_markdown(page, site, notebook_uri))
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = site_links(cell.source, page, site)
    notebook.cells = [intro, setup, *notebook.cells]
    for n, cell in enumerate(notebook.cells):  # stable ids: byte-identical builds
        cell["id"] = f"cell-{n}"
    nbformat.validate(notebook)
    return (nbformat.writes(notebook) + "\n").encode("utf-8")


def _cached_output(run: BlockRun, code: str) -> str | None:
    """What the build printed for ``code``: the figure cache's record of this build's run (no kernel, no rerun
    when the cache is on; with the cache off the block runs again through the same runner)."""
    if execution_disabled():
        return None
    cache = run.cache
    if cache.cache_dir is not None:
        for variant in (code + "\n", code):  # the fence hands the runner the snippet with its final newline
            path = Path(cache.cache_dir) / f"{cache.key(variant)}.out"
            if path.is_file():
                return path.read_text(encoding="utf-8")
    return run_block(code + "\n", run=run) or None


def write(notebooks: NotebookBuild, site_dir: Path, run: BlockRun, rebuilt: set[str] | None) -> None:
    """Each page's notebook into the built site, with the outputs of this build's run (``rebuilt``: the URLs of the
    pages this build rendered when it rendered only some; the others keep the notebook of the last good build)."""
    start = time.perf_counter()
    written = 0
    for page, (parts, target) in sorted(notebooks.pages.items()):
        path = site_dir / target
        if rebuilt is not None and notebooks.site.page_urls.get(f"{notebooks.docs_dir}/{page}") not in rebuilt:
            if path.is_file():
                continue  # a prose edit of another page: this notebook is the last good build's, and still right
        try:
            notebook = page_notebook(
                Page("", f"{notebooks.docs_dir}/{page}"), notebooks.project, notebooks.site,
                functools.partial(_cached_output, run), parts,
            )  # fmt: skip
        except ValueError as exc:
            raise BuildError(f"notebook export: {exc}") from None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")
        written += 1
    log.info(f"notebooks: {written} written with the build's outputs in {time.perf_counter() - start:.1f} s")


def download_button(page_url: str, notebook_uri: str, colab: str | None = None, title: str = "") -> str:
    """The button under the page title (the link is relative, so it works under any site_url), and Colab's."""
    start = page_url[:-1] if page_url.endswith("/") else posixpath.dirname(page_url)
    href = posixpath.relpath(notebook_uri, start or ".")
    name = posixpath.basename(notebook_uri)
    button = (
        f'<p class="tf-notebook" data-search-exclude><a class="md-button" href="{href}" download="{name}" '
        f'title="{title or TEXT["button_title"]}">'
        f"{TEXT['download'].format(name=name)}</a>"
    )
    if colab:
        button += f' <a class="md-button" href="{colab}" rel="noopener">{TEXT["colab"]}</a>'
    return button + "</p>"


_H1_END = re.compile(r"</h1>", re.IGNORECASE)


def with_button(html: str, page_uri: str, page_url: str, notebooks: NotebookBuild) -> str:
    """The page's content with the download button under its title, if the page has a notebook."""
    if page_uri not in notebooks.pages:
        return html
    target = notebooks.pages[page_uri][1]
    button = download_button(page_url, target, colab_url(notebooks.site.repo_url, target))
    match = _H1_END.search(html)
    if match is None:
        return button + html
    return html[: match.end()] + textwrap.dedent(button) + html[match.end() :]
