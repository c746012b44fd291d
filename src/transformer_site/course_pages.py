"""The course on every page: the block map under the title, with the page's reading time and its counterparts.

A page declares its stage of the block in its front matter::

    ---
    stage: attention
    ---

(one of ``transformer_pages.course.STAGE_KEYS``; ``block`` for a page about the whole block). Every page of the
sections in ``course.MAPPED_SECTIONS`` must declare one: a missing or unknown stage is reported as
``docs/page.md:line`` and fails the build. Any other page may declare one to get the map too.

Under the page's title the hook puts the small map (each stage a link to its page in the page's own track: the
chapter's map links to the chapter's pages), the page's reading time (``course.reading``, from the page's
source, by the rule the index states) and links to the pages of the other tracks that cover the same idea
(``course.counterparts``). On the index, the comment ``<!-- course: map -->`` is replaced by the large map and
``<!-- course: path -->`` by the reading path: every track, what it assumes, its pages and their reading times;
``<!-- course: start -->`` by the course's first screen: the block map and one start button per track with its length.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from mkdocs.utils import get_relative_url

from transformer_pages import course

_STAGE_LINE = re.compile(r"^stage\s*:", re.M)
_PATH_MARKER = "<!-- course: path -->"
_MAP_MARKER = "<!-- course: map -->"
_START_MARKER = "<!-- course: start -->"
_H1_END = re.compile(r"</h1>", re.I)


def _source(page) -> str:
    return Path(page.file.abs_src_path).read_text(encoding="utf-8")


def _line_of_stage(source: str) -> int:
    m = _STAGE_LINE.search(source)
    return source[: m.start()].count("\n") + 1 if m else 1


def declared_stage(page, root: Path) -> str | None:
    """The page's stage, or None; a missing (where required) or unknown stage reported as page:line."""
    from transformer_site import failures

    uri = page.file.src_uri
    value = page.meta.get("stage")
    required = uri.split("/", 1)[0] in course.MAPPED_SECTIONS
    where = Path(page.file.abs_src_path)
    try:
        where = where.relative_to(root)
    except ValueError:
        pass
    if value is None:
        if required:
            failures.report(
                f"{where}:1: the page declares no stage of the block; add front matter "
                f"'stage: …' (one of {', '.join(course.STAGE_KEYS)})"
            )
        return None
    if value not in course.STAGE_KEYS:
        failures.report(
            f"{where}:{_line_of_stage(_source(page))}: unknown stage {value!r}; "
            f"the stages are {', '.join(course.STAGE_KEYS)}"
        )
        return None
    return value


def _url(target: str, page, files) -> str:
    file = files.get_file_from_path(target)
    if file is None:
        from transformer_site import failures

        failures.report(f"docs/{page.file.src_uri}: the course links to {target}, which is not a page of the site")
        return "#"
    return get_relative_url(file.url, page.url)


def _title(target: str, files) -> str:
    file = files.get_file_from_path(target)
    if file is not None and file.page is not None and file.page.title:
        return file.page.title
    head = Path(file.abs_src_path).read_text(encoding="utf-8") if file is not None else ""
    m = re.search(r"^# (.+)$", head, re.M)
    return m.group(1).strip() if m else target


def _track_key(uri: str) -> str:
    return "chapter" if uri.startswith("chapter/") else "notes"


def reading_note(page) -> str:
    r = course.reading(_source(page))
    parts = [f"本文 {r.chars:,} 字"]
    for count, what in ((r.figures, "図・コード"), (r.formulas, "数式"), (r.questions, "問題")):
        if count:
            parts.append(f"{what} {count}")
    return f'<span class="block-map__time">読む目安 約 {r.minutes} 分 ({"・".join(parts)})</span>'


def counterpart_note(page, files) -> str:
    links = [
        f'<a href="{html.escape(_url(p, page, files))}">{html.escape(_title(p, files))}</a>'
        for p in course.counterparts(page.file.src_uri)
    ]
    return f'<span class="block-map__also">同じ考えを別の道で: {"、".join(links)}</span>' if links else ""


def small_map(page, stage: str, files) -> str:
    # imported here, not at the top: transformer_figures loads matplotlib (0.3 s), which a build whose pages
    # declare no stage (a test's one-page project) never needs
    from transformer_figures.block_map import MapStage, block_map_html

    track = _track_key(page.file.src_uri)
    stages = [
        MapStage(s.key, s.label, _url(s.chapter if track == "chapter" else s.notes, page, files)) for s in course.STAGES
    ]
    note = " ".join(x for x in (reading_note(page), counterpart_note(page, files)) if x)
    whole = stage == course.WHOLE_BLOCK
    return block_map_html(stages, None if whole else stage, whole=whole, note=note)


def large_map(page, files) -> str:
    from transformer_figures.block_map import MapStage, block_map_html  # as in small_map

    stages = [
        MapStage(
            s.key, s.label, _url(s.notes, page, files), does=s.does,
            more=(("ノート", _url(s.notes, page, files)), ("章", _url(s.chapter, page, files)),
                  *((label, _url(target, page, files)) for label, target in course.stage_extras(s.key))),
        )
        for s in course.STAGES
    ]  # fmt: skip
    return block_map_html(stages, None, large=True, title="ブロックの地図 (段を押すとその段のページへ)")


def _minutes(target: str, files) -> int:
    file = files.get_file_from_path(target)
    return course.reading_minutes(Path(file.abs_src_path).read_text(encoding="utf-8")) if file else 0


def start_html(page, files) -> str:
    """The course's first screen: the block map, and one button per track to its first page, with the track's
    reading time (the sum of its pages', as the reading path below adds them)."""
    from transformer_figures.block_map import MapStage, block_map_html  # as in small_map
    from transformer_figures.course_start import StartButton
    from transformer_figures.course_start import start_html as buttons_html

    stages = [MapStage(s.key, s.label, _url(s.notes, page, files)) for s in course.STAGES]
    buttons = [
        StartButton(t.key, t.name, _url(t.pages[0], page, files), sum(_minutes(p, files) for p in t.pages))
        for t in course.TRACKS
    ]
    return block_map_html(stages, None) + buttons_html(buttons)


def path_html(page, files) -> str:
    """Every track: its title, what it assumes, its pages in order with their reading times."""
    parts = ['<div class="course-path">']
    for track in course.TRACKS:
        total = 0
        rows = []
        for target in track.pages:
            minutes = _minutes(target, files)
            total += minutes
            rows.append(
                f'<li><a href="{html.escape(_url(target, page, files))}">{html.escape(_title(target, files))}</a>'
                f' <span class="course-path__time">約 {minutes} 分</span></li>'
            )
        parts.append(
            f'<section class="course-path__track" data-track="{track.key}">'
            f'<h3 id="path-{track.key}">{html.escape(track.title)} <small>(合計 約 {total} 分)</small>'
            f'<a class="headerlink" href="#path-{track.key}" title="Permanent link">&para;</a></h3>'
            f'<p class="course-path__assumes"><strong>前提:</strong> {html.escape(track.assumes)}</p>'
            f'<ol class="course-path__pages">{"".join(rows)}</ol></section>'
        )
    parts.append("</div>")
    return "".join(parts)


def render(html_text: str, page, files) -> str:
    """The page's content with the map under its title (and, on the index, the path at its marker)."""
    stage = page.meta.get("_course_stage")
    if stage:
        html_text = _insert_after_title(html_text, small_map(page, stage, files))
    if _START_MARKER in html_text:
        html_text = html_text.replace(_START_MARKER, start_html(page, files))
    if _MAP_MARKER in html_text:
        html_text = html_text.replace(_MAP_MARKER, large_map(page, files))
    if _PATH_MARKER in html_text:
        html_text = html_text.replace(_PATH_MARKER, path_html(page, files))
    return html_text


def _insert_after_title(html_text: str, block: str) -> str:
    m = _H1_END.search(html_text)
    if m is None:
        return block + html_text
    return html_text[: m.end()] + block + html_text[m.end() :]
