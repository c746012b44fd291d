"""Figures, code and the page's furniture leave the page while Material's search plugin reads it.

Every figure is ``<figure class="tf-figure…" data-search-exclude>`` (transformer_figures.html): its heat-table
cells and SVG labels must not become search text. The search plugin honours the attribute, but only after its
HTML parser has walked every tag inside — about 56,000 tags on this site, a second of a clean build spent
producing nothing. So the figures are swapped for numbered comments once the page's HTML is final
(:func:`take_out`, after every other step of the page's content) and put back as soon as the search plugin has
indexed the page (:func:`put_back`, after the plugin). For the figures the index is the same either way
(tests/site/test_search_skip.py).

A search result previews the start of a section's text, so on a lesson page three more things are set aside the
same way and never reach the index: code blocks (the source tabs of executed blocks: a preview shows prose, never
``import numpy as np``), the labels of those tabs (「結果」「ソース」), and the block map with the reading time at
the top of the page. The API reference pages keep their code: it is what they document.
"""

from __future__ import annotations

import re

from transformer_site.failures import BuildError

_FIGURE = r'<figure class="tf-figure[^"]*" data-search-exclude[^>]*>.*?</figure>'
_LESSON_ONLY = (
    r"<pre\b[^>]*>.*?</pre>",  # code
    r'<div class="tabbed-labels">(?:<label for="exec-[^"]*">[^<]*</label>)+</div>',  # an executed block's tabs
    r'<nav class="block-map\b[^"]*"[^>]*>.*?</nav>',  # the block map and the reading time
)
_SET_ASIDE = {True: re.compile("|".join((_FIGURE, *_LESSON_ONLY)), re.S), False: re.compile(_FIGURE, re.S)}
CODE_PAGES = ("reference/api",)  # pages whose code is what they document: the API reference
_PLACEHOLDER = "<!-- tf-search-skip {} -->"
_PLACEHOLDER_PATTERN = re.compile(r"<!-- tf-search-skip (\d+) -->")


def take_out(html: str, lesson: bool = True) -> tuple[str, list[str]]:
    """``html`` with every excluded figure (on a lesson page also code, executed blocks' tab labels and the block
    map) replaced by a placeholder, and what was set aside, in order."""
    figures: list[str] = []

    def stash(match: re.Match) -> str:
        figures.append(match.group(0))
        return _PLACEHOLDER.format(len(figures) - 1)

    return _SET_ASIDE[lesson].sub(stash, html), figures


def put_back(html: str, figures: list[str], where: str) -> str:
    """Undo :func:`take_out`; every figure must come back exactly once."""
    found = [int(number) for number in _PLACEHOLDER_PATTERN.findall(html)]
    if sorted(found) != list(range(len(figures))):
        raise BuildError(
            f"search_skip: {where}: {len(figures)} figures were set aside, {len(found)} placeholders remain"
        )
    return _PLACEHOLDER_PATTERN.sub(lambda m: figures[int(m.group(1))], html)
