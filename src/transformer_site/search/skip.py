"""Figures leave the page while Material's search plugin reads it.

Every figure is ``<figure class="tf-figure…" data-search-exclude>`` (transformer_figures.html): its heat-table
cells and SVG labels must not become search text. The search plugin honours the attribute, but only after its
HTML parser has walked every tag inside — about 56,000 tags on this site, a second of a clean build spent
producing nothing. So the figures are swapped for numbered comments once the page's HTML is final
(:func:`take_out`, after every other step of the page's content) and put back as soon as the search plugin has
indexed the page (:func:`put_back`, after the plugin). The index is the same either way
(tests/site/test_search_skip.py).
"""

from __future__ import annotations

import re

from transformer_site.failures import BuildError

_FIGURE = re.compile(r'<figure class="tf-figure[^"]*" data-search-exclude[^>]*>.*?</figure>', re.S)
_PLACEHOLDER = "<!-- tf-search-skip {} -->"
_PLACEHOLDER_PATTERN = re.compile(r"<!-- tf-search-skip (\d+) -->")


def take_out(html: str) -> tuple[str, list[str]]:
    """``html`` with every excluded figure replaced by a placeholder, and the figures in order."""
    figures: list[str] = []

    def stash(match: re.Match) -> str:
        figures.append(match.group(0))
        return _PLACEHOLDER.format(len(figures) - 1)

    return _FIGURE.sub(stash, html), figures


def put_back(html: str, figures: list[str], where: str) -> str:
    """Undo :func:`take_out`; every figure must come back exactly once."""
    found = [int(number) for number in _PLACEHOLDER_PATTERN.findall(html)]
    if sorted(found) != list(range(len(figures))):
        raise BuildError(
            f"search_skip: {where}: {len(figures)} figures were set aside, {len(found)} placeholders remain"
        )
    return _PLACEHOLDER_PATTERN.sub(lambda m: figures[int(m.group(1))], html)
