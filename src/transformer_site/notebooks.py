"""Each page as a Jupyter notebook that runs anywhere, generated from the same Markdown and snippets (``hooks:``).

``page_notebook`` turns one page into a notebook:

- a first Markdown cell saying where it comes from (the page's URL, the commit, "Open in Colab"), then the
  setup cell (tagged ``setup``): ``%pip install`` of exactly the wheel the site serves for this build, and
  PyTorch's CPU build or the project files it reads where the page's code needs them
  (``transformer_site.notebooks_setup``, ``transformer_site.notebooks_wheel``);
- prose → Markdown cells, with every checked number ``{{ +3.526 = s1.scores[0, 2, 3] }}`` written as its
  literal ``+3.526`` (the build has checked it against ``src``), links to other pages as their URLs on the
  site, and admonitions (``!!! note "…"``) as quotes;
- each executed fence (``exec="on"``) → a code cell holding the snippet file's source as it is (the
  ``--8<--`` include is resolved; nothing is copied by hand). A fence whose output is HTML or Markdown gets
  ``%%capture`` on top and a second cell that displays what it printed, so the figure appears as on the page.
  That cell carries the output of the build's own run (read from the figure cache: no kernel is started), so
  the notebook reads well before it runs;
- each question (``!!! exercise``, ``transformer_site.exercises``) → its text and options, an empty cell to
  work in, and the hint and the worked solution each folded in a ``<details>`` cell (tagged ``solution``).

The hook adds ``<page>.ipynb`` next to each page that has executed code, written at the end of the build
(``on_post_build``, when every block has run), the wheel and the files the notebooks read (``on_files``), and a
download button (with the Colab link) under the page title (``on_page_content``).
``tests/site/test_notebooks*.py`` executes every notebook, and one downloaded from a built site in a fresh
virtual environment outside the repository.
"""

from __future__ import annotations

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
from mkdocs.exceptions import PluginError

from transformer_site.checked.syntax import find_checked_numbers
from transformer_site.exercises import KINDS, Exercise, ExerciseError, Option, find_exercises, served_orders
from transformer_site.fences import INCLUDE, find_fences
from transformer_site.notebooks_setup import (
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

log = logging.getLogger("mkdocs.hooks.notebooks")

ROOT = Path(__file__).resolve().parents[2]
_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n.*?\n(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)
SETUP_SOURCE = DISPLAY_IMPORT  # the setup cell of a notebook made without a site (a test's): display only
_ADMONITION = re.compile(r"^(?P<marker>!!!|\?\?\?\+?)[ \t]+(?P<kind>[\w-]+)(?:[ \t]+\"(?P<title>[^\"]*)\")?[ \t]*$")


@dataclass(frozen=True)
class Part:
    kind: str  # "markdown", "code" or "exercise"
    text: str = ""  # prose with literals, or the executed code
    output: str = ""  # code: how the page shows what it prints ("html", "markdown" or "text")
    exercise: Exercise | None = None
    lines: tuple[str, ...] = ()  # exercise: the page's lines with checked numbers as literals
    order: tuple[Option, ...] = ()  # exercise: its options in the order the page serves them


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
        return "\n".join([f"# {match['path']} の {match['name']}:"] + [f"#     {text}".rstrip() for text in lines])

    return _SRC_SECTION.sub(comments, code)


def _prose_parts(prose: list[str], page: str, first_line: int) -> list[Part]:
    """A stretch of prose: Markdown parts, with each question block as a part of its own."""
    text = "\n".join(prose)
    try:
        exercises, bank = find_exercises(text, page, first_line)
    except ExerciseError as exc:
        raise ValueError(str(exc)) from None
    literal_lines = tuple(_literals(text, page).split("\n"))
    skip = range(bank.index, bank.end) if bank else range(0)  # the bank's controls are the page's
    parts, pos = [], 0
    for exercise in [*exercises, None]:
        until = exercise.start if exercise else len(prose)
        chunk = "\n".join(line for n, line in enumerate(literal_lines[pos:until], start=pos) if n not in skip)
        if chunk.strip():
            parts.append(Part("markdown", chunk.strip("\n")))
        if exercise is not None:
            parts.append(Part("exercise", exercise=exercise, lines=literal_lines))
            pos = exercise.end
    return parts


def split_page(markdown: str, page: str, root: Path = ROOT) -> list[Part]:
    """The page's parts in order: prose ("markdown", with literals), executed code ("code", with how the page
    shows what it prints: "html", "markdown" or "text") and questions ("exercise")."""
    front = _FRONT_MATTER.match(markdown)
    first_line = 1 + (front.group(0).count("\n") if front else 0)
    markdown = _FRONT_MATTER.sub("", markdown)
    lines = markdown.split("\n")
    parts: list[Part] = []
    i = 0
    for fence in find_fences(lines):
        if not (fence.lang == "python" and fence.executed):
            continue  # a fence shown, not run: stays in the Markdown cell with the prose around it
        parts += _prose_parts(lines[i : fence.start], page, first_line + i)
        output = "html" if re.search(r"""\bhtml=["']?(on|true|1)\b""", fence.attrs) else "markdown"
        if re.search(r"""\bresult=["']?\w""", fence.attrs):
            output = "text"
        parts.append(Part("code", _code_of(list(fence.body), page, fence.line + first_line - 1, root), output))
        i = fence.end + 1
    parts += _prose_parts(lines[i:], page, first_line + i)
    questions = [n for n, part in enumerate(parts) if part.kind == "exercise"]
    for n, order in zip(questions, served_orders([parts[n].exercise for n in questions]), strict=True):
        parts[n] = replace(parts[n], order=order)  # the page's order: counted over the whole page
    return parts


def _quotes_for_admonitions(markdown: str) -> str:
    """``!!! note "Title"`` and its indented body → a quote Jupyter renders (it knows no admonitions)."""
    out, inside = [], False
    for line in markdown.split("\n"):
        found = _ADMONITION.match(line)
        if found:
            out.append(f"> **{found['title'] or found['kind']}**")
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

    question = [f"### 問 {number} ({KINDS[ex.kind]})", ""]
    question += [prose(section.text(lines)) + "\n" for section in ex.question]
    options = part.order or ex.options
    letter = {o.key: chr(ord("A") + n) for n, o in enumerate(options)}  # the page's keys are for the page
    if options:
        question += [f"- ({letter[o.key]}) {prose(o.text(lines))}" for o in options] + [""]
        question.append("答えを A〜" + letter[options[-1].key] + " から 1 つ選んでください。")
    else:
        question.append(f"答えの形: {ex.form.words}")
    hint = f"<details><summary>ヒント</summary>\n\n{prose(ex.hint.text(lines))}\n\n</details>"
    if ex.kind == "number":
        answer = f"答え: **{ex.answer_literal}**（{ex.form.words}）"
    else:
        right = ex.option(ex.answer_literal)
        answer = f"答え: **({letter[right.key]}) {prose(right.text(lines))}**"
        if right.reason is not None:
            answer += "\n\n" + prose(right.reason.text(lines))
    body = [answer, prose(ex.solution.text(lines))]
    wrong = [o for o in options if o.key != ex.answer_literal]
    if wrong:
        body.append("**ほかの選択肢が違う理由**\n\n" + "\n".join(
            f"- ({letter[o.key]}) {prose(o.text(lines))}: "
            + " ".join(piece.strip() for piece in o.reason.text(lines).split("\n") if piece.strip())
            for o in wrong
        ))  # fmt: skip
    body.append(f"この答えは `src` の `{ex.answer_expression}` が計算しています。")
    solution = "<details><summary>解答</summary>\n\n" + "\n\n".join(body) + "\n\n</details>"
    cells = [
        nbformat.v4.new_markdown_cell("\n".join(question).rstrip() + "\n\n" + hint),
        nbformat.v4.new_code_cell("# ここで計算してみましょう\n"),
        nbformat.v4.new_markdown_cell(solution),
    ]
    cells[2].metadata["tags"] = ["solution"]
    return cells


def page_notebook(
    markdown: str,
    page: str,
    root: Path = ROOT,
    site: SiteInfo | None = None,
    outputs: Callable[[str], str | None] | None = None,
    parts: list[Part] | None = None,
) -> nbformat.NotebookNode | None:
    """The notebook of one page (``page``: as messages name it, e.g. ``docs/notes/03-attention.md``), or None
    when the page runs no code. ``site``: the build's site (setup cell, links, Colab); ``outputs``: a code cell's
    output from the build's run, by its code (None: the cell has none); ``parts``: ``split_page``'s, if known."""
    parts = split_page(markdown, page, root) if parts is None else parts
    codes = [part.text for part in parts if part.kind == "code"]
    if not codes:
        return None
    if site is None:
        cells = [nbformat.v4.new_code_cell(SETUP_SOURCE)]
    else:
        needs = requirements(codes, root)
        intro = intro_markdown(page, site, notebook_path(page.split("/", 1)[-1]))
        cells = [nbformat.v4.new_markdown_cell(intro), nbformat.v4.new_code_cell(setup_source(site, needs))]
    cells[-1].metadata["tags"] = ["setup"]
    questions = 0
    for part in parts:
        if part.kind == "markdown":
            text = _quotes_for_admonitions(part.text)
            cells.append(nbformat.v4.new_markdown_cell(site_links(text, page, site) if site else text))
        elif part.kind == "exercise":
            questions += 1
            cells += _exercise_cells(part, questions, page, site)
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


# ------------------------------------------------------------------------------------------------ MkDocs hooks


@dataclass
class _Build:
    project: Path
    docs_dir: str
    site: SiteInfo
    pages: dict[str, tuple[list[Part], str]]  # page src_uri → (its parts, notebook src_uri)


_build: _Build | None = None


def on_files(files, config, **kwargs):
    global _build
    from mkdocs.structure.files import File

    from transformer_site.notebooks_wheel import WheelError, project_wheel

    start = time.perf_counter()
    project = Path(config.config_file_path).parent  # snippets resolve from the project that is being built
    docs_dir = Path(config["docs_dir"]).name
    pages, codes = {}, []
    for file in list(files.documentation_pages()):
        if not file.abs_src_path:
            continue
        source = Path(file.abs_src_path).read_text(encoding="utf-8")
        try:
            parts = split_page(source, f"{docs_dir}/{file.src_uri}", project)
        except ValueError as exc:  # an error with -q too: the build stops here, naming page and line
            raise PluginError(f"notebook export: {exc}") from None
        found = [part.text for part in parts if part.kind == "code"]
        if found:
            pages[file.src_uri] = (parts, notebook_path(file.src_uri))
            codes += found
    from transformer_site.figure_cache import find_src_root

    code_root = find_src_root().parent  # the project whose src computed this site (a test's tiny site: this repo)
    try:
        wheel = project_wheel(code_root, code_root / ".cache" / "wheels")
    except WheelError as exc:
        raise PluginError(f"notebook export: {exc}") from None
    for uri in (wheel.pinned_uri, wheel.stable_uri):
        files.append(File.generated(config, uri, abs_src_path=str(wheel.path)))
    needs = requirements(codes, project) if codes else Requirements()
    files_uri = ""
    if needs.files:
        files_uri = f"{posixpath.dirname(wheel.pinned_uri)}/{FILES_ZIP}"
        files.append(File.generated(config, files_uri, content=files_zip(project, list(needs.files))))
    site_url = config.get("site_url") or ""
    site = SiteInfo(
        site_url=site_url if site_url.endswith("/") else site_url + "/",
        wheel_uri=wheel.pinned_uri,
        repo_url=config.get("repo_url") or "",
        commit=build_commit(project),
        files_uri=files_uri,
        page_urls={f"{docs_dir}/{f.src_uri}": f.url for f in files.documentation_pages()},
    )
    _build = _Build(project, docs_dir, site, pages)
    from transformer_site import lab_notebooks

    for file, page in lab_notebooks.download_files(files):  # a lab's download runs anywhere, as every page's does
        try:
            file.content_bytes = readers_lab(file.content_bytes, page, file.src_uri, project, site)
        except ValueError as exc:
            raise PluginError(f"notebook export: {exc}") from None
    log.info(f"notebooks: {len(pages)} pages as .ipynb; wheel {wheel.pinned_uri} ({time.perf_counter() - start:.1f} s)")
    return files


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


def _cached_output(code: str) -> str | None:
    """What the build printed for ``code``: the figure cache's record of this build's run (no kernel, no rerun
    when the cache is on; with the cache off the block runs again through the same runner)."""
    from transformer_site import executed, figure_cache

    if figure_cache.execution_disabled():
        return None
    run = executed.current_run()
    cache = run.cache
    if cache.cache_dir is not None:
        for variant in (code + "\n", code):  # the fence hands the runner the snippet with its final newline
            path = Path(cache.cache_dir) / f"{cache.key(variant)}.out"
            if path.is_file():
                return path.read_text(encoding="utf-8")
    return executed.run_block(code + "\n") or None


def on_post_build(config, **kwargs) -> None:
    from transformer_site import failures

    if _build is None or failures.reported():
        return  # a failed build publishes nothing: no block runs again to fill a notebook
    from transformer_site import incremental

    start = time.perf_counter()
    site_dir = Path(config["site_dir"])
    rebuilt, written = incremental.rebuilt_only(), 0
    for page, (parts, target) in sorted(_build.pages.items()):
        path = site_dir / target
        if rebuilt is not None and _build.site.page_urls.get(f"{_build.docs_dir}/{page}") not in rebuilt:
            if path.is_file():
                continue  # a prose edit of another page: this notebook is the last good build's, and still right
        try:
            notebook = page_notebook(
                "", f"{_build.docs_dir}/{page}", _build.project, _build.site, _cached_output, parts
            )
        except ValueError as exc:
            raise PluginError(f"notebook export: {exc}") from None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")
        written += 1
    log.info(f"notebooks: {written} written with the build's outputs in {time.perf_counter() - start:.1f} s")


def download_button(
    page_url: str,
    notebook_uri: str,
    colab: str | None = None,
    title: str = "このページのコードと本文と確認問題をまとめた Jupyter ノートブック",
) -> str:
    """The button under the page title (the link is relative, so it works under any site_url), and Colab's."""
    start = page_url[:-1] if page_url.endswith("/") else posixpath.dirname(page_url)
    href = posixpath.relpath(notebook_uri, start or ".")
    name = posixpath.basename(notebook_uri)
    button = (
        f'<p class="tf-notebook" data-search-exclude><a class="md-button" href="{href}" download="{name}" '
        f'title="{title}">'
        f"ノートブックをダウンロード ({name})</a>"
    )
    if colab:
        button += f' <a class="md-button" href="{colab}" rel="noopener">Google Colab で開く</a>'
    return button + "</p>"


_H1_END = re.compile(r"</h1>", re.IGNORECASE)


def on_page_content(html, page, **kwargs):
    if _build is None or page.file.src_uri not in _build.pages:
        return html
    target = _build.pages[page.file.src_uri][1]
    button = download_button(page.url, target, colab_url(_build.site.repo_url, target))
    match = _H1_END.search(html)
    if match is None:
        return button + html
    return html[: match.end()] + textwrap.dedent(button) + html[match.end() :]
