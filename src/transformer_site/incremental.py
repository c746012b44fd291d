"""The edit loop of ``mkdocs serve --dirty``: what changed since the last build, and what to rebuild for it.

MkDocs' dirty build (its public ``serve --dirty`` option) renders only the pages whose source is newer than
their output. That alone is not right for this site, so each rebuild first compares every input file with the
previous build of this process (size and modification time of ``docs/``, ``src/``, ``snippets/``,
``overrides/`` and ``mkdocs.yml``):

- only Markdown pages changed: those pages are rebuilt, and with them every page whose executed blocks read
  the pages (a snippet naming ``docs`` in a string literal, as the count of checked numbers does): their output
  is removed, so MkDocs sees them as modified. The project's modules stay imported (nothing in ``src``
  changed), the search index keeps the entries of the pages that were not rebuilt (:func:`merge_search_index`),
  the nav is the same (its titles are in ``mkdocs.yml``);
- anything else changed — ``src``, a snippet, the configuration, the theme, an asset, a page added or removed,
  a lab notebook — or the previous build failed: the whole site is rebuilt (its folder emptied first), with
  fresh modules when code changed; the figure cache then re-renders exactly the blocks whose code changed.

Without ``--dirty`` (and for ``mkdocs build``) every build is whole. ``mkdocs serve`` rebuilds in one
interpreter, so a rebuild after a change of code first forgets the project's modules
(:func:`forget_project_modules`): the build imports the current ``src``, never a stale one.

What one rebuild must know of the ones before — the inputs of the last good build, its search index, whether it
failed — is :data:`LOOP`, the serve loop of this process: MkDocs makes a new plugin for every rebuild, and this
module is never forgotten (``KEPT``). Everything else about a build lives on its ``transformer_site.build.Build``.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("mkdocs.plugins.transformer_site.incremental")

WATCHED = ("docs", "src", "snippets", "overrides", "mkdocs.yml")
_DIRTY_WARNING = "A 'dirty' build is being performed"


@dataclass
class Change:
    """What a rebuild must do: ``whole`` (every page) or just ``pages`` (docs-relative paths)."""

    whole: bool
    code_changed: bool
    pages: set[str] = field(default_factory=set)
    reason: str = ""


@dataclass
class ServeLoop:
    """What the builds of one process know of each other (only ``mkdocs serve`` makes more than one)."""

    dirty: bool = False  # serve --dirty
    serving: bool = False
    inputs: dict[str, tuple[int, int]] | None = None  # at the start of the last good build
    failed: bool = False
    raw_index: dict | None = None  # Material's search index of the last good build, before search_ja
    builds: int = 0  # builds started in this process
    failures: object = None  # the latest build's (transformer_site.failures.Failures), for the serve error page

    def start(self, command: str, dirty: bool) -> None:
        """How MkDocs runs; a dirty serve drops MkDocs' warning about dirty builds (which ``--strict`` counts):
        this module decides when a dirty build would be wrong and rebuilds everything then."""
        self.serving = command == "serve"
        self.dirty = bool(dirty) and self.serving
        if self.dirty:
            logging.getLogger("mkdocs.commands.build").addFilter(_drop_dirty_warning)

    def build_failed(self) -> None:
        self.failed = True

    def rebuilt_only(self, change: Change | None, rendered: set[str]) -> set[str] | None:
        """The URLs of the pages this build rendered (``rendered``), when it rebuilt only some (a prose edit under
        a dirty serve: the others' outputs, notebooks included, are still those of the last good build); None
        otherwise."""
        if self.dirty and change is not None and not change.whole:
            return set(rendered)
        return None


LOOP = ServeLoop()  # this process's; kept across rebuilds with this module


KEPT = frozenset({"transformer_site.execution.isolation", "transformer_site.incremental"})
"""Never forgotten: ``isolation`` owns the process's audit hook, which cannot be removed; this module holds
:data:`LOOP`."""


def stale_project_modules(watched: list[str]) -> list[str]:
    """Modules of ``PROJECT_PACKAGES`` or loaded from a file under a watched folder (``watch:`` in mkdocs.yml)."""
    from transformer_site import PROJECT_PACKAGES

    roots = [Path(path).resolve() for path in watched]
    stale = []
    for name, module in list(sys.modules.items()):
        if name in KEPT or module is None:
            continue
        if name.split(".", 1)[0] in PROJECT_PACKAGES:
            stale.append(name)
            continue
        file = getattr(module, "__file__", None)
        if file and roots and any(Path(file).resolve().is_relative_to(root) for root in roots):
            stale.append(name)
    return stale


def forget_project_modules(watched: list[str]) -> None:
    """The next import of a project module (or of one from a watched folder) reads its file again."""
    for name in stale_project_modules(watched):
        del sys.modules[name]


def fresh_start(loop: ServeLoop, project: Path, docs_root: Path, site_dir: Path, watched: list[str]) -> Change:
    """What this build must do (:func:`before_build`); a rebuild after a change of code forgets the project's
    modules first, so that it imports the current ``src``."""
    rebuild = loop.builds > 0
    change = before_build(loop, project, docs_root, site_dir)
    if rebuild and change.code_changed:
        forget_project_modules(watched)
    return change


def _drop_dirty_warning(record: logging.LogRecord) -> bool:
    return not record.getMessage().startswith(_DIRTY_WARNING)


def snapshot(project: Path) -> dict[str, tuple[int, int]]:
    """(mtime_ns, size) of every input file, by path relative to ``project``."""
    found: dict[str, tuple[int, int]] = {}
    for name in WATCHED:
        top = project / name
        if top.is_file():
            st = top.stat()
            found[name] = (st.st_mtime_ns, st.st_size)
            continue
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
            for file in files:
                path = os.path.join(folder, file)
                st = os.stat(path)
                found[os.path.relpath(path, project)] = (st.st_mtime_ns, st.st_size)
    return found


def classify(before: dict[str, tuple[int, int]] | None, after: dict[str, tuple[int, int]], docs: str) -> Change:
    """The rebuild that ``after`` needs after a good build of ``before`` (``docs``: the docs folder's name)."""
    if before is None:
        return Change(whole=True, code_changed=True, reason="first build")
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    code = {p for p in changed if not p.startswith(docs + "/")}
    added_or_removed = before.keys() ^ after.keys()
    if code:
        return Change(whole=True, code_changed=True, reason=f"changed: {', '.join(sorted(code)[:3])}")
    if added_or_removed:
        return Change(whole=True, code_changed=False, reason=f"added or removed: {sorted(added_or_removed)[0]}")
    not_pages = [p for p in changed if not p.endswith(".md")]
    if not_pages:
        return Change(whole=True, code_changed=False, reason=f"changed: {sorted(not_pages)[0]}")
    return Change(whole=False, code_changed=False, pages={p[len(docs) + 1 :] for p in changed})


def pages_reading_docs(project: Path, docs_root: Path) -> set[str]:
    """Pages (docs-relative) with an executed block whose snippet names a path under the docs folder."""
    from transformer_site.execution.blocks import find_executed_blocks
    from transformer_site.execution.cache import named_paths
    from transformer_site.page import Page

    readers = set()
    for file in docs_root.rglob("*.md"):
        uri = file.relative_to(docs_root).as_posix()
        try:
            blocks = find_executed_blocks(Page.read(file), uri, docs_root)
        except ValueError:
            readers.add(uri)  # the build reports it; rebuild the page so that it does
            continue
        for block in blocks:
            for include in block.snippets:
                snippet = project / include
                code = snippet.read_text(encoding="utf-8") if snippet.is_file() else ""
                named = named_paths(code, project)
                if any(path == docs_root.resolve() or docs_root.resolve() in path.parents for path in named):
                    readers.add(uri)
    return readers


def before_build(loop: ServeLoop, project: Path, docs_root: Path, site_dir: Path) -> Change:
    """Decide this build; in a dirty serve, remove the output of what must be rebuilt."""
    now = snapshot(project)
    change = classify(None if loop.failed else loop.inputs, now, docs_root.name)
    if loop.failed and loop.inputs is not None:
        change.reason = "the previous build failed"
    if change.pages and any(_is_lab(docs_root / page) for page in change.pages):
        change = Change(whole=True, code_changed=False, reason="a lab notebook changed")
    loop.inputs, loop.failed = now, False
    loop.builds += 1
    if not loop.dirty:
        return change
    if change.whole:
        from transformer_site.publishing.site_dir import empty

        empty(site_dir)
        loop.raw_index = None
        log.info(f"incremental: whole site ({change.reason})")
        return change
    readers = pages_reading_docs(project, docs_root)
    for page in sorted(change.pages | readers):
        for output in _outputs(site_dir, page):
            output.unlink(missing_ok=True)
    log.info(f"incremental: rebuilding {sorted(change.pages)}, and the pages that read them {sorted(readers)}")
    return change


def _is_lab(file: Path) -> bool:
    from transformer_site.page import Page

    return file.is_file() and Page.read(file).is_lab


def _outputs(site_dir: Path, page: str) -> list[Path]:
    """Where a page's HTML may be (``use_directory_urls`` or not)."""
    stem = page[:-3]
    if stem == "index" or stem.endswith("/index"):
        return [site_dir / stem.removesuffix("index") / "index.html"]
    return [site_dir / stem / "index.html", site_dir / f"{stem}.html"]


def merge_search_index(loop: ServeLoop, index: dict, rebuilt: set[str] | None) -> dict:
    """Material's index of a dirty build holds only the rebuilt pages (``rebuilt``: their URLs; None: the build was
    whole): put back the entries of the others, in their places, from the last good build. A whole build's index
    is kept as it is (and remembered)."""
    if rebuilt is not None and loop.raw_index is not None:
        fresh: dict[str, list[dict]] = {}
        for doc in index.get("docs", []):
            fresh.setdefault(doc["location"].split("#", 1)[0], []).append(doc)
        merged, placed = [], set()
        for doc in loop.raw_index.get("docs", []):
            page = doc["location"].split("#", 1)[0]
            if page not in rebuilt:
                merged.append(doc)
            elif page not in placed:
                merged.extend(fresh.get(page, []))
                placed.add(page)
        merged += [doc for page, docs in fresh.items() if page not in placed for doc in docs]
        index = {**index, "docs": merged}
    loop.raw_index = index
    return index
