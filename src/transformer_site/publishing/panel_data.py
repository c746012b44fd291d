"""The panels' data as files of their own, fetched when a panel starts, not read in with its page.

A panel's HTML carries its data as JSON text in a ``<template class="tm-…-data">`` (``transformer_site.panels``).
On try-it that text is 290 KB of the page's 510 KB, so a phone downloads and parses it before it can draw the
first screen, although the panels sit far below it. This step writes each template's JSON to
``assets/panel-data/<hash>.json`` (named by its content: the same preset on two pages is one file, and a file
never changes under its name) and leaves the template empty with ``data-src``, the file's address relative to
the page. ``docs/assets/panels.js`` fills a panel's templates from their files just before it starts the panel.
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
from pathlib import Path

FOLDER = "assets/panel-data"
_TEMPLATE = re.compile(r'<template class="(tm-[a-z]+-data)" data-search-exclude>([^<]*)</template>')


def file_name(data: str) -> str:
    """The file's name: the first 16 hex digits of the SHA-256 of its UTF-8 text."""
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16] + ".json"


def move_out(page_html: str, page_url: str, site_dir: Path) -> str:
    """``page_html`` with every panel data template emptied and pointing at its file, written under ``site_dir``.

    ``page_url`` is where the page is served (``tryit/``, or ``""`` for the home page). A template whose text is
    not JSON raises ``ValueError`` naming the template's class, so no panel is published without its data.
    """
    folder = site_dir / FOLDER
    page_dir = (page_url if page_url.endswith("/") else posixpath.dirname(page_url)) or "."

    def out(match: re.Match) -> str:
        css_class, data = match.group(1), html.unescape(match.group(2))
        try:
            json.loads(data)
        except json.JSONDecodeError as error:
            where = f"page {page_url or '/'}: <template class=\"{css_class}\">"
            raise ValueError(f"{where} holds no JSON: {error}") from None
        name = file_name(data)
        path = folder / name
        if not path.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(data, encoding="utf-8")
        src = posixpath.relpath(f"{FOLDER}/{name}", page_dir)
        return f'<template class="{css_class}" data-search-exclude data-src="{src}"></template>'

    return _TEMPLATE.sub(out, page_html)
