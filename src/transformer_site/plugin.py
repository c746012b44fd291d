"""The MkDocs adapter: the site's one plugin, and the only module that knows MkDocs' events and objects.

``mkdocs.yml`` lists it last under ``plugins:`` as ``transformer-site`` (the entry point in ``pyproject.toml``).
Its event methods are made from the pipeline's table (``transformer_site.pipeline.PIPELINE``): for each event and
priority the table names, one handler turns MkDocs' arguments into the pipeline's (:class:`FilesSiteMap`,
:class:`FilesView`, ``pipeline.PageText``) and runs the steps in the table's order. A step's ``BuildError``
becomes MkDocs' ``PluginError``. What only MkDocs needs is done here and nowhere else:

- ``on_startup``: how MkDocs runs (``serve``, ``--dirty``) is remembered for the rebuilds
  (``transformer_site.incremental.LOOP``);
- ``on_nav``, ``on_pre_page``: a lab's page is rendered from its executed notebook — mkdocs-jupyter wraps the
  page's ``File`` in a ``NotebookFile`` that does not carry the changed ``abs_src_path`` over (a cached property
  computed anew on the wrapper), and the page's own Markdown is empty for the other plugins (the notebook's JSON
  is not Markdown; its numbers were checked when it was executed);
- ``on_serve``: MkDocs' rebuild loop waits for a build that succeeds, so after a failed rebuild every request
  would wait too. The live-reload server's builder (``server.builder``) is wrapped: when a rebuild fails, every
  page of the last good build, and any other URL (``404.html``), becomes a page listing the errors that reloads
  by itself when a later rebuild succeeds.

``mkdocs serve`` rebuilds in one interpreter and keeps this plugin across rebuilds (MkDocs keeps a plugin that has
``on_startup``), with a new configuration for each: every build gets a new ``Build``, and the steps run from the
pipeline module as it is imported after the rebuild's modules were made fresh, never from a stale one.
"""

from __future__ import annotations

import importlib
import logging
import sys
import types
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent
from mkdocs.structure.files import File, Files
from mkdocs.structure.toc import get_toc
from mkdocs.utils import get_relative_url

from transformer_site import incremental

log = logging.getLogger("mkdocs.plugins.transformer_site")

NAME = "transformer-site"  # under plugins: in mkdocs.yml (the entry point's name)
STAGE_META = "_course_stage"  # in every page's meta (Material's partials test page.meta: the same for every page)


def _pipeline():
    """The pipeline module of this build (imported anew after a rebuild forgot the project's modules)."""
    return importlib.import_module("transformer_site.pipeline")


class FilesSiteMap:
    """The site's pages as MkDocs' files (``transformer_site.page.SiteMap``). ``markdown``: the Markdown file of a
    page that MkDocs renders from another file (a lab, from its executed notebook)."""

    def __init__(self, files: Files, markdown: dict[str, str] | None = None):
        self.files, self.markdown = files, markdown or {}

    def relative_url(self, target: str, from_page: str) -> str | None:
        file, page = self.files.get_file_from_path(target), self.files.get_file_from_path(from_page)
        if file is None:
            return None
        return get_relative_url(file.url, page.url if page is not None else from_page)

    def title(self, target: str) -> str | None:
        file = self.files.get_file_from_path(target)
        return file.page.title if file is not None and file.page is not None and file.page.title else None

    def source(self, target: str) -> Path | None:
        if target in self.markdown:
            return Path(self.markdown[target])
        file = self.files.get_file_from_path(target)
        return Path(file.abs_src_path) if file is not None and file.abs_src_path else None


class FilesView:
    """MkDocs' files while they are gathered (``transformer_site.page.SiteFiles``). ``swapped``: what it renders a
    page from instead of its Markdown (recorded for ``on_nav``), and ``markdown`` that Markdown file."""

    def __init__(self, files: Files, config, swapped: dict[str, str], markdown: dict[str, str]):
        self.files, self.config, self.swapped, self.markdown = files, config, swapped, markdown

    def pages(self) -> list[tuple[str, Path | None]]:
        return [
            (f.src_uri, Path(f.abs_src_path) if f.abs_src_path else None) for f in self.files.documentation_pages()
        ]

    def url(self, uri: str) -> str:
        return self.files.get_file_from_path(uri).url

    def add(self, uri: str, *, content: bytes | None = None, source: Path | None = None) -> None:
        if source is not None:
            self.files.append(File.generated(self.config, uri, abs_src_path=str(source)))
        else:
            self.files.append(File.generated(self.config, uri, content=content))

    def content(self, uri: str) -> bytes:
        return self._file(uri).content_bytes

    def set_content(self, uri: str, content: bytes) -> None:
        self._file(uri).content_bytes = content

    def render_from(self, uri: str, source: Path) -> None:
        file = self._file(uri)
        self.markdown[uri] = file.abs_src_path
        file.abs_src_path = str(source)  # mkdocs-jupyter renders this; src_uri stays the .md
        self.swapped[uri] = str(source)

    def _file(self, uri: str) -> File:
        found = next((f for f in self.files if f.src_uri == uri), None)
        if found is None:
            raise PluginError(f"transformer-site: no file {uri} in this build")
        return found


def _page_text(page, text: str, site: FilesSiteMap | None):
    source = Path(page.file.abs_src_path) if page.file.abs_src_path else None
    return _pipeline().PageText(uri=page.file.src_uri, url=page.url, source=source, text=text, site=site)


def _settings(config):
    from transformer_site.build import Settings

    return Settings(
        project=Path(config.config_file_path).parent,
        docs_dir=Path(config["docs_dir"]),
        site_dir=Path(config["site_dir"]),
        site_url=config.get("site_url") or "",
        repo_url=config.get("repo_url") or "",
        use_directory_urls=config["use_directory_urls"],
        watch=tuple(getattr(config, "watch", None) or []),
    )


def _handler(event: str, when: int):
    """The method that runs the steps of ``event`` at priority ``when``, with MkDocs' arguments translated."""

    def run(self, *args, **kwargs):
        try:
            return self._run(_pipeline(), event, when, *args, **kwargs)
        except Exception as exc:
            failures = sys.modules.get("transformer_site.failures")  # this build's (a rebuild imports it anew)
            if failures is not None and isinstance(exc, failures.BuildError):
                raise PluginError(str(exc)) from None
            raise

    run.mkdocs_priority = when
    run.__name__ = f"_{event}_{when}"
    return run


class SitePlugin(BasePlugin):
    """The site's capabilities, run in the order of ``transformer_site.pipeline.PIPELINE``."""

    def __init__(self) -> None:
        super().__init__()
        self.build = None  # transformer_site.build.Build, made anew on the first config step of every build
        self.config_seen = None  # the configuration of the build self.build belongs to
        self.swapped: dict[str, str] = {}  # lab page → the executed notebook it is rendered from
        self.markdown: dict[str, str] = {}  # lab page → its Markdown file

    def _run(self, pipeline, event: str, when: int, *args, **kwargs):
        steps = pipeline.steps(event, when)
        if event == "config":
            config = args[0]
            if self.config_seen is not config:  # a new build (serve keeps this plugin: it has on_startup)
                self.config_seen, self.swapped, self.markdown, self.build = config, {}, {}, None
                settings = _settings(config)
                change = incremental.fresh_start(
                    incremental.LOOP, settings.project, settings.docs_dir, settings.site_dir, list(settings.watch)
                )
                pipeline = _pipeline()  # the modules of this build, fresh after a rebuild forgot them
                self.build = pipeline.start(settings, change)
                steps = pipeline.steps(event, when)
            jupyter = config.plugins.get("mkdocs-jupyter")
            payload = pipeline.Config(config.mdx_configs, jupyter.config if jupyter is not None else None)
            for step in steps:
                step(self.build, payload)
            return config
        if event == "files":
            files = args[0]
            payload = pipeline.FileList(FilesView(files, kwargs["config"], self.swapped, self.markdown))
            for step in steps:
                step(self.build, payload)
            return files
        if event in ("page_markdown", "page_content"):
            page = _page_text(kwargs["page"], args[0], FilesSiteMap(kwargs["files"], self.markdown))
            for step in steps:
                step(self.build, page)
            if event == "page_markdown":  # the page's stage of the block, for the theme as well
                kwargs["page"].meta[STAGE_META] = self.build.stages.get(page.uri)
            if page.headings is not None:
                kwargs["page"].toc = get_toc(_pipeline().lab.toc_tokens(page.headings))
            return page.text
        if event == "page_context":
            context, mkdocs_page = args[0], kwargs["page"]
            page = _page_text(mkdocs_page, mkdocs_page.content, None)
            for step in steps:
                step(self.build, page)
            mkdocs_page.content = page.text
            return context
        if event == "post_page":  # the page's final HTML, theme and all
            page = _page_text(kwargs["page"], args[0], None)
            for step in steps:
                step(self.build, page)
            return page.text
        if self.build is None:  # the build failed before it started (a bad environment): only the loop learns it
            incremental.LOOP.build_failed()
            return None
        for step in steps:  # pre_build, post_build, build_error: nothing to translate
            step(self.build, None)
        return None

    # --- what only MkDocs needs

    def on_startup(self, *, command: str, dirty: bool) -> None:
        incremental.LOOP.start(command, dirty)

    def on_nav(self, nav, *, config, files):
        """After every on_files: mkdocs-jupyter's wrapper of a lab's File reads the executed notebook too."""
        for uri, source in self.swapped.items():
            file = files.get_file_from_path(uri)
            if file is not None:
                file.abs_src_path = source
        return nav

    def _lab_page_has_no_markdown(self, page, *, config, files):
        if page.file.src_uri in self.swapped:

            def read_source(self, config):
                self.markdown, self.meta = "", {}

            page.read_source = types.MethodType(read_source, page)
        return page

    _lab_page_has_no_markdown.mkdocs_priority = -100  # after mkdocs-jupyter's on_pre_page, which replaced the render
    on_pre_page = _lab_page_has_no_markdown

    def on_serve(self, server, *, config, builder):
        site_dir = Path(config["site_dir"])
        build = server.builder

        def build_or_show_the_error() -> None:
            pages = sorted(site_dir.rglob("*.html")) if site_dir.is_dir() else []
            try:
                build()
            except Exception as exc:
                messages = _messages(exc)
                write_error_pages(site_dir, [p.relative_to(site_dir) for p in pages], messages)
                log.error(
                    f"the build failed; every page of the preview now shows the {len(messages)} message(s) above "
                    "and reloads by itself once a rebuild succeeds"
                )

        server.builder = build_or_show_the_error
        return server


for _event in dict.fromkeys(event for event, _ in _pipeline().moments()):
    _handlers = [_handler(event, when) for event, when in _pipeline().moments() if event == _event]
    setattr(SitePlugin, f"on_{_event}", CombinedEvent(*_handlers))


def _messages(error: Exception) -> list[str]:
    failures = incremental.LOOP.failures
    found = [*(failures.logged() if failures is not None else []), f"{type(error).__name__}: {error}"]
    return list(dict.fromkeys(found))  # in order, each once


def write_error_pages(site_dir: Path, pages: list[Path], messages: list[str]) -> None:
    """The error page at every given page path and as ``404.html`` (what serve answers for any other URL)."""
    from transformer_site.failures import error_page

    for relative in {*pages, Path("404.html"), Path("index.html")}:
        target = site_dir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(error_page(messages, refresh=relative == Path("404.html")), encoding="utf-8")
