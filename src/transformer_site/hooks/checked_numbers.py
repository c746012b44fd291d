"""Hook: checked numbers and claims, markers and citations verified on every page and shown as the reader sees them.

Each stale, malformed or failing number is reported through ``transformer_site.failures`` (an error naming
``docs/page.md:line``, with ``-q`` as without), so the build fails; see ``transformer_site.checked``.
"""

from __future__ import annotations

from pathlib import Path


def on_page_markdown(markdown: str, page, config, files) -> str:
    from transformer_site.checked import render_checked_numbers

    return render_checked_numbers(
        markdown, page.file.abs_src_path, root=Path(config.config_file_path).parent, original=page.markdown,
        page_uri=page.file.src_uri,
    )  # fmt: skip
