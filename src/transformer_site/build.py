"""One build's state, on one object: what the steps of the pipeline (``transformer_site.pipeline``) read and write.

The adapter (``transformer_site.plugin``) makes a :class:`Build` when a build starts, from the builder's
configuration (:class:`Settings`), and hands it to every step. Nothing about a build is kept anywhere else; what
the builds of one ``mkdocs serve`` know of each other is ``transformer_site.incremental.LOOP``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from transformer_site.checked.verify import display_path
from transformer_site.execution.blocks import BlockRun
from transformer_site.failures import Failures
from transformer_site.incremental import Change
from transformer_site.notebooks.export import NotebookBuild
from transformer_site.notebooks.lab import LabBuild
from transformer_site.page import Page


@dataclass(frozen=True)
class Settings:
    """What a build is configured with (read from ``mkdocs.yml`` by the adapter)."""

    project: Path  # the folder of the configuration file: snippets, src and the caches are found from here
    docs_dir: Path
    site_dir: Path
    site_url: str = ""
    repo_url: str = ""
    use_directory_urls: bool = True
    watch: tuple[str, ...] = ()  # folders whose Python modules a rebuild imports again (``watch:``)


@dataclass
class Build:
    """One build: its settings, what it reported, and each capability's record of what it did."""

    settings: Settings
    failures: Failures
    blocks: BlockRun
    labs: LabBuild
    change: Change | None = None  # what changed since the last good build of a ``mkdocs serve``
    notebooks: NotebookBuild | None = None
    stages: dict[str, str | None] = field(default_factory=dict)  # page → the stage of the block it declares
    rendered: set[str] = field(default_factory=set)  # the URLs of the pages this build rendered
    set_aside: dict[str, list[str]] = field(default_factory=dict)  # page → its figures, while search reads it
    pages: dict[str, Page] = field(default_factory=dict)  # page → its model, read once

    @classmethod
    def start(cls, settings: Settings) -> Build:
        failures = Failures()
        return cls(
            settings, failures, BlockRun.for_build(settings.project, settings.docs_dir, failures),
            LabBuild.for_build(settings.project),
        )  # fmt: skip

    def page(self, uri: str, source: Path) -> Page:
        """The model of the page ``uri`` (relative to docs/), read from ``source`` the first time it is asked for."""
        if uri not in self.pages:
            self.pages[uri] = Page.read(source, display_path(source, self.settings.project))
        return self.pages[uri]

    @property
    def docs(self) -> str:
        """The docs folder's name, as messages name a page (``docs/notes/03-attention.md``)."""
        return self.settings.docs_dir.name
