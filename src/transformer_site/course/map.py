"""The course on every page: the block map under the title, with the page's reading time and its counterparts.

A page declares its stage of the block in its front matter::

    ---
    stage: attention
    ---

(one of ``transformer_pages.course.STAGE_KEYS``; ``block`` for a page about the whole block). Every page of the
sections in ``course.MAPPED_SECTIONS`` must declare one: a missing or unknown stage is reported as
``docs/page.md:line`` and fails the build. Any other page may declare one to get the map too.

Under the page's title the build puts the small map (each stage a link to its page in the page's own track: the
chapter's map links to the chapter's pages), the page's reading time (``course.reading``, from the page's
source, by the rule the index states) and links to the pages of the other tracks that cover the same idea
(``course.counterparts``). On the index, the comment ``<!-- course: map -->`` is replaced by the large map and
``<!-- course: path -->`` by the reading path: every track, what it assumes, its pages and their reading times;
``<!-- course: start -->`` by the course's first screen: the block map and one start button per track with its length.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

from transformer_pages import course
from transformer_site.failures import Failures
from transformer_site.page import Page, SiteMap

_PATH_MARKER = "<!-- course: path -->"
_MAP_MARKER = "<!-- course: map -->"
_START_MARKER = "<!-- course: start -->"
_H1_END = re.compile(r"</h1>", re.I)

TEXT = {
    "chars": "本文 {chars:,} 字",
    "figures": "図・コード",
    "formulas": "数式",
    "questions": "問題",
    "parts_joined_by": "・",
    "reading": "読む目安 約 {minutes} 分 ({parts})",
    "also": "同じ考えを別の道で: {links}",
    "links_joined_by": "、",
    "notes": "ノート",
    "chapter": "章",
    "large_map_title": "ブロックの地図 (段を押すとその段のページへ)",
    "minutes": "約 {minutes} 分",
    "total": "(合計 約 {total} 分)",
    "assumes": "前提:",
}
"""The reader-facing words of the map, the reading time and the reading path."""


def declared_stage(page: Page, uri: str, root: Path, failures: Failures) -> str | None:
    """The stage the page declares in its front matter, or None; a missing (where required) or unknown stage
    reported to ``failures`` as page:line (``uri``: the page relative to docs/)."""
    value = page.front_matter.data.get("stage")
    required = uri.split("/", 1)[0] in course.MAPPED_SECTIONS
    if value is None:
        if required:
            failures.report(
                f"{page.path}:1: the page declares no stage of the block; add front matter "
                f"'stage: …' (one of {', '.join(course.STAGE_KEYS)})"
            )
        return None
    if value not in course.STAGE_KEYS:
        failures.report(
            f"{page.path}:{page.front_matter.line_of('stage', page.lines)}: unknown stage {value!r}; "
            f"the stages are {', '.join(course.STAGE_KEYS)}"
        )
        return None
    return value


class _Links:
    """Links from one page (``uri``) to the others of the site; a target that is no page is reported."""

    def __init__(self, uri: str, site: SiteMap, pages: Callable[[str], Page | None], failures: Failures):
        self.uri, self.site, self.pages, self.failures = uri, site, pages, failures

    def url(self, target: str) -> str:
        found = self.site.relative_url(target, self.uri)
        if found is None:
            self.failures.report(f"docs/{self.uri}: the course links to {target}, which is not a page of the site")
            return "#"
        return found

    def title(self, target: str) -> str:
        title = self.site.title(target)
        if title:
            return title
        page = self.pages(target)
        heading = next((h.text for h in page.headings if h.level == 1), None) if page is not None else None
        return heading or target

    def source_text(self, target: str) -> str | None:
        page = self.pages(target)
        return page.text if page is not None else None


def _track_key(uri: str) -> str:
    return "chapter" if uri.startswith("chapter/") else "notes"


def reading_note(source: str) -> str:
    r = course.reading(source)
    parts = [TEXT["chars"].format(chars=r.chars)]
    for count, what in ((r.figures, "figures"), (r.formulas, "formulas"), (r.questions, "questions")):
        if count:
            parts.append(f"{TEXT[what]} {count}")
    shown = TEXT["reading"].format(minutes=r.minutes, parts=TEXT["parts_joined_by"].join(parts))
    return f'<span class="block-map__time">{shown}</span>'


def counterpart_note(links: _Links) -> str:
    found = [
        f'<a href="{html.escape(links.url(p))}">{html.escape(links.title(p))}</a>'
        for p in course.counterparts(links.uri)
    ]
    shown = TEXT["also"].format(links=TEXT["links_joined_by"].join(found))
    return f'<span class="block-map__also">{shown}</span>' if found else ""


def small_map(links: _Links, stage: str) -> str:
    # imported here, not at the top: transformer_figures loads matplotlib (0.3 s), which a build whose pages
    # declare no stage (a test's one-page project) never needs
    from transformer_figures.block_map import MapStage, block_map_html

    track = _track_key(links.uri)
    stages = [MapStage(s.key, s.label, links.url(s.chapter if track == "chapter" else s.notes)) for s in course.STAGES]
    note = " ".join(x for x in (reading_note(links.source_text(links.uri) or ""), counterpart_note(links)) if x)
    whole = stage == course.WHOLE_BLOCK
    return block_map_html(stages, None if whole else stage, whole=whole, note=note)


def large_map(links: _Links) -> str:
    from transformer_figures.block_map import MapStage, block_map_html  # as in small_map

    stages = [
        MapStage(
            s.key, s.label, links.url(s.notes), does=s.does,
            more=((TEXT["notes"], links.url(s.notes)), (TEXT["chapter"], links.url(s.chapter)),
                  *((label, links.url(target)) for label, target in course.stage_extras(s.key))),
        )
        for s in course.STAGES
    ]  # fmt: skip
    return block_map_html(stages, None, large=True, title=TEXT["large_map_title"])


def _minutes(links: _Links, target: str) -> int:
    source = links.source_text(target)
    return course.reading_minutes(source) if source is not None else 0


def start_html(links: _Links) -> str:
    """The course's first screen: the block map, and one button per track to its first page, with the track's
    reading time (the sum of its pages', as the reading path below adds them)."""
    from transformer_figures.block_map import MapStage, block_map_html  # as in small_map
    from transformer_figures.course_start import StartButton
    from transformer_figures.course_start import start_html as buttons_html

    stages = [MapStage(s.key, s.label, links.url(s.notes)) for s in course.STAGES]
    buttons = [
        StartButton(t.key, t.name, links.url(t.pages[0]), sum(_minutes(links, p) for p in t.pages))
        for t in course.TRACKS
    ]
    return block_map_html(stages, None) + buttons_html(buttons)


def path_html(links: _Links) -> str:
    """Every track: its title, what it assumes, its pages in order with their reading times."""
    parts = ['<div class="course-path">']
    for track in course.TRACKS:
        total = 0
        rows = []
        for target in track.pages:
            minutes = _minutes(links, target)
            total += minutes
            rows.append(
                f'<li><a href="{html.escape(links.url(target))}">{html.escape(links.title(target))}</a>'
                f' <span class="course-path__time">{TEXT["minutes"].format(minutes=minutes)}</span></li>'
            )
        parts.append(
            f'<section class="course-path__track" data-track="{track.key}">'
            f'<h3 id="path-{track.key}">{html.escape(track.title)} <small>{TEXT["total"].format(total=total)}</small>'
            f'<a class="headerlink" href="#path-{track.key}" title="Permanent link">&para;</a></h3>'
            f'<p class="course-path__assumes"><strong>{TEXT["assumes"]}</strong> {html.escape(track.assumes)}</p>'
            f'<ol class="course-path__pages">{"".join(rows)}</ol></section>'
        )
    parts.append("</div>")
    return "".join(parts)


def render(
    html_text: str, uri: str, stage: str | None, site: SiteMap, pages: Callable[[str], Page | None], failures: Failures
) -> str:
    """The content of the page ``uri`` with the map of its ``stage`` under its title (and, on the index, the large
    map and the reading path at their markers). ``pages``: the model of a page of the site (None: no page)."""
    links = _Links(uri, site, pages, failures)
    if stage:
        html_text = _insert_after_title(html_text, small_map(links, stage))
    if _START_MARKER in html_text:
        html_text = html_text.replace(_START_MARKER, start_html(links))
    if _MAP_MARKER in html_text:
        html_text = html_text.replace(_MAP_MARKER, large_map(links))
    if _PATH_MARKER in html_text:
        html_text = html_text.replace(_PATH_MARKER, path_html(links))
    return html_text


def _insert_after_title(html_text: str, block: str) -> str:
    m = _H1_END.search(html_text)
    if m is None:
        return block + html_text
    return html_text[: m.end()] + block + html_text[m.end() :]
