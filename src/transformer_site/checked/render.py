"""Build integration: replace each token by what the reader sees, verifying it on the way.

A checked number becomes its literal (in prose a focusable span whose tooltip leads with the number's Japanese
label, then the full-precision value; the expression is one step further, behind a disclosure of the tooltip);
a checked claim becomes its words in the same kind of span (the tooltip says what is computed and that it holds);
a marker becomes its literal; a citation becomes the link ``[1, §3.5]`` to its entry of §10, and an entry line of
§10 the entry itself. The span carries its tooltip as data (``data-label``, ``data-value``, ``data-expr``); the
page's one tooltip is made from them on demand (``docs/assets/javascripts/tooltips.js``).

The build renders each page's tokens (``Page.tokens``) with :func:`render_page`. A stale or broken number is
reported to the build's ``Failures`` (an error, shown with ``-q`` too, and the build fails at its end, with every
bad number of every page listed, each as ``page.md:line: …``); the page still renders with the quoted literal,
but is never published.
"""

from __future__ import annotations

import html
import logging
import os
import re
from pathlib import Path

from transformer_site.execution.isolation import StateBaseline
from transformer_site.failures import Failures
from transformer_site.page import Page
from transformer_site.page.formats import full_value
from transformer_site.page.tokens import CheckedNumber

from .verify import check, display_path

log = logging.getLogger("mkdocs.plugins.transformer_site.checked")

TEXT = {"claim_holds": "成り立つ (計算して確かめた)", "claim_fails": "成り立たない"}
"""The reader-facing words: what a claim's tooltip says in place of a value."""

# Characters that Markdown (links, emphasis, escapes, tables) or arithmatex ($) would read inside an
# attribute value; as entities they pass through untouched.
_ATTRIBUTE_ESCAPES = {ch: f"&#{ord(ch)};" for ch in "[]()\\|*_`$~^{}"}


def _attribute(text: str) -> str:
    escaped = html.escape(text, quote=True)
    return "".join(_ATTRIBUTE_ESCAPES.get(ch, ch) for ch in escaped)


def shown_literal(number: CheckedNumber) -> str:
    """What the reader sees: the bare literal inside math; in prose HTML with ``10^6`` as a superscript."""
    if number.in_math:
        return number.literal
    text = html.escape(number.literal, quote=False)
    text = re.sub(r"10\^([+\-−]?\d+)", r"10<sup>\1</sup>", text)
    return text.replace("-", "&#45;")  # never read as a list marker or an em-dash by smarty


def _span(number: CheckedNumber, value: int | float | None, stale: bool) -> str:
    from transformer_site.labels import label

    name = label(number.expression, claim=number.kind == "claim") or ""
    if number.kind == "claim":
        shown_value = TEXT["claim_fails"] if stale else TEXT["claim_holds"]
        shown = html.escape(number.literal, quote=False)
        classes = "checked-number checked-claim"
    else:
        shown_value = full_value(value) if value is not None else ""
        shown = shown_literal(number)
        classes = "checked-number"
    classes += " checked-number--stale" if stale else ""
    return (
        f'<span class="{classes}" tabindex="0" data-label="{_attribute(name)}"'
        f' data-value="{_attribute(shown_value)}" data-expr="{_attribute(number.expression)}">{shown}</span>'
    )


def render_page(
    page: Page,
    markdown: str,
    first_index: int,
    page_uri: str | None = None,
    failures: Failures | None = None,
    baseline: StateBaseline | None = None,
) -> str:
    """``markdown`` — the page's lines from ``lines[first_index]`` on, as the builder converts them — with every
    token of the page replaced by what the reader sees; each problem reported as ``page.md:line: …``.

    Tokens stand on one line each, and a step before this one changes only lines without tokens (an executed
    fence gets its id): a token's line that reads otherwise than the page's is reported, not guessed at.
    ``page_uri``: the page relative to docs/ (``chapter/01-overview.md``), for the links of citations;
    ``failures``: where problems are reported (the build's; by default a record of their own, logged as errors);
    ``baseline``: the build's record of the state executed code may not change.
    """
    from transformer_site.checked import references

    failures = Failures() if failures is None else failures
    lines = markdown.split("\n")
    entries = [n.literal for n in page.tokens if n.kind == "entry" and not n.problem]
    if entries and (problem := references.entry_order_problem(entries)):
        failures.report(f"{page.path}: {problem}")
    by_line: dict[int, list[CheckedNumber]] = {}
    for number in page.tokens:
        by_line.setdefault(number.line - 1, []).append(number)
    for index, numbers in by_line.items():
        at = index - first_index
        source = page.lines[index].rstrip("\r")
        if not 0 <= at < len(lines) or lines[at] != source:
            failures.report(f"{page.path}:{index + 1}: the line changed before its checked numbers were read")
            continue
        lines[at] = _rendered_line(source, page.line_start(index), numbers, page_uri, failures, baseline)
    return "\n".join(lines)


def _rendered_line(
    text: str, offset: int, numbers: list[CheckedNumber], page_uri: str | None, failures: Failures,
    baseline: StateBaseline | None,
) -> str:
    """One line (starting at ``offset`` in the page) with its tokens checked and replaced."""
    from transformer_site.checked import references

    pieces = []
    pos = 0
    for number in numbers:
        start, end = number.start - offset, number.end - offset
        outcome = check(number, baseline)
        if not outcome.ok:
            failures.report(outcome.message)
        pieces.append(text[pos:start])
        token = text[start:end]
        if number.kind in ("cite", "entry") and outcome.ok:
            lead = token[: len(token) - len(token.lstrip())]
            if number.kind == "cite":
                pieces.append(lead + references.citation_markdown(number.literal, number.source, page_uri))
            else:
                pieces.append(lead + references.entry_markdown(number.literal))
        elif number.kind in ("cite", "entry"):
            pieces.append(token)
        elif number.in_math or number.expression is None or number.problem:
            pieces.append(number.literal if number.in_math else shown_literal(number))
        else:
            pieces.append(_span(number, outcome.value, stale=not outcome.ok))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def render_checked_numbers(
    markdown: str,
    src_path: str | os.PathLike | None,
    root: str | os.PathLike | None = None,
    page_uri: str | None = None,
    failures: Failures | None = None,
    baseline: StateBaseline | None = None,
) -> str:
    """:func:`render_page` for a text: ``markdown`` is the page in ``src_path`` (or what the builder converts of
    it, after its front matter: line numbers are the file's), or text of its own when the file says otherwise.
    Messages show the file relative to ``root`` (default: the working directory)."""
    path = display_path(src_path, root) if src_path is not None else "<generated page>"
    if src_path is not None and Path(src_path).is_file():
        on_disk = Page.read(src_path, path)
        if on_disk.body.replace("\r\n", "\n") == markdown:
            return render_page(on_disk, markdown, on_disk.body_index, page_uri, failures, baseline)
    return render_page(Page(markdown, path), markdown, 0, page_uri, failures, baseline)
