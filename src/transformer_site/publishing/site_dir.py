"""The built site's folder: no debugging leftovers in it, and nothing left in it from a failed build.

- :func:`drop_source_maps`: Material's ``*.map`` files (1.3 MB, for debugging Material itself) and the comments
  naming them are removed; readers never fetch them.
- :func:`empty_after_failure`: a failed build (``--strict`` aborts only after writing every page) leaves no site
  behind, so nothing wrong — a stale number, a traceback, an empty figure — can be published from it. (Under
  ``mkdocs serve`` the error page is written there afterwards.)
"""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

log = logging.getLogger("mkdocs.plugins.transformer_site.publishing")

_SOURCE_MAP_COMMENT = re.compile(r"\n?//# sourceMappingURL=\S+\.map\s*$")


def drop_source_maps(site_dir: Path) -> int:
    """Remove Material's ``*.map`` files and the comments naming them; returns the bytes saved.

    Without the comment devtools does not ask for a map either.
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


def empty(site_dir: Path) -> None:
    """Everything the build writes removed from ``site_dir``: the folder itself stays (``mkdocs serve`` serves from
    it), and so do hidden files, which no build writes (as MkDocs' own cleaning does)."""
    if not site_dir.is_dir():
        return
    for entry in site_dir.iterdir():
        if entry.name.startswith("."):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink()


def empty_after_failure(site_dir: Path) -> None:
    """A failed build's site removed, so that nothing from it is published."""
    if site_dir.is_dir():
        empty(site_dir)
        log.error(f"build failed: emptied {site_dir} so that nothing from this build is published")
