"""Build integration: replace each token by what the reader sees, verifying it on the way.

A checked number becomes its literal (in prose a focusable span whose tooltip leads with the number's Japanese
label, then the full-precision value; the expression is one step further, behind a disclosure of the tooltip);
a checked claim becomes its words in the same kind of span (the tooltip says what is computed and that it holds);
a marker becomes its literal; a citation becomes the link ``[1, §3.5]`` to its entry of §10, and an entry line of
§10 the entry itself. The span carries its tooltip as data (``data-label``, ``data-value``, ``data-expr``); the
page's one tooltip is made from them on demand (``docs/assets/javascripts/tooltips.js``).

The ``checked_numbers`` hook's ``on_page_markdown`` calls ``render_checked_numbers``. A stale or broken number
is reported through ``transformer_site.failures`` (an error, shown with ``-q`` too, and the build fails at its
end, with every bad number of every page listed, each as ``page.md:line: …``); the page still renders with
the quoted literal, but is never published.
"""

from __future__ import annotations

import html
import logging
import os
import re
from pathlib import Path

from .formats import full_value
from .syntax import CheckedNumber, find_checked_numbers
from .verify import check, display_path, read_page

log = logging.getLogger("mkdocs.plugins.transformer_site.checked")

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
        shown_value = "成り立たない" if stale else "成り立つ (計算して確かめた)"
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


def source_line_offset(markdown: str, src_path: str | os.PathLike | None) -> int:
    """Lines MkDocs removed above ``markdown`` (front matter), found by re-reading the source file."""
    if src_path is None:  # a generated page has no file
        return 0
    try:
        source = read_page(Path(src_path)).lstrip("\ufeff").replace("\r\n", "\n")
    except OSError:
        return 0
    if markdown and source.endswith(markdown):
        return source[: len(source) - len(markdown)].count("\n")
    return 0


def render_checked_numbers(
    markdown: str,
    src_path: str | os.PathLike,
    root: str | os.PathLike | None = None,
    original: str | None = None,
    page_uri: str | None = None,
) -> str:
    """``markdown`` with every token replaced by what the reader sees; each problem reported as ``page.md:line: …``.

    ``src_path`` is the page's file (line numbers are those of the file, front matter included);
    messages show it relative to ``root`` (default: the working directory). ``original``: the page's
    Markdown as MkDocs read it, if other hooks changed ``markdown`` before (to find the front matter's lines).
    ``page_uri``: the page relative to docs/ (``chapter/01-overview.md``), for the links of citations.
    """
    from transformer_site import failures, references

    path = display_path(src_path, root) if src_path is not None else "<generated page>"
    offset = source_line_offset(markdown if original is None else original, src_path)
    numbers = find_checked_numbers(markdown, path, first_line=1 + offset)
    pieces = []
    pos = 0
    entries = [n.literal for n in numbers if n.kind == "entry" and not n.problem]
    if entries and (problem := references.entry_order_problem(entries)):
        failures.report(f"{path}: {problem}")
    for number in numbers:
        outcome = check(number)
        if not outcome.ok:
            failures.report(outcome.message)
        pieces.append(markdown[pos : number.start])
        if number.kind in ("cite", "entry") and outcome.ok:
            token = markdown[number.start : number.end]
            lead = token[: len(token) - len(token.lstrip())]
            if number.kind == "cite":
                pieces.append(lead + references.citation_markdown(number.literal, number.source, page_uri))
            else:
                pieces.append(lead + references.entry_markdown(number.literal))
        elif number.kind in ("cite", "entry"):
            pieces.append(markdown[number.start : number.end])
        elif number.in_math or number.expression is None or number.problem:
            pieces.append(number.literal if number.in_math else shown_literal(number))
        else:
            pieces.append(_span(number, outcome.value, stale=not outcome.ok))
        pos = number.end
    pieces.append(markdown[pos:])
    return "".join(pieces)
