"""The API pages (docs/reference/api/, rendered by mkdocstrings from the docstrings of src).

Docstrings are rendered as Markdown, so a tag a docstring mentions outside backticks becomes markup: a
``<script>`` element that the browser tries to run, or a ``<style>``/``<textarea>``
that swallows the rest of the page. In pages built by mkdocstrings those three tags are shown as text. Other
pages are left alone. Other tags cannot be escaped here (mkdocstrings' own code blocks are ``<pre>``): a
docstring names them in backticks (a bare one in this docstring once made the rest of the page preformatted,
and the API page scrolled sideways on phones).
"""

from __future__ import annotations

import html as html_lib
import logging
import re

log = logging.getLogger("mkdocs.plugins.transformer_site.api_docs")

_MKDOCSTRINGS = 'class="doc doc-'
_RAW_TEXT_TAG = re.compile(r"</?(script|style|textarea)\b[^>]*>", re.IGNORECASE)


def escape_raw_text_tags(content: str) -> tuple[str, int]:
    """``content`` with every script/style/textarea tag written as text, and how many there were."""
    return _RAW_TEXT_TAG.subn(lambda m: html_lib.escape(m.group(0)), content)


def tags_as_text(html: str, page_uri: str) -> str:
    """A page built by mkdocstrings with its script/style/textarea tags as text; any other page as it is."""
    if _MKDOCSTRINGS not in html:
        return html
    escaped, count = escape_raw_text_tags(html)
    if count:
        log.info(f"api_docs: {page_uri}: {count} tags mentioned in docstrings shown as text")
    return escaped
