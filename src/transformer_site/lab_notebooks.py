"""Lab notebooks: a page of ``docs/`` written as a Jupytext Markdown notebook, executed at build time and rendered
by mkdocs-jupyter.

mkdocs-jupyter alone would execute on every build (``execute: true``), let a failing cell through by default
(``allow_errors`` is true) and, with its own cache, key on the notebook's bytes only — an edit in ``src/`` would
serve stale outputs. So the site executes a lab itself and hands mkdocs-jupyter the executed notebook
(``execute: false``, ``allow_errors: false``):

1. A page is a lab when its front matter is a Jupytext header with a Python kernelspec (the rule by which
   mkdocs-jupyter itself takes a ``.md``). Its prose is checked like any page's: pytest collects its
   ``{{ literal = expression }}`` numbers from the ``.md``.
2. ``on_files`` (before mkdocs-jupyter's): each lab is executed with nbclient in the project's folder, cell by
   cell (``allow_errors`` off, each cell within ``TRANSFORMER_BLOCK_TIME_LIMIT``), unless the cache has it. The
   key (:meth:`LabCache.key`): the page's bytes; every project module its code cells import, transitively (the
   figure cache's import graph, each keyed on what its code means); every module the expressions of its checked
   numbers can read; the rules (this module, ``checked``, ``citable``, ``figure_cache``); the versions of the
   libraries that shape the output. A
   failing cell or number is reported as ``docs/page.md: cell N (line L): …`` — the build fails, and nothing is
   stored.
3. Its checked numbers are verified (a stale one fails the build at ``page.md:line``) and written into the
   Markdown cells: as the site's number spans for the page, as bare literals in the notebook readers download.
   For the page its headings become the site's headings (ids from the same slugify as every page's ``toc``, the
   same permalink) and its math the site's arithmatex markup (typeset by the site's KaTeX) — mkdocs-jupyter's
   own renderer would give a Japanese heading ``id=""`` and leave ``$…$`` to a MathJax loaded from a CDN.
4. The page's ``File`` keeps its ``src_uri`` (the nav, links and the edit button still point at the ``.md``)
   but its ``abs_src_path`` is the executed ``.ipynb``: mkdocs-jupyter renders it.
5. ``on_page_content``: links to ``.md`` pages become the pages' URLs, the MathJax and Mermaid loaders that
   would fetch from a CDN are dropped, the ~590 KB of CSS mkdocs-jupyter inlines is pruned to the rules that can
   match the page (:mod:`transformer_site.lab_css`), the table of contents is the headings', and a download
   button sits under the title.

Environment: ``TRANSFORMER_FIGURE_CACHE`` (the cache lives in ``<cache>/lab/``; ``off`` executes every build),
``TRANSFORMER_SITE_NO_EXEC=1`` (labs are not executed: the page shows the notebook without outputs and its
numbers as written, unchecked — the benchmark's floor).
"""

from __future__ import annotations

import hashlib
import html
import importlib.metadata
import json
import logging
import os
import posixpath
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import nbformat
from markdown.extensions.toc import slugify, unique

from transformer_site import PROJECT_PACKAGES
from transformer_site.figure_cache import DependencyGraph, find_src_root

log = logging.getLogger("mkdocs.plugins.transformer_site.lab_notebooks")

CACHE_VERSION = "1"
KERNEL_NAME = "python3"
_JUPYTEXT_HEADER = re.compile(r"\A---[ \t]*\n(?:.*\n)*?[ \t]*jupytext:[ \t]*\n(?:.*\n)*?---[ \t]*\n")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_LIBRARIES = ("numpy", "matplotlib", "nbclient", "ipykernel", "jupytext", "nbformat", "mkdocs-jupyter", "nbconvert")
_RULES = ("lab_notebooks.py", "lab_css.py", "citable.py", "figure_cache.py")


class LabError(ValueError):
    """A lab that cannot be published: a failing cell, a stale or broken number, a malformed notebook."""


# ------------------------------------------------------------------------------------------------ finding labs


def is_lab(path: str | Path) -> bool:
    """A Markdown page whose front matter is a Jupytext header with a Python kernelspec."""
    path = Path(path)
    if path.suffix != ".md":
        return False
    text = path.read_text(encoding="utf-8")
    if not _JUPYTEXT_HEADER.match(text[:4000]):  # cheap: most pages have no front matter at all
        return False
    return jupytext.reads(text, fmt="md").metadata.get("kernelspec", {}).get("language") == "python"


@dataclass(frozen=True)
class Lab:
    """One lab page: its source and where messages say it is."""

    source: Path  # the .md in docs/
    src_uri: str  # backprop/05-lab.md
    shown: str  # docs/backprop/05-lab.md, as messages name it

    @property
    def name(self) -> str:
        return posixpath.splitext(posixpath.basename(self.src_uri))[0]

    @property
    def text(self) -> str:
        return self.source.read_text(encoding="utf-8")


@dataclass
class Rendered:
    """What a lab became: the notebook mkdocs-jupyter renders, the one readers download, the headings."""

    page_notebook: Path
    download_notebook: Path
    headings: list[dict]  # [{"level", "id", "name"}], in order
    executed: bool  # False: from the cache
    execution: Execution | None = None  # None: from the cache, or not executed (TRANSFORMER_SITE_NO_EXEC)
    numbers_cpu: float = 0.0  # CPU seconds spent verifying the checked numbers in the build process
    n_numbers: int = 0


# ------------------------------------------------------------------------------------------------ the cache key


def _versions() -> str:
    parts = [f"python {sys.version.split()[0]}"]
    for name in _LIBRARIES:
        try:
            parts.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            parts.append(f"{name} absent")
    return "; ".join(parts)


def code_cells(notebook) -> list:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def expression_modules(expressions: list[str], graph: DependencyGraph) -> set[str]:
    """Project modules whose code can change what ``expressions`` evaluate to.

    A name bound to a module (``training``, ``backprop``) depends on that module, or on every module of a
    package (a section of the pages layer); any other citable name (``s1``, ``W``, ``sentences``) on what the
    citable namespace builds it from: ``transformer_math`` and its imports. (``citable.py`` itself is one of the
    rules of the key; its dynamic imports of every module are not followed, or every edit would re-execute.)
    """
    from transformer_site.checked.evaluation import referenced_names
    from transformer_site.citable import NAMES

    modules = {"transformer_math"}
    known = graph.all_modules()
    for expression in expressions:
        for name in referenced_names(expression):
            value = NAMES.get(name)
            module_name = getattr(value, "__name__", None) if hasattr(value, "__spec__") else None
            if module_name is None or module_name.split(".")[0] not in PROJECT_PACKAGES:
                continue
            if hasattr(value, "__path__"):
                modules.update(m for m in known if m == module_name or m.startswith(module_name + "."))
            else:
                modules.add(module_name)
    return modules


@dataclass
class LabCache:
    """Where executed labs are kept (``None``: nowhere, every build executes) and how they are keyed."""

    project_root: Path
    cache_dir: Path | None
    graph: DependencyGraph = field(init=False)

    def __post_init__(self) -> None:
        self.project_root = Path(self.project_root)
        self.graph = DependencyGraph(find_src_root())

    def key(self, lab: Lab, numbers: list) -> str:
        text = lab.text
        notebook = jupytext.reads(text, fmt="md")
        code = "\n".join(cell.source for cell in code_cells(notebook))
        modules = set(self.graph.closure(code))
        for module in sorted(expression_modules([n.expression for n in numbers if n.expression], self.graph)):
            modules.update(self.graph.closure(f"import {module}"))
        here = Path(__file__).resolve().parent
        rules = [self.graph.digest(here / name) for name in _RULES]
        rules += [self.graph.digest(p) for p in sorted((here / "checked").glob("*.py"))]
        h = hashlib.sha256()
        h.update(f"lab {CACHE_VERSION}\n{_versions()}\n{' '.join(rules)}\n".encode())
        h.update(hashlib.sha256(text.encode()).hexdigest().encode())
        for module in sorted(modules):
            path = self.graph.module_file(module)
            if path is not None:
                h.update(f"\n{module} {self.graph.digest(path)}".encode())
        return h.hexdigest()

    def folder(self, key: str) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / "lab" / key


# ------------------------------------------------------------------------------------------------ execution


def code_cell_lines(text: str, notebook) -> list[int | None]:
    """The line in the .md where each code cell's fence opens (None for all if the fences do not line up)."""
    from transformer_site.fences import fence_spans

    starts = [text.count("\n", 0, start) + 1 for start, _ in fence_spans(text)]
    cells = code_cells(notebook)
    return starts if len(starts) == len(cells) else [None] * len(cells)


_CPU_PROBE = "import resource as _r\n_u = _r.getrusage(_r.RUSAGE_SELF)\nprint(_u.ru_utime + _u.ru_stime)"


@dataclass(frozen=True)
class Execution:
    """How long a lab ran: the kernel's CPU seconds for each code cell (in order) and the wall time in all."""

    cell_cpu: tuple[float, ...]
    wall: float
    lines: tuple[int | None, ...]

    @property
    def cpu(self) -> float:
        return sum(self.cell_cpu)

    def slowest(self) -> tuple[int, float, int | None]:
        """(cell number from 1, its CPU seconds, its line in the .md)."""
        n = max(range(len(self.cell_cpu)), key=lambda i: self.cell_cpu[i])
        return n + 1, self.cell_cpu[n], self.lines[n]


def execute(notebook, lab: Lab, cwd: Path, timeout: float) -> Execution:
    """Run every code cell of ``notebook`` in place (a fresh kernel, ``allow_errors`` off).

    A failing cell raises :class:`LabError` naming the page, the cell and its line, with the error's last lines.
    Between cells a probe (not part of the notebook) reads the kernel's CPU time, so each cell's cost is known.
    """
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    lines = code_cell_lines(lab.text, notebook)
    numbering = {id(cell): n for n, cell in enumerate(code_cells(notebook), start=1)}
    cpu: list[float] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lab-kernel-") as sockets:
        # IPC sockets in a folder of our own: no TCP port on a shared machine, and no plaintext-TCP warning
        km = KernelManager(kernel_name=KERNEL_NAME, transport="ipc", ip=str(Path(sockets) / "kernel"))
        client = NotebookClient(
            notebook, km=km, timeout=timeout, startup_timeout=120, allow_errors=False, record_timing=False,
            resources={"metadata": {"path": str(cwd)}},
        )  # fmt: skip
        with client.setup_kernel():
            probe = nbformat.v4.new_code_cell(_CPU_PROBE)

            def kernel_cpu() -> float:  # appended for the moment, outside the history (no execution count)
                notebook.cells.append(probe)
                try:
                    client.execute_cell(probe, len(notebook.cells) - 1, store_history=False)
                finally:
                    notebook.cells.pop()
                printed = [
                    o["text"] for o in probe.outputs if o.get("output_type") == "stream" and o["name"] == "stdout"
                ]
                try:
                    return float("".join(printed).split()[-1])  # a busy kernel may send the line in pieces
                except (IndexError, ValueError):
                    raise LabError(
                        f"{lab.shown}: the kernel's CPU time could not be read ({probe.outputs!r})"
                    ) from None

            last = kernel_cpu()
            for index, cell in enumerate(notebook.cells):
                if cell.cell_type != "code":
                    continue
                n = numbering[id(cell)]
                where = f"{lab.shown}: cell {n} of {len(numbering)}" + (
                    f" (line {lines[n - 1]})" if lines[n - 1] else ""
                )
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as exc:
                    raise LabError(f"{where} failed: {_last_lines(str(exc))}") from None
                except CellTimeoutError:
                    raise LabError(f"{where} ran longer than {timeout:g} s (TRANSFORMER_BLOCK_TIME_LIMIT)") from None
                except DeadKernelError as exc:
                    raise LabError(f"{where}: the kernel died ({exc})") from None
                cell.outputs = merged_streams(cell.outputs)
                now = kernel_cpu()
                cpu.append(now - last)
                last = now
    return Execution(tuple(cpu), time.perf_counter() - start, tuple(lines))


def merged_streams(outputs: list) -> list:
    """``outputs`` with each run of adjacent stream outputs of one name joined into one.

    A kernel sends a printed line in as many pieces as its output thread happened to flush (a busy machine splits
    ``print("a:", b)`` in two), so without this two builds of the same lab differ byte for byte. Only adjacent
    pieces are joined: text printed after a figure stays after it (nbclient's ``coalesce_streams`` would move it).
    """
    merged: list = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (
            last is not None
            and output.get("output_type") == "stream"
            and last.get("output_type") == "stream"
            and last["name"] == output["name"]
        ):
            last["text"] += output["text"]
        else:
            merged.append(output)
    return merged


def _last_lines(message: str, n: int = 6) -> str:
    lines = [line for line in re.sub(r"\x1b\[[0-9;]*m", "", message).splitlines() if line.strip()]
    return " | ".join(lines[-n:])


# ------------------------------------------------------------------------------------------------ Markdown cells


def _entities(text: str) -> str:
    """HTML-escaped, with every character Markdown could read (escapes, emphasis, code, links, math, TeX
    braces) written as a numeric entity: the browser shows the text, no Markdown renderer touches it."""
    escaped = html.escape(text, quote=True)
    return "".join(f"&#{ord(c)};" if c in "\\`*_{}[]()#+-.!|$~^<>" else c for c in escaped)


def _math_html(tex_with_delimiters: str) -> str:
    """``$…$``/``\\(…\\)`` → ``<span class="arithmatex">\\(…\\)</span>``; ``$$…$$``/``\\[…\\]``/environments → a div
    (the markup pymdownx.arithmatex gives every other page, which the site's KaTeX typesets)."""
    t = tex_with_delimiters
    if t.startswith(("$$", "\\[", "\\begin")):
        inner = t[2:-2] if t.startswith(("$$", "\\[")) else t
        return '<div class="arithmatex">' + _entities("\\[" + inner + "\\]") + "</div>"
    inner = t[1:-1] if t.startswith("$") else t[2:-2]
    return '<span class="arithmatex">' + _entities("\\(" + inner + "\\)") + "</span>"


# A citation as the checked-number renderer writes it for Python-Markdown's attr_list (references.citation_markdown):
# nbconvert's Markdown knows neither the attribute list nor the escaped brackets, which it would read as math.
_CITATION = re.compile(r'\[\\\[(?P<shown>[^\]]*)\\\]\]\((?P<href>[^ )]+) "(?P<title>[^"]*)"\)\{ \.citation \}')


def _citation_html(m: re.Match) -> str:
    return f'<a class="citation" href="{m["href"]}" title="{m["title"]}">[{m["shown"]}]</a>'


def site_markdown(cell_text: str, ids: set[str]) -> tuple[str, list[dict]]:
    """A Markdown cell as the site shows it: headings with the site's ids and permalinks, math as arithmatex,
    citations as the links the other pages have.

    ``ids``: the ids used so far on the page (updated). Returns the text and its headings.
    """
    from transformer_site.checked.syntax import scan

    cell_text = _CITATION.sub(_citation_html, cell_text)
    pieces, headings = [], []
    for region in scan(cell_text):
        chunk = cell_text[region.start : region.end]
        pieces.append(_math_html(chunk) if region.kind == "math" else chunk)
    out_lines = []
    for line in "".join(pieces).split("\n"):
        m = _HEADING.match(line)
        if m is None:
            out_lines.append(line)
            continue
        level, text = len(m[1]), m[2]
        name = re.sub(r"<[^>]+>", "", text)  # the text a reader sees (a checked number's span → its literal)
        anchor = unique(slugify(html.unescape(name), "-"), ids)
        headings.append({"level": level, "id": anchor, "name": html.escape(html.unescape(name), quote=False)})
        link = f'<a class="headerlink" href="#{anchor}" title="Permanent link">&para;</a>'
        out_lines.append(f'<h{level} id="{anchor}">{text}{link}</h{level}>')
    return "\n".join(out_lines), headings


def plain_literals(text: str, shown: str) -> str:
    """Every ``{{ literal = expression }}`` written as its literal (for the notebook readers download)."""
    from transformer_site import references
    from transformer_site.checked import find_checked_numbers

    pieces, pos = [], 0
    for number in find_checked_numbers(text, shown):
        if number.kind == "cite":  # [@kingma2015, Algorithm 1] → [8, Algorithm 1], as the page shows it
            where = f", {number.source}" if number.source else ""
            pieces += [text[pos : number.start], f"[{references.data.number(number.literal)}{where}]"]
        else:
            pieces += [text[pos : number.start], number.literal]
        pos = number.end
    return "".join(pieces) + text[pos:]


def prepare_page_modules() -> None:
    """Call ``prepare()`` of every page module that has one: its expensive values are computed once, outside the
    time limit each checked number is evaluated under (a lab cites a training run)."""
    import importlib
    import pkgutil

    import transformer_pages

    for info in pkgutil.walk_packages(transformer_pages.__path__, "transformer_pages."):
        module = importlib.import_module(info.name)
        prepare = getattr(module, "prepare", None)
        if callable(prepare):
            prepare()


def verified_numbers(lab: Lab) -> tuple[list, float]:
    """The lab's checked numbers, each verified; a failing one raises :class:`LabError` (all of them listed)."""
    from transformer_site.checked import check, find_checked_numbers

    start = time.process_time()
    numbers = find_checked_numbers(lab.text, lab.shown)
    prepare_page_modules()
    failing = [outcome.message for outcome in map(check, numbers) if not outcome.ok]
    if failing:
        raise LabError("; ".join(failing))
    return numbers, time.process_time() - start


def page_and_download(lab: Lab, executed, root: Path) -> tuple[object, object, list[dict]]:
    """From the executed notebook: the page's variant (number spans, site headings and math) and the readers'
    (bare literals), with the same outputs; and the page's headings."""
    from transformer_site.checked import render_checked_numbers

    spans = jupytext.reads(render_checked_numbers(lab.text, lab.source, root=root, page_uri=lab.src_uri), fmt="md")
    plain = jupytext.reads(plain_literals(lab.text, lab.shown), fmt="md")
    page, download = nbformat.from_dict(json.loads(nbformat.writes(executed))), executed
    ids: set[str] = set()
    headings: list[dict] = []
    for cell, span_cell, plain_cell, download_cell in zip(page.cells, spans.cells, plain.cells, download.cells,
                                                          strict=True):  # fmt: skip
        if cell.cell_type != "markdown":
            continue
        cell.source, found = site_markdown(span_cell.source, ids)
        headings += found
        download_cell.source = plain_cell.source
    return page, download, headings


def _without_run_metadata(notebook) -> None:
    """What no reader needs and what would differ between two runs: the Jupytext header's own format data, and
    the random cell ids a read gives (mkdocs-jupyter writes them into the page: two clean builds would differ)."""
    notebook.metadata.pop("jupytext", None)
    for n, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{n}"


# ------------------------------------------------------------------------------------------------ one lab


def render_lab(lab: Lab, cache: LabCache, timeout: float, execute_cells: bool = True) -> Rendered:
    """The lab executed (or from the cache), its numbers verified and rendered; raises :class:`LabError`."""
    try:
        source_notebook = jupytext.reads(lab.text, fmt="md")
    except Exception as exc:  # jupytext's own errors vary by format
        raise LabError(f"{lab.shown}: not a readable Jupytext Markdown notebook: {exc}") from None
    if not execute_cells:
        return _unexecuted(lab, source_notebook)
    from transformer_site.checked import find_checked_numbers

    key = cache.key(lab, find_checked_numbers(lab.text, lab.shown))
    folder = cache.folder(key)
    if folder is not None and (folder / "headings.json").is_file():
        return _stored(folder, lab, executed=False)
    numbers, numbers_cpu = verified_numbers(lab)  # before running anything: a stale number fails fast
    run = execute(source_notebook, lab, cache.project_root, timeout)
    _without_run_metadata(source_notebook)
    page, download, headings = page_and_download(lab, source_notebook, cache.project_root)
    target = folder if folder is not None else Path(tempfile.mkdtemp(prefix="lab-"))
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")  # one per building process
    if partial.exists():
        shutil.rmtree(partial)
    (partial / "download").mkdir(parents=True)
    nbformat.write(page, partial / f"{lab.name}.ipynb")
    nbformat.write(download, partial / "download" / f"{lab.name}.ipynb")
    (partial / "headings.json").write_text(json.dumps(headings, ensure_ascii=False), encoding="utf-8")
    if target.exists():
        shutil.rmtree(target)
    partial.replace(target)  # whole or not at all: a concurrent build never reads half a lab
    result = _stored(target, lab, executed=True)
    result.execution, result.numbers_cpu, result.n_numbers = run, numbers_cpu, len(numbers)
    return result


def _stored(folder: Path, lab: Lab, executed: bool) -> Rendered:
    headings = json.loads((folder / "headings.json").read_text(encoding="utf-8"))
    return Rendered(folder / f"{lab.name}.ipynb", folder / "download" / f"{lab.name}.ipynb", headings, executed)


def _unexecuted(lab: Lab, notebook) -> Rendered:
    """``TRANSFORMER_SITE_NO_EXEC=1``: the notebook without outputs, its numbers as written (not evaluated)."""
    folder = Path(tempfile.mkdtemp(prefix="lab-noexec-"))
    plain = jupytext.reads(plain_literals(lab.text, lab.shown), fmt="md")
    ids: set[str] = set()
    headings: list[dict] = []
    for cell in plain.cells:
        if cell.cell_type == "markdown":
            cell.source, found = site_markdown(cell.source, ids)
            headings += found
    _without_run_metadata(plain)
    (folder / "download").mkdir()
    nbformat.write(plain, folder / f"{lab.name}.ipynb")
    nbformat.write(notebook, folder / "download" / f"{lab.name}.ipynb")
    return Rendered(folder / f"{lab.name}.ipynb", folder / "download" / f"{lab.name}.ipynb", headings, True)


# ------------------------------------------------------------------------------------------------ after rendering

_MD_LINK = re.compile(r'href="(?P<target>[^"#:]+\.md)(?P<fragment>#[^"]*)?"')
_CDN_SCRIPTS = re.compile(
    r'<script src="[^"]*"[^>]*>\s*</script>\s*'  # MathJax's loader (src from custom_mathjax_url, a CDN by default)
    r'|<script type="text/x-mathjax-config">.*?</script>\s*'
    r'|<script type="module">(?:(?!</script>).)*?cdn(?:(?!</script>).)*?</script>\s*',  # Mermaid's, from a CDN
    re.DOTALL,
)


def page_links(content: str, page_src_uri: str, files, shown: str) -> tuple[str, list[str]]:
    """Links to ``.md`` pages rewritten to the pages' URLs (relative); (content, problems)."""
    problems = []
    page_file = files.get_file_from_path(page_src_uri)

    def replace(m: re.Match) -> str:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page_src_uri), m["target"]))
        file = files.get_file_from_path(target)
        if file is None:
            problems.append(f"{shown}: a link to {m['target']} (docs/{target}), which is not a page of the site")
            return m[0]
        return f'href="{file.url_relative_to(page_file)}{m["fragment"] or ""}"'

    return _MD_LINK.sub(replace, content), problems


def without_cdn_scripts(content: str) -> str:
    return _CDN_SCRIPTS.sub("", content)


def toc_tokens(headings: list[dict]) -> list[dict]:
    """Flat headings → the nested tokens ``mkdocs.structure.toc.get_toc`` reads."""
    root: list[dict] = []
    stack: list[dict] = []
    for h in headings:
        token = {"level": h["level"], "id": h["id"], "name": h["name"], "children": []}
        while stack and stack[-1]["level"] >= h["level"]:
            stack.pop()
        (stack[-1]["children"] if stack else root).append(token)
        stack.append(token)
    return root


def download_button(page_url: str, download_uri: str, repo_url: str = "") -> str:
    """The page's button to the readers' notebook (and Colab's, for a GitHub repository): the notebook export's."""
    from transformer_site.notebooks import download_button as button
    from transformer_site.notebooks_setup import colab_url

    title = "このページのノートブック (実行済み、出力つき)"
    return button(page_url, download_uri, colab_url(repo_url, download_uri), title)


def download_uri(src_uri: str, use_directory_urls: bool) -> str:
    """Where the readers' notebook is served: beside the page (backprop/05-lab/05-lab.ipynb)."""
    stem = posixpath.splitext(src_uri)[0]
    name = posixpath.basename(stem)
    return f"{stem}/{name}.ipynb" if use_directory_urls else f"{stem}.ipynb"


def copy_for_log(rendered: Rendered) -> str:
    """What the build did with a lab, for its log."""
    if not rendered.executed:
        return "from cache (not executed)"
    run = rendered.execution
    if run is None:
        return "not executed (TRANSFORMER_SITE_NO_EXEC): no outputs, numbers not checked"
    n, seconds, line = run.slowest()
    return (
        f"executed: {len(run.cell_cpu)} cells {run.cpu:.1f} s CPU in the kernel ({run.wall:.1f} s wall), slowest "
        f"cell {n}{f' (line {line})' if line else ''} {seconds:.1f} s; {rendered.n_numbers} checked numbers "
        f"{rendered.numbers_cpu:.1f} s CPU"
    )


# ------------------------------------------------------------------------------------------------ one build


@dataclass
class _Build:
    project_root: Path
    cache: LabCache
    labs: dict[str, tuple[Lab, Rendered]] = field(default_factory=dict)  # src_uri → the lab and what it became
    css: dict[str, tuple[int, int]] = field(default_factory=dict)  # src_uri → (CSS bytes before, after)
    temporary: list[Path] = field(default_factory=list)
    download_uris: dict[str, str] = field(default_factory=dict)  # src_uri → where the readers' notebook is served


_build: _Build | None = None


def start_build(project_root: Path, cache_dir: Path | None) -> None:
    global _build
    _build = _Build(Path(project_root), LabCache(project_root, cache_dir))


def end_build() -> None:
    """Forget this build; folders made for a build without a cache go (mkdocs-jupyter has read them)."""
    global _build
    if _build is not None:
        for folder in _build.temporary:
            shutil.rmtree(folder, ignore_errors=True)
    _build = None


def lab_of(src_uri: str) -> Lab | None:
    entry = _build.labs.get(src_uri) if _build is not None else None
    return entry[0] if entry else None


def _time_limit() -> float:
    from transformer_site import environment

    return float(environment.value("TRANSFORMER_BLOCK_TIME_LIMIT"))


def replace_lab_files(files, config):
    """Each lab page executed (or from the cache); its File reads the executed notebook; the readers' copy added."""
    from mkdocs.structure.files import File

    from transformer_site import failures
    from transformer_site.figure_cache import execution_disabled

    if _build is None:
        raise RuntimeError("lab notebooks: on_files ran before on_pre_build")
    docs = Path(config["docs_dir"]).name
    for file in list(files.documentation_pages()):
        if file.abs_src_path is None or not is_lab(file.abs_src_path):
            continue
        lab = Lab(Path(file.abs_src_path), file.src_uri, f"{docs}/{file.src_uri}")
        try:
            rendered = render_lab(lab, _build.cache, _time_limit(), execute_cells=not execution_disabled())
        except LabError as exc:
            failures.report(f"lab notebook: {exc}")  # the build fails; the page stays plain Markdown
            continue
        if _build.cache.cache_dir is None or execution_disabled():
            _build.temporary.append(rendered.page_notebook.parent)
        file.abs_src_path = str(rendered.page_notebook)  # mkdocs-jupyter renders this; src_uri stays the .md
        # in memory, not a path: mkdocs-jupyter takes every .ipynb file it can read for a page of its own
        target = download_uri(file.src_uri, config["use_directory_urls"])
        files.append(File.generated(config, target, content=rendered.download_notebook.read_bytes()))
        _build.download_uris[lab.src_uri] = target
        _build.labs[file.src_uri] = (lab, rendered)
    return files


def download_files(files) -> list[tuple[object, str]]:
    """Each lab's readers' notebook in ``files`` with its page as messages name it (docs/backprop/05-lab.md):
    the notebook export gives it the same intro, setup cell and site links as every page's notebook."""
    if _build is None:
        return []
    found = []
    for lab, _ in _build.labs.values():
        file = next((f for f in files if f.src_uri == _build.download_uris[lab.src_uri]), None)
        if file is not None:
            found.append((file, lab.shown))
    return found


def point_wrappers_at_notebooks(files) -> None:
    """Each lab's File as mkdocs-jupyter wrapped it (``NotebookFile``) reads the executed notebook as well."""
    if _build is None:
        return
    for src_uri, (_, rendered) in _build.labs.items():
        file = files.get_file_from_path(src_uri)
        if file is not None:
            file.abs_src_path = str(rendered.page_notebook)


def finish_page(content: str, page, config, files) -> str:
    """The rendered lab page: links, no CDN scripts, pruned CSS, its table of contents, the download button."""
    from mkdocs.structure.toc import get_toc

    from transformer_site import failures, lab_css

    if _build is None or page.file.src_uri not in _build.labs:
        return content
    lab, rendered = _build.labs[page.file.src_uri]
    content, problems = page_links(content, page.file.src_uri, files, lab.shown)
    for problem in problems:
        failures.report(f"lab notebook: {problem}")
    folder = _build.cache.cache_dir / "lab" / "css" if _build.cache.cache_dir is not None else None
    pruned = lab_css.cached_prune(without_cdn_scripts(content), folder)
    _build.css[page.file.src_uri] = (pruned.css_before, pruned.css_after)
    page.toc = get_toc(toc_tokens(rendered.headings))
    button = download_button(
        page.url, download_uri(page.file.src_uri, config["use_directory_urls"]), config.get("repo_url") or ""
    )
    head = re.search(r"</h1>", pruned.content)
    if head is None:
        failures.report(f"lab notebook: {lab.shown} has no title (a '# …' heading in its first Markdown cell)")
        return pruned.content
    return pruned.content[: head.end()] + button + pruned.content[head.end() :]


def report_lines() -> list[str]:
    if _build is None or not _build.labs:
        return ["lab notebooks: none"]
    lines = []
    for src_uri, (_, rendered) in _build.labs.items():
        before, after = _build.css.get(src_uri, (0, 0))
        lines.append(
            f"lab notebooks: {src_uri} {copy_for_log(rendered)}; CSS inlined by mkdocs-jupyter "
            f"{before / 1000:.1f} KB → {after / 1000:.1f} KB"
        )
    return lines
