"""Hook: the course on every page — the block map under the title, reading time, the other tracks' pages.

``on_page_markdown`` checks the page's declared stage (front matter ``stage:``; required on the notes and the
chapter, a missing or unknown one reported as ``docs/page.md:line``); ``on_page_content`` puts the map under the
page's title and, on the index, the reading path (``transformer_site.course.map``).
"""

from __future__ import annotations

from pathlib import Path


def on_page_markdown(markdown: str, page, config, files) -> str:
    from transformer_site.course import map as course_pages

    page.meta["_course_stage"] = course_pages.declared_stage(page, Path(config.config_file_path).parent)
    return markdown


def on_page_content(html: str, page, config, files) -> str:
    from transformer_site.course import map as course_pages

    return course_pages.render(html, page, files)
