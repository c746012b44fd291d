"""MkDocs hooks (``hooks:`` in mkdocs.yml): fresh project modules on every build, executed blocks that name
their page and snippet when they fail.

- ``on_pre_build`` drops ``transformer_math``, ``transformer_figures`` and ``transformer_site`` from
  ``sys.modules``: ``mkdocs serve`` keeps one interpreter across rebuilds, so without this an edit in ``src/``
  would give stale numbers and figures (``watch: [src, snippets]`` triggers the rebuild).
- ``on_page_markdown`` gives every executed fence (``exec="on"``) an ``id`` — its own, or one derived from its
  page and snippet (``derived_block_id``) — and records which snippet file each id includes, so
- a failing snippet's log line (markdown-exec says only ``code block 'id'``) is rewritten to name
  ``docs/page.md:line`` and ``snippets/…py``. markdown-exec logs it as a warning, so ``--strict`` fails.
"""

from __future__ import annotations

import gc
import logging
import re
import sys
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("mkdocs.hooks.transformer_site")

PROJECT_PACKAGES = ("transformer_math", "transformer_pages", "transformer_figures", "transformer_site")
# markdown-exec's message: "Execution of python code block 'ID' exited with errors"
_EXEC_FAILURE = re.compile(r"code block '(?P<id>[^']+)' exited with")


@dataclass(frozen=True)
class ExecutedBlock:
    page: str  # docs-relative path, e.g. notes/03-attention.md
    line: int  # 1-based line of the opening fence
    block_id: str
    snippets: tuple[str, ...]

    def where(self, docs_dir: str) -> str:
        location = f"{docs_dir}/{self.page}:{self.line}"
        included = ", ".join(self.snippets) if self.snippets else "inline code"
        return f"{location}: executed block id={self.block_id!r} (snippet {included})"


_blocks: dict[str, ExecutedBlock] = {}
_docs_dir = "docs"


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


def find_executed_blocks(markdown: str, page: str) -> list[ExecutedBlock]:
    """Every ``exec="on"`` fence in ``markdown``, with its explicit ``id=…`` or the one derived from its snippet.

    A fence with neither (inline code and no id) is a ValueError naming page:line, and so is a snippet that
    lives outside ``snippets/<a page's path>/`` (the folder says which page a snippet belongs to).
    """
    from transformer_site.fences import find_fences  # late: on_pre_build drops the project's modules

    blocks: list[ExecutedBlock] = []
    for fence in find_fences(markdown.split("\n")):
        if not fence.executed:
            continue
        for include in fence.includes:
            if not _lives_with_a_page(include):
                raise ValueError(
                    f"{page}:{fence.line}: executed block includes {include}: snippet files live under "
                    f"snippets/<page path>/ (for this page {snippet_home(page)}…)"
                )
        block_id = fence.block_id or derived_block_id(page, fence.includes)
        if block_id is None:
            raise ValueError(
                f'{page}:{fence.line}: executed block has no id=… and includes no snippet; give it one (e.g. '
                'id="notes-03-attention-scores") so a failure can name it'
            )
        blocks.append(ExecutedBlock(page, fence.line, block_id, fence.includes))
    return blocks


_docs_root: Path | None = None  # the docs folder of the project being built (set in on_config)


def _lives_with_a_page(include: str) -> bool:
    """``snippets/<page path>/<name>.py`` where ``docs/<page path>.md`` exists (checked when the docs are known)."""
    parts = Path(include).parts
    if len(parts) < 3 or parts[0] != "snippets":
        return False
    if _docs_root is None:
        return True
    return (_docs_root / Path(*parts[1:-1])).with_suffix(".md").is_file()


def with_derived_ids(markdown: str, blocks: list[ExecutedBlock]) -> str:
    """``markdown`` with ``id="…"`` added to each executed fence that had none, so markdown-exec uses it."""
    from transformer_site.fences import find_fences

    lines = markdown.split("\n")
    by_line = {block.line: block for block in blocks}
    for fence in find_fences(lines):
        block = by_line.get(fence.line)
        if fence.executed and block is not None and fence.block_id is None:
            lines[fence.start] = f'{lines[fence.start].rstrip()} id="{block.block_id}"'
    return "\n".join(lines)


class _NameTheSnippet(logging.Filter):
    """Prefix markdown-exec's failure message with the page, line and snippet file of the failing block."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        found = _EXEC_FAILURE.search(message)
        if found and found["id"] in _blocks and "executed block id=" not in message:
            # The exception's own line (last of the traceback) up front, the full log below it.
            raised = re.findall(r"^\s*((?:[\w.]+\.)?\w*(?:Error|Exception)\b.*)$", message, flags=re.M)
            summary = f" — {raised[-1].strip()}" if raised else ""
            record.msg = f"{_blocks[found['id']].where(_docs_dir)}{summary}\n{message}"
            record.args = ()
        return True


_FILTER = _NameTheSnippet()
# markdown-exec logs through this logger (its loggers are patched to live under "mkdocs.plugins").
_EXEC_LOGGERS = (
    "mkdocs.plugins.markdown_exec._internal.formatters.base",
    "mkdocs.plugins.markdown_exec",
)


_command: str | None = None  # "build", "gh-deploy" or "serve", as MkDocs first announced it
_site_dir: str | None = None


# A build is a batch job with a large, long-lived heap (torch, matplotlib, MkDocs' pages): with Python's default
# thresholds (700, 10, 10) a clean build ran 11 full collections that freed almost nothing, 1.2 s of its CPU
# (1.6 s in all generations, measured with gc.callbacks). A larger young generation keeps the same ratios
# between generations and ran none: 0.5 s in all, for 12 MB more peak memory (367 MB instead of 355 MB).
GC_THRESHOLDS = (10_000, 10, 10)


def on_startup(command: str, dirty: bool) -> None:
    global _command
    _command = _command or command
    gc.set_threshold(*GC_THRESHOLDS)
    for name in _EXEC_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


def on_config(config):
    global _docs_dir, _docs_root
    _docs_dir = Path(config["docs_dir"]).name
    _docs_root = Path(config["docs_dir"])
    on_startup("build", False)  # also when hooks are loaded without on_startup (older entry points)
    # Every date MkDocs writes (sitemap, its gzip header) is the last commit's, not today's: same bytes.
    from transformer_site.reproducible import pin_build_date

    pin_build_date(Path(config.config_file_path).parent)
    global _site_dir
    _site_dir = config["site_dir"]
    return config


def on_build_error(error) -> None:
    """A failed build (``--strict`` aborts only after writing every page) leaves no site behind: nothing
    wrong — a stale number, a traceback, an empty figure — can be published from it. ``serve`` keeps its
    preview so the author sees the error in place."""
    if _command != "serve" and _site_dir and Path(_site_dir).is_dir():
        from mkdocs.utils import clean_directory

        clean_directory(_site_dir)
        log.info(f"build failed: emptied {_site_dir} so that nothing from this build is published")


def stale_project_modules(watched: list[str]) -> list[str]:
    """Modules of ``PROJECT_PACKAGES`` or loaded from a file under a watched folder (``watch:`` in mkdocs.yml)."""
    roots = [Path(path).resolve() for path in watched]
    stale = []
    for name, module in list(sys.modules.items()):
        if name == __name__ or module is None:
            continue
        if name.split(".", 1)[0] in PROJECT_PACKAGES:
            stale.append(name)
            continue
        file = getattr(module, "__file__", None)
        if file and roots and any(Path(file).resolve().is_relative_to(root) for root in roots):
            stale.append(name)
    return stale


def on_pre_build(config) -> None:
    """Forget the project's modules so this build imports the current ``src`` (``mkdocs serve`` rebuilds)."""
    for name in stale_project_modules(getattr(config, "watch", None) or []):
        del sys.modules[name]
    _blocks.clear()
    # Executed blocks go through the figure cache (keyed on the code and the src files it imports).
    from transformer_site import figure_cache

    figure_cache.install(Path(config.config_file_path).parent)


def on_post_build(config) -> None:
    from transformer_site import figure_cache

    log.info(figure_cache.report())
    log.info(figure_cache.cost_report())
    drop_source_maps(Path(config["site_dir"]))


_SOURCE_MAP_COMMENT = re.compile(r"\n?//# sourceMappingURL=\S+\.map\s*$")


def drop_source_maps(site_dir: Path) -> int:
    """Remove Material's ``*.map`` files (1.3 MB, for debugging Material itself) and the comments naming them.

    Returns the bytes saved. Readers never fetch a map; without the comment devtools does not ask for one either.
    """
    saved = 0
    for source_map in site_dir.glob("assets/**/*.map"):
        saved += source_map.stat().st_size
        source_map.unlink()
    for script in site_dir.glob("assets/**/*.js"):
        text = script.read_text(encoding="utf-8")
        stripped = _SOURCE_MAP_COMMENT.sub("", text)
        if stripped != text:
            script.write_text(stripped, encoding="utf-8")
    return saved


def on_page_markdown(markdown: str, page, config, files) -> str:
    page_path = page.file.src_uri
    seen: dict[str, ExecutedBlock] = {}
    for block in find_executed_blocks(markdown, page_path):
        earlier = seen.get(block.block_id) or _blocks.get(block.block_id)
        if earlier is not None:
            raise ValueError(
                f"{_docs_dir}/{page_path}:{block.line}: executed block id={block.block_id!r} is already used at "
                f"{_docs_dir}/{earlier.page}:{earlier.line}; ids must be unique across the site"
            )
        seen[block.block_id] = block
    _blocks.update(seen)
    markdown = with_derived_ids(markdown, list(seen.values()))
    # Checked numbers {{ literal = expression }}: verified here, shown as the literal (imported late because
    # on_pre_build drops the project's modules).
    from transformer_site.checked import render_checked_numbers

    return render_checked_numbers(markdown, page.file.abs_src_path, root=Path(config.config_file_path).parent)
