"""Hook: every formula typeset by KaTeX at build time (``transformer_site.math_render``), in the page's final HTML.

``on_post_page`` runs after the search plugin has read the page's content, so the search index keeps the TeX.
"""

from __future__ import annotations


def on_post_page(output: str, page, config) -> str:
    from transformer_site import math_render

    if "arithmatex" not in output:
        return output
    return math_render.typeset_page(output, f"docs/{page.file.src_uri}")
