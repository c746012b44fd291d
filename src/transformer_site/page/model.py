"""One page, read once: everything the build, the notebook export, the doc-value tests, the lint, refresh and the
incremental rebuild need to know of it, each with the line where the author wrote it.

:class:`Page` holds the page's text as it is on disk and finds, once each and when first asked:

- ``front_matter``: the YAML block at the top, by MkDocs' rule (a mapping between ``---`` lines; the blank lines
  after it are not part of the page's Markdown either), and where the Markdown the builder converts begins
  (``body_index``);
- ``fences``: the fenced code blocks and the files they include (``transformer_site.page.fences``);
- ``tokens``: checked numbers, claims, exemption markers and citations, and every broken attempt at one
  (``transformer_site.page.tokens``), with ``regions`` — the page split into prose, code, math, … — that they
  were found in;
- ``exercises`` and ``bank``: the question blocks (``transformer_site.page.exercises``), or the first mistake in
  one (``exercise_error``);
- ``admonitions`` (``!!! note "…"`` at the top level) and ``headings`` (``#`` to ``######`` outside code).

Lines are the file's: ``line`` fields count from 1 at the file's first line, front matter included; an index
(``start``, ``end``, ``Fence.start``) counts from 0 over ``lines``.

``SiteMap`` and ``SiteFiles`` are the site as the builder serves it; the adapter (``transformer_site.plugin``)
implements both over MkDocs' files, and the capabilities read them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Protocol

import yaml

from transformer_site.page.exercises import Bank, Exercise, ExerciseError, find_exercises
from transformer_site.page.fences import Fence, find_fences, line_starts
from transformer_site.page.tokens import CheckedNumber, Region, find_checked_numbers, scan

# MkDocs' own rule for the front matter (mkdocs.utils.meta): a YAML mapping between "---" and "---" or "...".
_FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)
_ADMONITION = re.compile(r"^(?P<marker>!!!|\?\?\?\+?)[ \t]+(?P<kind>[\w-]+)(?:[ \t]+\"(?P<title>[^\"]*)\")?[ \t]*$")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.+?)[ \t]*#*[ \t]*$")


@dataclass(frozen=True)
class FrontMatter:
    data: dict  # the YAML mapping ({} when the page has none)
    end: int  # index of the first line after it and the blank lines that follow (0 when there is none)

    def line_of(self, key: str, lines: list[str]) -> int:
        """The line of ``key:`` in the front matter (1 when it is not there)."""
        pattern = re.compile(rf"^{re.escape(key)}\s*:")
        return next((i + 1 for i, text in enumerate(lines[: self.end]) if pattern.match(text)), 1)


@dataclass(frozen=True)
class Admonition:
    line: int
    marker: str  # !!!, ??? or ???+
    kind: str  # note, tip, exercise, …
    title: str | None


@dataclass(frozen=True)
class Heading:
    line: int
    level: int
    text: str


class Page:
    """A page of ``docs/`` (or any Markdown text): ``path`` names it in messages (``docs/notes/03-attention.md``)."""

    def __init__(self, text: str, path: str):
        self.text, self.path = text, path

    @classmethod
    def read(cls, file: str | Path, path: str | None = None) -> Page:
        """The page in ``file``, exactly as on disk (``newline=""`` keeps CRLF: refresh rewrites bytes in place)."""
        with open(file, encoding="utf-8", newline="") as f:
            return cls(f.read(), path or Path(file).as_posix())

    @cached_property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @cached_property
    def _line_starts(self) -> list[int]:
        return line_starts(self.text)

    def line_start(self, index: int) -> int:
        """Offset in ``text`` of the first character of ``lines[index]``."""
        return self._line_starts[index]

    @cached_property
    def front_matter(self) -> FrontMatter:
        found = _FRONT_MATTER.match(self.text.lstrip("\ufeff").replace("\r\n", "\n"))
        if found is None:
            return FrontMatter({}, 0)
        try:
            data = yaml.safe_load(found.group(1))
        except yaml.YAMLError:
            return FrontMatter({}, 0)  # MkDocs then converts the block as Markdown too
        if not isinstance(data, dict):
            return FrontMatter({}, 0)
        end = found.group(0).count("\n")
        while end < len(self.lines) - 1 and not self.lines[end].strip("\r"):
            end += 1  # MkDocs strips the blank lines after the front matter too
        return FrontMatter(data, end)

    @property
    def body_index(self) -> int:
        """Index of the first line of the Markdown the builder converts (after the front matter)."""
        return self.front_matter.end

    @property
    def body_line(self) -> int:
        """The file's line number of that first line."""
        return self.body_index + 1

    @property
    def body(self) -> str:
        return "\n".join(self.lines[self.body_index :])

    @cached_property
    def fences(self) -> list[Fence]:
        """Fenced blocks after the front matter; ``start``/``end`` index ``lines``."""
        return [fence.shifted(self.body_index) for fence in find_fences(self.lines[self.body_index :])]

    @cached_property
    def regions(self) -> list[Region]:
        """The page split into prose, code, math, … (``transformer_site.page.tokens.scan``), with its fences."""
        starts, end = self._line_starts, len(self.text)
        spans = [(starts[f.start], starts[f.end + 1] if f.end + 1 < len(starts) else end) for f in self.fences]
        return scan(self.text, spans)

    @cached_property
    def tokens(self) -> list[CheckedNumber]:
        """Checked numbers and claims, markers, citations, and every broken attempt at one, in page order."""
        return find_checked_numbers(self.text, self.path, regions=self.regions)

    @cached_property
    def _exercises(self) -> tuple[list[Exercise], Bank | None, ExerciseError | None]:
        try:
            code = {index - self.body_index for index in self._code_lines}
            exercises, bank = find_exercises(self.body, self.path, self.body_line, code)
        except ExerciseError as exc:
            return [], None, exc
        return exercises, bank, None

    @property
    def exercises(self) -> list[Exercise]:
        """The question blocks; their ``start``/``end`` index the body's lines (the Markdown the builder converts)."""
        return self._exercises[0]

    @property
    def bank(self) -> Bank | None:
        return self._exercises[1]

    @property
    def exercise_error(self) -> ExerciseError | None:
        """The first mistake in a question block (then ``exercises`` is empty)."""
        return self._exercises[2]

    def _body_matches(self, pattern: re.Pattern) -> Iterator[tuple[int, re.Match]]:
        """(line number, match) of every line of the body outside fenced code that ``pattern`` matches."""
        code = self._code_lines
        for index, text in enumerate(self.lines[self.body_index :], start=self.body_index):
            m = pattern.match(text)
            if m and index not in code:
                yield index + 1, m

    @cached_property
    def admonitions(self) -> list[Admonition]:
        return [Admonition(line, m["marker"], m["kind"], m["title"]) for line, m in self._body_matches(_ADMONITION)]

    @cached_property
    def headings(self) -> list[Heading]:
        return [Heading(line, len(m["hashes"]), m["text"]) for line, m in self._body_matches(_HEADING)]

    @cached_property
    def _code_lines(self) -> set[int]:
        return {index for fence in self.fences for index in range(fence.start, min(fence.end, len(self.lines)) + 1)}

    @property
    def is_lab(self) -> bool:
        """A Jupytext Markdown notebook with a Python kernel (its front matter says so): built as a lab."""
        jupyter = self.front_matter.data.get("jupyter")
        if not isinstance(jupyter, dict) or "jupytext" not in jupyter:
            return False
        kernelspec = jupyter.get("kernelspec")
        return isinstance(kernelspec, dict) and kernelspec.get("language") == "python"


class SiteMap(Protocol):
    """The pages of the site (each named by its path relative to docs/, ``notes/03-attention.md``)."""

    def relative_url(self, target: str, from_page: str) -> str | None:
        """The link from ``from_page`` to the page ``target``; None when ``target`` is no page of the site."""

    def title(self, target: str) -> str | None:
        """The title the builder gave ``target`` (None: not known yet, or no page)."""

    def source(self, target: str) -> Path | None:
        """The file of ``target`` (None: no page)."""


class SiteFiles(Protocol):
    """The files of one build as the builder holds them, while they are gathered."""

    def pages(self) -> list[tuple[str, Path | None]]:
        """Every Markdown page: its path relative to docs/ and its file (None: a page made by the build)."""

    def url(self, uri: str) -> str:
        """The URL path the page ``uri`` is served at (``notes/03-attention/``)."""

    def add(self, uri: str, *, content: bytes | None = None, source: Path | None = None) -> None:
        """Serve ``content``, or the file ``source``, at ``uri``."""

    def content(self, uri: str) -> bytes:
        """What is served at ``uri``."""

    def set_content(self, uri: str, content: bytes) -> None:
        """Serve ``content`` at ``uri`` instead."""

    def render_from(self, uri: str, source: Path) -> None:
        """Render the page ``uri`` from the file ``source`` (its address and links stay the page's)."""
