"""Figures for the site: matplotlib on top of :mod:`transformer_math`, one house style, inline SVG.

A figure is one snippet file ``snippets/<page path>/<name>.py`` that computes with ``transformer_math`` and
prints HTML; the page includes it in an executed fence, whose id is derived from the page and the snippet
(``notes-03-attention-scores-heatmap``)::

    ```python exec="on" html="on" source="tabbed-right" tabs="ソース|結果"
    --8<-- "snippets/notes/03-attention/scores_heatmap.py"
    ```

and the snippet ends with :func:`show`::

    from transformer_figures import heatmap, new_figure, show
    from transformer_math import preset_trace

    trace = preset_trace(1)
    fig, axes = new_figure(8.0, 3.6, ncols=2)
    for head, ax in enumerate(axes):
        heatmap(ax, trace.scores[head], words, words, fmt="{:+.2f}", center=0.0, title=f"ヘッド {head}")
    show(fig, alt="文1 の scores のヒートマップ …")

Annotated matrices (every number printed in its cell) are heat tables instead: :func:`heat_table` and
:func:`heat_figure` build HTML tables coloured like ``heatmap``, which :func:`show` prints the same way.

One figure per tab (e.g. per example sentence): build each with :func:`figure_html` and print
``tabs_html({"文1": html1, "文2": html2})``.

Guarantees: Japanese stays ``<text>`` (font-family list ends in ``sans-serif``, metrics from the bundled
IPAexGothic); a glyph the font lacks raises :class:`MissingGlyphError`; the SVG is byte-identical across
builds; text and axes use ``currentColor`` so they follow Material's light/dark palette; every figure has alt
text (``role="img"``, ``aria-label``, ``<title>``).
"""

from .heat_table import ColourScale, HeatFigure, HeatTable, heat_figure, heat_table
from .html import figure_html, show, show_tabs, tabs_html
from .plots import format_number, heatmap
from .style import FONT_NAME, INK, MissingGlyphError, apply_house_style, new_figure
from .svg import to_svg

__all__ = [
    "FONT_NAME",
    "INK",
    "ColourScale",
    "HeatFigure",
    "HeatTable",
    "MissingGlyphError",
    "apply_house_style",
    "figure_html",
    "format_number",
    "heat_figure",
    "heat_table",
    "heatmap",
    "new_figure",
    "show",
    "show_tabs",
    "tabs_html",
    "to_svg",
]  # fmt: skip
