"""The course on every page: a notes or chapter page without a stage, or with an unknown one, fails the build at
page:line; a declared stage gets the block map with that stage marked and its links relative to the page."""

from __future__ import annotations

from mkdocs.structure.files import File, Files

from transformer_site.course import map as course_pages
from transformer_site.failures import Failures
from transformer_site.page import Page
from transformer_site.plugin import FilesSiteMap


def _page(uri: str, text: str) -> Page:
    return Page(text, f"docs/{uri}")


def test_missing_stage_is_an_error_at_the_page(tmp_path):
    failures = Failures()
    assert course_pages.declared_stage(_page("notes/03-x.md", "# 題\n"), "notes/03-x.md", tmp_path, failures) is None
    assert failures.reported() and failures.reported()[0].startswith("docs/notes/03-x.md:1: the page declares no stage")


def test_unknown_stage_is_an_error_at_its_line(tmp_path):
    failures = Failures()
    page = _page("chapter/02-x.md", "---\ntitle: t\nstage: atention\n---\n# 題\n")
    assert course_pages.declared_stage(page, "chapter/02-x.md", tmp_path, failures) is None
    (message,) = failures.reported()
    assert message.startswith("docs/chapter/02-x.md:3: unknown stage 'atention'")


def test_other_sections_need_no_stage(tmp_path):
    failures = Failures()
    assert course_pages.declared_stage(_page("scale/01-x.md", "# 題\n"), "scale/01-x.md", tmp_path, failures) is None
    assert not failures.reported()


def test_map_marks_the_stage_and_links_relative_to_the_page(tmp_path):
    from transformer_pages import course

    docs = tmp_path / "docs"
    uris = sorted({x for s in course.STAGES for x in (s.notes, s.chapter)})
    for uri in uris:
        (docs / uri).parent.mkdir(parents=True, exist_ok=True)
        (docs / uri).write_text(f"# {uri}\n", encoding="utf-8")
    files = Files([File(u, str(docs), str(tmp_path / "site"), use_directory_urls=True) for u in uris])
    failures = Failures()
    site = FilesSiteMap(files)
    def pages(uri: str) -> Page | None:
        return Page.read(docs / uri, f"docs/{uri}") if (docs / uri).is_file() else None

    html = course_pages.render("<h1>題</h1><p>本文</p>", "notes/03-attention.md", "attention", site, pages, failures)
    assert html.index("</h1>") < html.index('class="block-map') < html.index("<p>本文")
    assert html.count('aria-current="page"') == 1
    assert 'href="../01-embedding/"' in html and 'href="../../chapter/02-attention-kinds/"' in html
