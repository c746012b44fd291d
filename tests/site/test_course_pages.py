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


def test_the_start_marker_becomes_the_map_and_a_button_per_track_with_its_length(tmp_path):
    from transformer_pages import course

    docs = tmp_path / "docs"
    uris = {x for s in course.STAGES for x in (s.notes, s.chapter)}
    uris = sorted(uris | {p for t in course.TRACKS for p in t.pages})
    for uri in uris:
        (docs / uri).parent.mkdir(parents=True, exist_ok=True)
        (docs / uri).write_text(f"# {uri}\n\n" + "あ" * 400 + "\n", encoding="utf-8")  # 2 minutes each
    (docs / "index.md").write_text("# 題\n", encoding="utf-8")
    files = Files([File(u, str(docs), str(tmp_path / "site"), use_directory_urls=True) for u in [*uris, "index.md"]])
    failures = Failures()

    def pages(uri: str) -> Page | None:
        return Page.read(docs / uri, f"docs/{uri}") if (docs / uri).is_file() else None

    html = course_pages.render(
        "<h1>題</h1><!-- course: start --><p>本文</p>", "index.md", None, FilesSiteMap(files), pages, failures
    )
    assert not failures.reported()
    assert "<!-- course: start -->" not in html
    assert html.index('class="block-map') < html.index('class="course-start"') < html.index("<p>本文")
    for track in course.TRACKS:
        first = track.pages[0][: -len(".md")] + "/"
        button = f'href="{first}" data-track="{track.key}"><span class="course-start__name">{track.name}</span>'
        assert button in html, track.key
        assert f"約 {2 * len(track.pages)} 分" in html.split(f'data-track="{track.key}"', 1)[1].split("</a>", 1)[0]
