"""Citations ``[@vaswani2017, §3.5]`` and sourced markers, checked against the numbered entries of §10.

The entries are data of the pages layer (``transformer_pages.notes.references``); this module only reads them:

- ``citation_problem``: a citation names an entry of §10 and, if it has a locator, one the entry lists;
- ``marker_source_problem``: a ``year`` marker says the entry's year; a ``page`` or ``reported`` marker names a
  place the entry lists, and a reported figure is one the entry records there; a ``section`` marker names a
  section of the notes (§0 … §10) or an example sentence;
- ``citation_markdown`` / ``entry_markdown``: what the build writes instead (a link ``[1, §3.5]`` to the entry,
  with the source's heading as its title; on §10 the entry itself, with its anchor and number).
"""

from __future__ import annotations

import html
import posixpath
from decimal import Decimal

from transformer_pages.notes import references as data

REFERENCES_PAGE = "notes/10-references.md"  # relative to docs/


def _known_keys() -> str:
    return ", ".join(r.key for r in data.REFERENCES)


def citation_problem(key: str, locator: str | None) -> str | None:
    """Why ``[@key, locator]`` does not point at something §10 lists, or None."""
    try:
        entry = data.reference(key)
    except KeyError:
        return (
            f"[@{key}] cites no entry of §10 (entries: {_known_keys()}; add one to transformer_pages.notes.references)"
        )
    if locator is not None and locator not in entry.locators:
        listed = ", ".join(entry.locators) or "none"
        return (
            f"[@{key}, {locator}]: §10's entry {key} lists no {locator!r} (it lists: {listed}; add the place, "
            "with its heading in the source, to its locators)"
        )
    return None


def marker_source_problem(literal: str, marker: str, key: str | None, locator: str | None) -> str | None:
    """Why a marker's number is not what its source says, or None (the marker is well-formed already)."""
    if marker == "section":
        return _section_problem(int(literal))
    if marker == "index":
        return None
    problem = citation_problem(key, locator)
    if problem:
        return problem
    entry = data.reference(key)
    if marker == "year":
        if int(literal) != entry.year:
            return f"{{{{ {literal} year @{key} }}}}: §10's entry {key} is from {entry.year}, not {literal}"
        return None
    if marker == "page":
        if locator != f"p. {literal}":
            return f"{{{{ {literal} page @{key}, {locator} }}}}: the page cited is {locator}, not p. {literal}"
        return None
    recorded = entry.figures.get(locator, ())
    if not any(_same_figure(literal, figure) for figure in recorded):
        shown = ", ".join(map(str, recorded)) or "none"
        return (
            f"{{{{ {literal} reported @{key}, {locator} }}}}: §10's entry {key} records no figure {literal} at "
            f"{locator} (it records: {shown})"
        )
    return None


def _same_figure(literal: str, figure: float) -> bool:
    """The literal is the recorded figure, written with as many decimals as the literal shows."""
    from transformer_site.page.formats import literal_value, parse_literal

    fmt = parse_literal(literal)
    return fmt.format(figure) == literal or Decimal(str(literal_value(literal))) == Decimal(str(figure))


def _section_problem(number: int) -> str | None:
    from transformer_math import SENTENCES

    sections = range(0, 11)  # §0 … §10 of the notes
    if number in sections or 1 <= number <= len(SENTENCES):
        return None
    return f"{{{{ {number} section }}}}: the notes have §0 … §10 and {len(SENTENCES)} example sentences, no {number}"


def _relative(from_page: str | None) -> str:
    """The link from the page ``from_page`` (``chapter/01-overview.md``, relative to docs/) to §10."""
    if from_page is None:
        return REFERENCES_PAGE
    if from_page == REFERENCES_PAGE:
        return ""
    return posixpath.relpath(REFERENCES_PAGE, posixpath.dirname(from_page) or ".")


def citation_title(key: str, locator: str | None) -> str:
    entry = data.reference(key)
    where = f" — {locator} {entry.locators[locator]}" if locator else ""
    return f"{entry.short} ({entry.year}) {entry.title}{where}"


def citation_markdown(key: str, locator: str | None, from_page: str | None) -> str:
    """``[\\[1, §3.5\\]](../notes/10-references.md#ref-vaswani2017 "…"){ .citation }``."""
    shown = f"{data.number(key)}, {locator}" if locator else f"{data.number(key)}"
    title = html.escape(citation_title(key, locator), quote=True).replace("\\", "&#92;")
    return f'[\\[{shown}\\]]({_relative(from_page)}#ref-{key} "{title}"){{ .citation }}'


def entry_markdown(key: str) -> str:
    """The entry's line on §10: its anchor, number, authors, year, title, venue and link."""
    entry = data.reference(key)
    return (
        f'<span class="reference-anchor" id="ref-{key}"></span>**[{data.number(key)}]** '
        f"{entry.authors} ({entry.year}). **{entry.title}.** {entry.venue}. [{entry.link_text}]({entry.url})"
    )


def entry_order_problem(keys: list[str]) -> str | None:
    """§10 lists every entry exactly once, in the order of the data (the numbers the citations show)."""
    expected = [r.key for r in data.REFERENCES]
    if keys != expected:
        missing = [k for k in expected if k not in keys]
        extra = [k for k in keys if keys.count(k) > 1 or k not in expected]
        return (
            "the entry lines [@key]: of docs/notes/10-references.md must list every entry of "
            f"transformer_pages.notes.references once, in its order (missing: {missing or 'none'}; "
            f"repeated or unknown: {sorted(set(extra)) or 'none'}; order: {expected})"
        )
    return None
