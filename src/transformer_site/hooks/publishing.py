"""Hook: what is published — the same bytes for the same commit, no debugging leftovers, nothing from a failed build.

- ``on_config``: every date MkDocs writes (sitemap, its gzip header) is the last commit's, not today's
  (``transformer_site.publishing.reproducible``).
- ``on_post_build``: Material's ``*.map`` files (1.3 MB, for debugging Material itself) and the comments
  naming them are removed; readers never fetch them.
- ``on_build_error``: a failed build (``--strict`` aborts only after writing every page) leaves no site
  behind, so nothing wrong — a stale number, a traceback, an empty figure — can be published from it.
  (Under ``mkdocs serve`` the ``build_failures`` hook then writes its error page there.)
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

log = logging.getLogger("mkdocs.plugins.transformer_site.publishing")

_site_dir: str | None = None


def on_config(config):
    global _site_dir
    from transformer_site.publishing.reproducible import pin_build_date

    pin_build_date(Path(config.config_file_path).parent)
    _site_dir = config["site_dir"]
    return config


def on_post_build(config) -> None:
    drop_source_maps(Path(config["site_dir"]))


def on_build_error(error) -> None:
    if _site_dir and Path(_site_dir).is_dir():
        from mkdocs.utils import clean_directory

        clean_directory(_site_dir)
        log.error(f"build failed: emptied {_site_dir} so that nothing from this build is published")


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
