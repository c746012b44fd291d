"""The site's build in order: every step of every event, in one table (:data:`PIPELINE`).

The builder (MkDocs) runs its events; for each event the adapter (``transformer_site.plugin``) runs the steps
this table lists for it, in the table's order. ``when`` places a step among the other plugins' handlers of the
same event (MkDocs' event priority): ``FIRST`` before them, ``AFTER`` after them (the adapter's plugin comes last
in ``plugins:``), ``LAST`` after everything. A step is a function of the build's state (``transformer_site.build
.Build``) and of what the event carries (:class:`Config`, :class:`FileList`, :class:`PageText`), written in the
site's own terms: the capabilities never see a MkDocs object.

Before any step the adapter makes the build's state (:func:`start`), once a rebuild of ``mkdocs serve`` after a
change of code has forgotten the project's modules (``transformer_site.incremental``): the build imports the
current ``src``, and the environment is valid before anything reads it. Why this order:

- ``config``: the build's state exists before the fence that runs blocks is registered.
- ``files``: a lab is executed before mkdocs-jupyter takes the files (it renders the executed notebook); the
  notebooks come after every page is known, the labs' downloads included.
- ``page_markdown``: executed blocks get their ids first; checked numbers become what the reader sees before the
  questions are read (a question's text shows them as literals, line for line as the source).
- ``page_content``: every step that changes the HTML comes before the figures leave for the search plugin
  (``LAST``), which puts them back after it has indexed the page (``page_context``, ``LAST``).
- ``post_page``: formulas are typeset in the page's final HTML, after the search plugin has read their TeX; a
  panel's data then leaves the page for a file of its own.
- ``post_build``: the search index is merged (a partial rebuild) before it is rewritten for Japanese; the build
  fails at the very end, when every page has reported what is wrong with it.
"""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from transformer_site import environment, incremental
from transformer_site.build import Build, Settings
from transformer_site.checked.render import render_page
from transformer_site.course import glossary
from transformer_site.course import map as course_map
from transformer_site.execution import blocks
from transformer_site.exercises import render as exercises
from transformer_site.failures import BuildError
from transformer_site.notebooks import export as notebooks
from transformer_site.notebooks import lab
from transformer_site.page import Page, SiteFiles, SiteMap
from transformer_site.publishing import api_docs, formulas, linebreaks, panel_data, reproducible, site_dir, tables
from transformer_site.search import japanese, skip

log = logging.getLogger("mkdocs.plugins.transformer_site")

FIRST, AFTER, LAST = 100, 0, -100  # MkDocs' event priorities: before the other plugins, after them, after all

# A build is a batch job with a large, long-lived heap (torch, matplotlib, MkDocs' pages): with Python's default
# thresholds (700, 10, 10) a clean build ran 11 full collections that freed almost nothing, 1.2 s of its CPU
# (1.6 s in all generations, measured with gc.callbacks). A larger young generation keeps the same ratios
# between generations and ran none: 0.5 s in all, for 12 MB more peak memory (367 MB instead of 355 MB).
GC_THRESHOLDS = (10_000, 10, 10)


# ------------------------------------------------------------------------------------------------ what events carry


@dataclass
class Config:
    """The configuration as the steps of ``config`` may change it."""

    markdown: dict  # the Markdown extensions' settings
    renderer: dict | None  # mkdocs-jupyter's settings (None: not configured)


@dataclass
class FileList:
    files: SiteFiles


@dataclass
class PageText:
    """One page while it is built: the text the steps change in turn (Markdown, then HTML), and where it is."""

    uri: str  # relative to docs/: notes/03-attention.md
    url: str  # where it is served: notes/03-attention/
    source: Path | None  # its file (None: a page made by the build)
    text: str
    site: SiteMap
    headings: list[dict] | None = field(default=None)  # set by a step that made the table of contents itself


Step = Callable[..., object]


# ------------------------------------------------------------------------------------------------ the steps


def start(settings: Settings, change: incremental.Change) -> Build:
    """A build's state, made before any step runs (the adapter calls this first, once the modules of a rebuild
    are fresh): the environment is checked first, since the state reads it."""
    gc.set_threshold(*GC_THRESHOLDS)
    problems = environment.problems()
    if problems:
        raise BuildError("environment: " + "; ".join(problems))
    build = Build.start(settings)
    build.change = change
    incremental.LOOP.failures = build.failures
    return build


def configure(build: Build, event: Config) -> None:
    blocks.configure_markdown(event.markdown, build.blocks)
    reproducible.pin_build_date(build.settings.project)
    lab.configure_renderer(build.labs, event.renderer, build.settings.project)


def collect_failures(build: Build, event: Config) -> None:
    build.failures.start_collecting()


def execute_labs(build: Build, event: FileList) -> None:
    settings = build.settings
    lab.execute_labs(build.labs, event.files, build.page, settings.use_directory_urls, build.failures)


def plan_notebooks(build: Build, event: FileList) -> None:
    settings = build.settings
    build.notebooks = notebooks.plan(
        event.files, build.page, settings.project, build.docs, settings.site_url, settings.repo_url,
        build.labs.downloads(),
    )  # fmt: skip


def _model(build: Build, page: PageText) -> Page | None:
    """The page's model; None for a page the build made itself, or one rendered from a notebook (a lab)."""
    if page.source is None or page.uri in build.labs.labs:
        return None
    return build.page(page.uri, page.source)


def register_blocks(build: Build, page: PageText) -> None:
    if (model := _model(build, page)) is not None:
        page.text = blocks.register_page(build.blocks, model, page.text, page.uri)


def render_numbers(build: Build, page: PageText) -> None:
    if (model := _model(build, page)) is not None:
        page.text = render_page(
            model, page.text, model.body_index, page.uri, build.failures, build.blocks.state_baseline()
        )


def render_questions(build: Build, page: PageText) -> None:
    if (model := _model(build, page)) is not None:
        page.text = exercises.render_page(model, page.text, build.failures, build.blocks.state_baseline())


def declare_stage(build: Build, page: PageText) -> None:
    if (model := _model(build, page)) is not None:
        build.stages[page.uri] = course_map.declared_stage(model, page.uri, build.settings.project, build.failures)


def fill_glossary(build: Build, page: PageText) -> None:
    if page.uri == glossary.GLOSSARY_PAGE:
        page.text = glossary.render_glossary_page(page.text, page.uri, build.settings.docs_dir, build.failures)


def draw_course(build: Build, page: PageText) -> None:
    def model(target: str) -> Page | None:
        source = page.site.source(target)
        return build.page(target, source) if source is not None else None

    page.text = course_map.render(page.text, page.uri, build.stages.get(page.uri), page.site, model, build.failures)


def finish_lab(build: Build, page: PageText) -> None:
    settings = build.settings
    page.text, page.headings = lab.finish_page(
        build.labs, page.text, page.uri, page.url, page.site, settings.repo_url, settings.use_directory_urls,
        build.failures,
    )  # fmt: skip


def notebook_button(build: Build, page: PageText) -> None:
    if build.notebooks is not None:
        page.text = notebooks.with_button(page.text, page.uri, page.url, build.notebooks)


def api_tags_as_text(build: Build, page: PageText) -> None:
    page.text = api_docs.tags_as_text(page.text, page.uri)


def join_japanese_lines(build: Build, page: PageText) -> None:
    page.text = linebreaks.join_wide_line_breaks(page.text)


def explain_terms(build: Build, page: PageText) -> None:
    if glossary.wraps_terms_on(page.uri):
        page.text = glossary.wrap_terms(page.text)


def lay_out_tables(build: Build, page: PageText) -> None:
    if "<table>" in page.text:
        model = _model(build, page)
        lines = model.lines if model is not None else ()
        page.text = tables.lay_out_page(page.text, build.failures, f"docs/{page.uri}", lines)


def set_figures_aside(build: Build, page: PageText) -> None:
    page.text, build.set_aside[page.uri] = skip.take_out(page.text, lesson=not page.uri.startswith(skip.CODE_PAGES))


def note_rendered(build: Build, page: PageText) -> None:
    build.rendered.add(page.url)


def put_figures_back(build: Build, page: PageText) -> None:
    page.text = skip.put_back(page.text, build.set_aside.pop(page.uri, []), page.uri)


def typeset_formulas(build: Build, page: PageText) -> None:
    if "arithmatex" in page.text:
        page.text = formulas.typeset_page(page.text, f"docs/{page.uri}", build.failures)


def move_panel_data_out(build: Build, page: PageText) -> None:
    if "data-tm-panel=" in page.text:
        try:
            page.text = panel_data.move_out(page.text, page.url, build.settings.site_dir)
        except ValueError as error:
            raise BuildError(f"docs/{page.uri}: {error}") from None


def _rebuilt(build: Build) -> set[str] | None:
    return incremental.LOOP.rebuilt_only(build.change, build.rendered)


def merge_search_index(build: Build, event: None) -> None:
    """A partial rebuild's search index gets back the entries of the pages it did not render."""
    path = build.settings.site_dir / "search" / "search_index.json"
    if not incremental.LOOP.dirty or not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    merged = incremental.merge_search_index(incremental.LOOP, index, _rebuilt(build))
    if merged is not index:
        path.write_text(json.dumps(merged, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def report_blocks(build: Build, event: None) -> None:
    for line in build.blocks.report():
        log.info(line)


def drop_source_maps(build: Build, event: None) -> None:
    site_dir.drop_source_maps(build.settings.site_dir)


def report_labs(build: Build, event: None) -> None:
    for line in build.labs.report_lines():
        log.info(line)
    build.labs.end()


def search_japanese(build: Build, event: None) -> None:
    japanese.rewrite_site(build.settings.site_dir)


def write_notebooks(build: Build, event: None) -> None:
    if build.notebooks is None or build.failures.reported():
        return  # a failed build publishes nothing: no block runs again to fill a notebook
    notebooks.write(build.notebooks, build.settings.site_dir, build.blocks, _rebuilt(build))


def fail_if_reported(build: Build, event: None) -> None:
    """Any failure reported during the build fails it — also without ``--strict``, and with ``-q`` (which hides
    warnings from strict mode)."""
    reported = build.failures.reported()
    if reported:
        raise BuildError(
            f"{len(reported)} problem(s) reported above (each names its page and line); nothing from this "
            "build is published"
        )


def remember_failure(build: Build, event: None) -> None:
    incremental.LOOP.build_failed()


def end_labs(build: Build, event: None) -> None:
    build.labs.end()


def empty_site(build: Build, event: None) -> None:
    site_dir.empty_after_failure(build.settings.site_dir)


# ------------------------------------------------------------------------------------------------ the order


@dataclass(frozen=True)
class Row:
    event: str  # MkDocs' event, without "on_"
    when: int  # FIRST, AFTER or LAST (MkDocs' priority among the plugins' handlers of the event)
    step: Step
    does: str


PIPELINE: tuple[Row, ...] = (
    Row("config", FIRST, collect_failures, "every warning and error logged from now on is listed on failure"),
    Row("config", AFTER, configure, "python fence and snippets' folder; build date pinned; mkdocs-jupyter checked"),
    Row("files", FIRST, execute_labs, "labs executed (cached); mkdocs-jupyter renders the executed notebooks"),
    Row("files", AFTER, plan_notebooks, "each page's notebook planned; wheel and project files served"),
    Row("page_markdown", AFTER, register_blocks, "executed blocks found, named, their snippets checked"),
    Row("page_markdown", AFTER, render_numbers, "checked numbers, claims, markers, citations verified and shown"),
    Row("page_markdown", AFTER, render_questions, "questions checked against src and shown"),
    Row("page_markdown", AFTER, declare_stage, "the page's stage of the block checked"),
    Row("page_markdown", AFTER, fill_glossary, "the glossary page's list of terms"),
    Row("page_content", AFTER, draw_course, "block map, reading time, other tracks; the index's reading path"),
    Row("page_content", AFTER, finish_lab, "a lab's links, CSS, table of contents and download button"),
    Row("page_content", AFTER, notebook_button, "the notebook's download button under the title"),
    Row("page_content", AFTER, api_tags_as_text, "tags named in docstrings shown as text on the API pages"),
    Row("page_content", AFTER, join_japanese_lines, "no stray space where Japanese source lines wrap"),
    Row("page_content", AFTER, explain_terms, "the first use of each glossary term explained on hover and focus"),
    Row("page_content", AFTER, lay_out_tables, "a table too wide for a phone is turned or stacked there"),
    Row("page_content", LAST, set_figures_aside, "figures (and a lesson's code) aside while search reads the page"),
    Row("page_context", AFTER, note_rendered, "the page is one this build rendered"),
    Row("page_context", LAST, put_figures_back, "figures back in the page, after the search plugin"),
    Row("post_page", AFTER, typeset_formulas, "formulas typeset by KaTeX (the search index keeps their TeX)"),
    Row("post_page", AFTER, move_panel_data_out, "a panel's data in a file of its own, fetched when it starts"),
    Row("post_build", AFTER, merge_search_index, "a partial rebuild's index keeps the other pages' entries"),
    Row("post_build", AFTER, report_blocks, "blocks rendered and from the cache, the slowest"),
    Row("post_build", AFTER, drop_source_maps, "Material's source maps removed"),
    Row("post_build", AFTER, report_labs, "what each lab cost"),
    Row("post_build", AFTER, search_japanese, "search index and worker on character bigrams"),
    Row("post_build", AFTER, write_notebooks, "each page's notebook written with this build's outputs"),
    Row("post_build", LAST, fail_if_reported, "any reported failure fails the build"),
    Row("build_error", AFTER, remember_failure, "the next rebuild of mkdocs serve is whole"),
    Row("build_error", AFTER, empty_site, "nothing of a failed build is published"),
    Row("build_error", AFTER, end_labs, "folders made for the labs removed"),
)


def steps(event: str, when: int) -> list[Step]:
    """The steps of ``event`` at ``when``, in the table's order."""
    return [row.step for row in PIPELINE if row.event == event and row.when == when]


def moments() -> list[tuple[str, int]]:
    """Each (event, when) that has steps, in the table's order."""
    return list(dict.fromkeys((row.event, row.when) for row in PIPELINE))


def table() -> str:
    """The pipeline as a Markdown table (CONTRIBUTING.md holds a copy; a test keeps it equal)."""
    names = {FIRST: "FIRST", AFTER: "AFTER", LAST: "LAST"}
    rows = ["| event | when | step | what it does |", "|---|---|---|---|"]
    rows += [f"| {row.event} | {names[row.when]} | `{row.step.__name__}` | {row.does} |" for row in PIPELINE]
    return "\n".join(rows)
