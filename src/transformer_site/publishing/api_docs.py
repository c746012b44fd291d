"""MkDocs hook for the API page (docs/reference/api.md, rendered by mkdocstrings from the docstrings of src).

Docstrings are rendered as Markdown, so a tag a docstring mentions outside backticks becomes markup: a
``<script>`` element that Material's instant navigation then tries to run, or a ``<style>``/``<textarea>``
that swallows the rest of the page. In pages built by mkdocstrings those three tags are shown as text. Other
pages are left alone. Other tags cannot be escaped here (mkdocstrings' own code blocks are ``<pre>``): a
docstring names them in backticks (a bare one in this docstring once made the rest of the page preformatted,
and the API page scrolled sideways on phones).
"""

from __future__ import annotations

import html as html_lib
import logging
import re

log = logging.getLogger("mkdocs.hooks.api_docs")

_MKDOCSTRINGS = 'class="doc doc-'
_RAW_TEXT_TAG = re.compile(r"</?(script|style|textarea)\b[^>]*>", re.IGNORECASE)


def escape_raw_text_tags(content: str) -> tuple[str, int]:
    """``content`` with every script/style/textarea tag written as text, and how many there were."""
    return _RAW_TEXT_TAG.subn(lambda m: html_lib.escape(m.group(0)), content)


def on_page_content(html, page, **kwargs):
    if _MKDOCSTRINGS not in html:
        return html
    escaped, count = escape_raw_text_tags(html)
    if count:
        log.info(f"api_docs: {page.file.src_uri}: {count} tags mentioned in docstrings shown as text")
    return escaped
