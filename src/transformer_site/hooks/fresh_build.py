"""Hook: each build starts from a checked environment and fresh project modules (first of the site's hooks).

- ``on_config``: every environment variable the build reads is validated (``transformer_site.environment``);
  a bad one stops the build before anything is built, each named with its value and what it should be. The
  garbage collector gets a larger young generation (see ``GC_THRESHOLDS``).
- ``on_pre_build``: the modules of ``PROJECT_PACKAGES`` and any module loaded from a watched folder
  (``watch:`` in mkdocs.yml) are dropped from ``sys.modules``: ``mkdocs serve`` keeps one interpreter across
  rebuilds, so without this an edit in ``src/`` would give stale numbers and figures. ``transformer_site.
  isolation`` stays: it owns the process's audit hook, which cannot be removed, and so does
  ``transformer_site.incremental``, which remembers the previous build of a ``mkdocs serve``.
- Under ``mkdocs serve`` (``on_startup``) the modules are dropped only when a file of ``src``, the snippets or
  the configuration changed since the last good build, and with ``--dirty`` a prose edit rebuilds only its page
  and the pages that read it (``transformer_site.incremental``: ``on_pre_build`` decides, ``on_page_context``
  records what was rebuilt, ``on_post_build`` puts the other pages' entries back in the search index before
  ``search_ja`` rewrites it, ``on_build_error`` makes the next build whole).
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

KEPT = frozenset({"transformer_site.execution.isolation", "transformer_site.incremental"})

# A build is a batch job with a large, long-lived heap (torch, matplotlib, MkDocs' pages): with Python's default
# thresholds (700, 10, 10) a clean build ran 11 full collections that freed almost nothing, 1.2 s of its CPU
# (1.6 s in all generations, measured with gc.callbacks). A larger young generation keeps the same ratios
# between generations and ran none: 0.5 s in all, for 12 MB more peak memory (367 MB instead of 355 MB).
GC_THRESHOLDS = (10_000, 10, 10)


@event_priority(100)
def on_config(config):
    gc.set_threshold(*GC_THRESHOLDS)
    from transformer_site import environment

    problems = environment.problems()
    if problems:
        raise PluginError("environment: " + "; ".join(problems))
    return config


def stale_project_modules(watched: list[str]) -> list[str]:
    """Modules of ``PROJECT_PACKAGES`` or loaded from a file under a watched folder (``watch:`` in mkdocs.yml)."""
    from transformer_site import PROJECT_PACKAGES

    roots = [Path(path).resolve() for path in watched]
    stale = []
    for name, module in list(sys.modules.items()):
        if name == __name__ or name in KEPT or module is None:
            continue
        if name.split(".", 1)[0] in PROJECT_PACKAGES:
            stale.append(name)
            continue
        file = getattr(module, "__file__", None)
        if file and roots and any(Path(file).resolve().is_relative_to(root) for root in roots):
            stale.append(name)
    return stale


def on_startup(command, dirty) -> None:
    from transformer_site import incremental

    incremental.start(command, dirty)


@event_priority(100)  # before every other hook imports a project module for this build
def on_pre_build(config) -> None:
    """Forget the project's modules so this build imports the current ``src`` (``mkdocs serve`` rebuilds)."""
    from transformer_site import incremental

    project = Path(config.config_file_path).parent
    change = incremental.before_build(project, Path(config["docs_dir"]), Path(config["site_dir"]))
    if incremental.state.serving and not change.code_changed:
        return  # a prose edit: the modules imported for the last build are the current ones
    for name in stale_project_modules(getattr(config, "watch", None) or []):
        del sys.modules[name]


def on_page_context(context, page, **kwargs):
    from transformer_site import incremental

    incremental.page_built(page.url)
    return context


def on_post_build(config) -> None:  # after Material's search plugin wrote its index, before search_ja reads it
    from transformer_site import incremental

    path = Path(config["site_dir"]) / "search" / "search_index.json"
    if not incremental.state.dirty or not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    merged = incremental.merge_search_index(index)
    if merged is not index:
        path.write_text(json.dumps(merged, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def on_build_error(error) -> None:
    from transformer_site import incremental

    incremental.build_failed()
