"""Executed blocks: found on each page, named after their page and snippet, run isolated, cached, checked.

A fence ```` ```python exec="on" … ```` is markdown-exec's syntax. The site registers its own fence for it
(``pymdownx.superfences`` ``custom_fences`` in ``mkdocs.yml``): :func:`validator` is markdown-exec's public
``validator``, and :func:`formatter` is markdown-exec's public ``base_format`` — which draws the source and
result tabs — with this module's runner, :func:`run_block`, in place of markdown-exec's own. The runner

- looks the block's output up in the figure cache (``transformer_site.execution.cache``: keyed on the code and
  the ``src`` it imports), and otherwise runs it
- in a ``transformer_site.execution.isolation.Guard`` (a time limit, a temporary folder of its own, no writes outside
  it, no state changed for other blocks and pages), in the project's folder (so relative paths mean the same
  wherever ``mkdocs`` was started), with ``print`` and ``sys.stdout`` both going to the page,
- and checks what it printed and drew (``transformer_site.execution.output_checks``).

A block that fails is reported through ``transformer_site.failures`` — an error naming ``docs/page.md:line``,
the block id and the snippet, with ``-q`` as without — and shows the traceback in place of its result (the
build fails, so that page is never published; ``mkdocs serve`` shows the error page instead).

Ids: every executed fence gets one — its own ``id=…``, or one derived from its page and snippet
(:func:`derived_block_id`). A snippet lives at ``snippets/<page path>/<name>.py``.
"""

from __future__ import annotations

import contextlib
import functools
import html
import io
import re
import sys
import traceback
import types
from dataclasses import dataclass, field
from pathlib import Path

from transformer_site import LIBRARY_PACKAGES, environment
from transformer_site.execution import isolation
from transformer_site.execution.cache import FigureCache, cache_dir_from_env, execution_disabled
from transformer_site.execution.isolation import StateBaseline
from transformer_site.execution.output_checks import BadOutputError, check_output, nan_free_figures
from transformer_site.failures import BuildError, Failures
from transformer_site.page import Page

TEXT = {"failed": "このブロックの実行に失敗しました"}
"""The reader-facing words: the title shown in place of a block that failed (the build fails with it)."""


@dataclass(frozen=True)
class ExecutedBlock:
    page: str  # docs-relative path, e.g. notes/03-attention.md
    line: int  # 1-based line of the opening fence in the page's file
    block_id: str
    snippets: tuple[str, ...]
    derived: bool = False  # the id is derived from the page and snippet (the fence names none)

    def where(self, docs_dir: str) -> str:
        location = f"{docs_dir}/{self.page}:{self.line}"
        included = ", ".join(self.snippets) if self.snippets else "inline code"
        return f"{location}: executed block id={self.block_id!r} (snippet {included})"


def derived_block_id(page: str, includes: tuple[str, ...]) -> str | None:
    """The id of an executed block that names none: its page and the stem of the snippet it includes.

    ``notes/03-attention.md`` including ``snippets/notes/03-attention/scores_heatmap.py`` →
    ``notes-03-attention-scores-heatmap``. None for a block that includes no snippet (inline code needs an id).
    """
    if not includes:
        return None
    page_part = page[: -len(".md")] if page.endswith(".md") else page
    stem = Path(includes[0]).stem
    return re.sub(r"[^0-9A-Za-z]+", "-", f"{page_part}-{stem}").strip("-").lower()


def snippet_home(page: str) -> str:
    """Where a page's snippet files live: ``snippets/<page path without .md>/``."""
    return f"snippets/{page[: -len('.md')] if page.endswith('.md') else page}/"


def lives_with_a_page(include: str, docs_root: Path | None = None) -> bool:
    """``snippets/<page path>/<name>.py`` where ``docs/<page path>.md`` exists (checked when ``docs_root`` is given)."""
    parts = Path(include).parts
    if len(parts) < 3 or parts[0] != "snippets":
        return False
    if docs_root is None:
        return True
    return (docs_root / Path(*parts[1:-1])).with_suffix(".md").is_file()


def find_executed_blocks(page: Page, uri: str, docs_root: Path | None = None) -> list[ExecutedBlock]:
    """Every ``exec="on"`` fence of ``page`` (``uri``: relative to docs/), with its explicit ``id=…`` or the one
    derived from its snippet.

    A fence with neither (inline code and no id) is a ValueError naming page:line, and so is a snippet that
    lives outside ``snippets/<a page's path>/`` (the folder says which page a snippet belongs to).
    """
    blocks: list[ExecutedBlock] = []
    for fence in page.fences:
        if not fence.executed:
            continue
        for include in fence.includes:
            if not lives_with_a_page(include, docs_root):
                raise ValueError(
                    f"{uri}:{fence.line}: executed block includes {include}: snippet files live under "
                    f"snippets/<page path>/ (for this page {snippet_home(uri)}…)"
                )
        block_id = fence.block_id or derived_block_id(uri, fence.includes)
        if block_id is None:
            raise ValueError(
                f"{uri}:{fence.line}: executed block has no id=… and includes no snippet; give it one (e.g. "
                'id="notes-03-attention-scores") so a failure can name it'
            )
        blocks.append(ExecutedBlock(uri, fence.line, block_id, fence.includes, derived=fence.block_id is None))
    return blocks


def with_derived_ids(markdown: str, first_index: int, blocks: list[ExecutedBlock]) -> str:
    """``markdown`` (the page's lines from index ``first_index`` on) with ``id="…"`` added to each executed fence
    that had none, so the runner is told it."""
    lines = markdown.split("\n")
    for block in blocks:
        if block.derived:
            at = block.line - 1 - first_index
            lines[at] = f'{lines[at].rstrip()} id="{block.block_id}"'
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------- one build's run


@dataclass
class BlockRun:
    """The executed blocks of one build, their cache and the state they may read but not change.

    ``failures``: where a failing block is reported (the build's :class:`transformer_site.failures.Failures`).
    """

    project_root: Path
    cache: FigureCache
    failures: Failures
    docs_dir: str = "docs"
    docs_root: Path | None = None
    blocks: dict[str, ExecutedBlock] = field(default_factory=dict)
    sessions: dict[str, dict] = field(default_factory=dict)
    baseline: StateBaseline | None = None  # made at the first block or checked number
    tool_caches: list[str] = field(default_factory=list)
    prepared: bool = False  # the library imported for blocks (see _prepare_blocks)

    @classmethod
    def for_build(cls, project_root: Path, docs_root: Path, failures: Failures) -> BlockRun:
        """This build's run: the figure cache where ``TRANSFORMER_FIGURE_CACHE`` says."""
        cache = FigureCache(project_root, cache_dir_from_env(project_root))
        return cls(Path(project_root), cache, failures, docs_root.name, docs_root)

    def state_baseline(self) -> StateBaseline:
        """The record of what executed code may not change: made once per build from the library modules loaded
        then (a guard records modules imported later when it starts); checked numbers share it."""
        if self.baseline is None:
            self.baseline = StateBaseline(LIBRARY_PACKAGES)
        return self.baseline

    def formatter(self):
        """The python fence's ``format`` for ``pymdownx.superfences``: markdown-exec's with this run's runner."""
        return functools.partial(formatter, run=self)

    def report(self) -> list[str]:
        """What the build did with its blocks, for its log."""
        return [self.cache.report(), self.cache.cost_report()]


def register_page(run: BlockRun, page: Page, markdown: str, uri: str) -> str:
    """Find the page's executed blocks, check them and their snippets, and add the derived ids to ``markdown``
    (the Markdown the builder converts: the page's lines from ``page.body_index`` on).

    Every mistake here is a ``BuildError`` naming ``docs/page.md:line`` (an error with ``-q`` too).
    """
    docs = run.docs_dir
    try:
        blocks = find_executed_blocks(page, uri, run.docs_root)
    except ValueError as exc:
        raise BuildError(f"{docs}/{exc}") from None
    seen: dict[str, ExecutedBlock] = {}
    for block in blocks:
        earlier = seen.get(block.block_id) or run.blocks.get(block.block_id)
        if earlier is not None:
            raise BuildError(
                f"{docs}/{uri}:{block.line}: executed block id={block.block_id!r} is already used at "
                f"{docs}/{earlier.page}:{earlier.line}; ids must be unique across the site"
            )
        for snippet in block.snippets:
            if not (run.project_root / snippet).is_file():
                raise BuildError(f"{block.where(docs)}: the snippet {snippet} does not exist")
        seen[block.block_id] = block
    run.blocks.update(seen)
    return with_derived_ids(markdown, page.body_index, list(seen.values()))


def _prepare_blocks(run: BlockRun) -> StateBaseline:
    """Before the first block that runs: every library module imported, so that each is recorded before any
    block could change it, and the folders the toolchain writes to. (Not for checked numbers: a warm build
    whose blocks all come from the cache imports no figure code.)"""
    if not run.prepared:
        _import_library()
        run.tool_caches = _tool_caches()
        run.prepared = True
    return run.state_baseline()


def _import_library() -> None:
    import importlib
    import importlib.util
    import pkgutil

    for package in LIBRARY_PACKAGES:
        if importlib.util.find_spec(package) is None:
            continue
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            with contextlib.suppress(Exception):  # a module that fails to import fails the block that needs it
                importlib.import_module(info.name)
    with contextlib.suppress(Exception):  # the citable names (the traces and weights the checked numbers read)
        importlib.import_module("transformer_site.citable")


def _tool_caches() -> list[str]:
    """Folders the toolchain itself may write to while a block runs (matplotlib's font cache)."""
    found = []
    if "matplotlib" in sys.modules:
        import matplotlib

        found += [matplotlib.get_cachedir(), matplotlib.get_configdir()]
    return found


# ----------------------------------------------------------------------------------------------- the runner


class BlockFailure(Exception):
    """An executed block failed: ``summary`` is its one-line reason, ``details`` the traceback or problems."""

    def __init__(self, summary: str, details: str = ""):
        super().__init__(summary)
        self.summary, self.details = summary, details


def run_block(
    code: str, returncode: int | None = None, session: str | None = None, id: str | None = None, *, run: BlockRun,
    **extra,
):
    """markdown-exec's ``run`` callable: the output of one executed block (see the module docstring)."""
    if execution_disabled():
        return ""
    block = run.blocks.get(id or "")
    where = block.where(run.docs_dir) if block else f"executed block id={id!r}"
    try:
        if session:  # shared state between blocks: the output depends on more than the code
            return _render(code, block, where, run, run.sessions.setdefault(session, {}))
        return run.cache.run(code, lambda: _render(code, block, where, run, {}), id or "")
    except BlockFailure as failure:
        run.failures.report(f"{where} — {failure.summary}\n{failure.details}".rstrip())
        return (
            f'<div class="admonition failure"><p class="admonition-title">{TEXT["failed"]}</p>'
            f"<pre>{html.escape(failure.summary)}\n\n{html.escape(failure.details)}</pre></div>"
        )


def _render(code: str, block: ExecutedBlock | None, where: str, run: BlockRun, namespace: dict) -> str:
    baseline = _prepare_blocks(run)
    filename = _filename(code, block, run.project_root)
    module_name = re.sub(r"[^A-Za-z0-9]+", "_", f"block_{block.block_id if block else 'inline'}")
    namespace.setdefault("__name__", module_name)  # dataclasses and pickle look the module up
    sys.modules[module_name] = types.ModuleType(module_name)
    printed = io.StringIO()  # print() and sys.stdout both go here (a library's show() prints too)
    guard = isolation.Guard(
        where,
        time_limit=environment.value("TRANSFORMER_BLOCK_TIME_LIMIT"),
        baseline=baseline,
        allowed_dirs=run.tool_caches,
        cwd=run.project_root,
    )
    error: BaseException | None = None
    try:
        with nan_free_figures(), contextlib.redirect_stdout(printed), guard:
            exec(compile(code, filename, "exec"), namespace)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit and the time limit too: a block never ends the build
        error = exc
    finally:
        guard.close()  # already closed by the with, unless the time limit struck on the way out
        sys.modules.pop(module_name, None)
        _close_figures()
    if error is not None:
        summary = "".join(traceback.format_exception_only(type(error), error)).strip().splitlines()[-1]
        problems = "".join(f"\n- {p}" for p in guard.problems if p not in summary)
        raise BlockFailure(summary, _traceback(error, filename, code) + problems)
    if guard.problems:
        raise BlockFailure(
            f"IsolationError: the block {guard.problems[0]}", "\n".join(f"- {p}" for p in guard.problems)
        )
    output = printed.getvalue()
    try:
        check_output(output)
    except BadOutputError as exc:
        raise BlockFailure(f"{type(exc).__name__}: {exc}") from None
    return output


def _filename(code: str, block: ExecutedBlock | None, project_root: Path) -> str:
    """The snippet's path when the block is exactly that file (tracebacks then point into it)."""
    if block is not None and len(block.snippets) == 1:
        path = project_root / block.snippets[0]
        with contextlib.suppress(OSError):
            if path.read_text(encoding="utf-8").strip("\n") == code.strip("\n"):
                return block.snippets[0]
    return f"<executed block {block.block_id if block else 'inline'}>"


def _traceback(error: BaseException, filename: str, code: str) -> str:
    """The traceback from the block's own first frame on, with the block's lines shown."""
    lines = code.split("\n")
    frames = traceback.extract_tb(error.__traceback__)
    while frames and frames[0].filename != filename:
        frames.pop(0)  # the runner's own frames
    frames = [f for f in frames if f.filename != _ISOLATION_FILE]  # the guard that refused a write
    out = ["Traceback (most recent call last):"]
    for frame in frames:
        text = lines[frame.lineno - 1].strip() if frame.filename == filename and frame.lineno else (frame.line or "")
        out.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
        if text:
            out.append(f"    {text}")
    out.extend("".join(traceback.format_exception_only(type(error), error)).rstrip().split("\n"))
    return "\n".join(out)


_ISOLATION_FILE = str(Path(__file__).with_name("isolation.py"))


def _close_figures() -> None:
    """A block's figures end with it (an open figure would leak into the next block's ``plt.gcf()``)."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")


# ------------------------------------------------------------------------------ the fence (mkdocs.yml entry)


def validator(language, inputs, options, attrs, md) -> bool:
    """markdown-exec's public validator (reads ``exec``, ``html``, ``source``, ``id``, … of the fence)."""
    import markdown_exec

    return markdown_exec.validator(language, inputs, options, attrs, md)


def formatter(source, language, css_class, options, md, *, run: BlockRun, **kwargs) -> str:
    """markdown-exec's public ``base_format`` (source and result tabs), with :func:`run_block` of ``run`` as its
    runner (bound by :meth:`BlockRun.formatter`)."""
    import markdown_exec

    runner = functools.partial(run_block, run=run)
    return markdown_exec.base_format(language=language, run=runner, code=source, md=md, **options)


def configure_markdown(markdown_configs: dict, run: BlockRun) -> None:
    """The site's python fence in ``pymdownx.superfences`` (markdown-exec's validator, this run's runner, as
    markdown-exec's own plugin registers its fences), and ``pymdownx.snippets`` including files from the project's
    folder — its ``base_path`` would otherwise be the working directory, so ``mkdocs build -f other/place/mkdocs.yml``
    would not find them. ``markdown_configs``: the Markdown extensions' settings, changed in place."""
    fences = markdown_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    fences[:] = [fence for fence in fences if fence.get("name") != "python"]
    fences.append({"name": "python", "class": "python", "validator": validator, "format": run.formatter()})
    markdown_configs.setdefault("pymdownx.snippets", {})["base_path"] = [str(run.project_root)]
