"""Hook: the glossary — the 用語集 page from its table, and each term's definition on hover/focus on every page.

``on_page_markdown`` puts the list into the glossary page at its marker (before Markdown, so MkDocs checks its
links and anchors); ``on_page_content`` wraps the first occurrence of each term on every other page
(``transformer_site.glossary``), after the other content hooks and before figures leave for the search plugin.
"""

from __future__ import annotations

from pathlib import Path


def on_page_markdown(markdown: str, page, config, files) -> str:
    from transformer_site import glossary

    if page.file.src_uri == glossary.GLOSSARY_PAGE:
        return glossary.render_glossary_page(markdown, page.file.src_uri, Path(config.docs_dir))
    return markdown


def on_page_content(html: str, page, config, files) -> str:
    from transformer_site import glossary

    if not glossary.wraps_terms_on(page.file.src_uri):
        return html
    return glossary.wrap_terms(html)
