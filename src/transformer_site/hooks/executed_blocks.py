"""Hook: executed blocks (``transformer_site.executed``) — found on each page, named, checked, reported.

- ``on_pre_build``: a fresh run (blocks, figure cache, the state blocks may not change) for this build.
- ``on_page_markdown``: every executed fence of the page gets its id (its own, or one derived from its page
  and snippet), its snippet must exist and live under ``snippets/<page path>/``, ids are unique across the
  site; each mistake is an error naming ``docs/page.md:line``. The blocks themselves run later, when the page
  is converted (the fence formatter registered in mkdocs.yml).
- ``on_post_build``: how many blocks rendered or came from the cache, and which were slowest.
"""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger("mkdocs.plugins.transformer_site.executed_blocks")


def on_pre_build(config) -> None:
    from transformer_site import executed

    executed.start_build(Path(config.config_file_path).parent, Path(config["docs_dir"]))


def on_page_markdown(markdown: str, page, config, files) -> str:
    from transformer_site import executed
    from transformer_site.checked.render import source_line_offset

    first_line = 1 + source_line_offset(page.markdown, page.file.abs_src_path)
    return executed.register_page(markdown, page.file.src_uri, first_line)


def on_post_build(config) -> None:
    from transformer_site import figure_cache

    log.info(figure_cache.report())
    log.info(figure_cache.cost_report())
