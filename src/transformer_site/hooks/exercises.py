"""Hook: 確認問題 — every ``!!! exercise`` block of a page checked against ``src`` and shown as a question.

``on_page_markdown`` runs after ``checked_numbers`` (its place in ``hooks:``), so the text it receives shows every
checked number as its literal, line for line as the page's source. The blocks are read from that source
(``page.markdown`` as MkDocs read it: the expressions, and lines that name ``docs/page.md:line``), and each is
replaced by the question's markup (``transformer_site.exercises.html``). Every mistake — a question without a
computed answer, a number question whose answer is not a number, a right option that is not among the
options, a missing hint — is reported through ``transformer_site.failures`` as ``docs/page.md:line: …``, so
the build fails; the block then shows an error in place of the question.
"""

from __future__ import annotations

from pathlib import Path


def on_page_markdown(markdown: str, page, config, files) -> str:
    from transformer_site.exercises import render as exercise_pages

    return exercise_pages.render_page(
        markdown, page.markdown, page.file.abs_src_path, root=Path(config.config_file_path).parent
    )
