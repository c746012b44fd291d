"""Hook: executed blocks (``transformer_site.execution.blocks``) — found on each page, named, checked, run, reported.

- ``on_config``: the python fence of ``pymdownx.superfences`` is the site's (markdown-exec's public validator
  and ``base_format`` with the site's runner, as markdown-exec's own plugin registers its fences), and
  ``pymdownx.snippets`` includes files from the project's folder — its ``base_path`` would otherwise be the
  working directory, so ``mkdocs build -f other/place/mkdocs.yml`` would not find them.
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


def on_config(config):
    """The site's python fence, and snippets found from the project's folder (not the working directory)."""
    from transformer_site.execution import blocks as executed

    mdx = config.mdx_configs
    fences = mdx.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    fences[:] = [fence for fence in fences if fence.get("name") != "python"]
    fences.append({"name": "python", "class": "python", "validator": executed.validator, "format": executed.formatter})
    mdx.setdefault("pymdownx.snippets", {})["base_path"] = [str(Path(config.config_file_path).parent)]
    return config


def on_pre_build(config) -> None:
    from transformer_site.execution import blocks as executed

    executed.start_build(Path(config.config_file_path).parent, Path(config["docs_dir"]))


def on_page_markdown(markdown: str, page, config, files) -> str:
    from transformer_site.checked.render import source_line_offset
    from transformer_site.execution import blocks as executed

    first_line = 1 + source_line_offset(page.markdown, page.file.abs_src_path)
    return executed.register_page(markdown, page.file.src_uri, first_line)


def on_post_build(config) -> None:
    from transformer_site.execution import cache as figure_cache

    log.info(figure_cache.report())
    log.info(figure_cache.cost_report())
