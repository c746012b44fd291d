"""Figures for the site: matplotlib and HTML heat tables on top of :mod:`transformer_math`, one house style.

A figure is one snippet file ``snippets/<page path>/<name>.py``: it computes what the page is about in the
notes' symbols and ends with one drawing call that prints HTML (markdown-exec passes it through with
``html="on"``; the block id is derived from the page and the snippet, ``notes-03-attention-scores-heatmap``)::

    ```python exec="on" html="on" source="tabbed-right" tabs="ソース|結果"
    --8<-- "snippets/notes/03-attention/scores_heatmap.py"
    ```

    trace = preset_trace(1)
    Q, K = np.swapaxes(trace.Q, 0, 1), np.swapaxes(trace.K, 0, 1)  # (T, h, d_k) → (h, T, d_k)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])  # (h, T, T)

    print(figure_html(head_tables(scores, words, "scores", "{:+.2f}", "{:+.1f}", center=0.0), alt="文1 の scores …"))

The helpers here only draw: they take the arrays a snippet computed. Annotated matrices (every number in its
cell) are heat tables (:func:`heat_table`, :func:`heat_figure`); one figure per tab (per example sentence) is
:func:`figure_tabs`; tables of text are :func:`table_html` and :func:`markdown_table`.

Guarantees: Japanese stays ``<text>`` (font-family list ends in ``sans-serif``, metrics from the bundled
IPAexGothic); a glyph the font lacks raises :class:`MissingGlyphError`; the SVG is byte-identical across
builds; text and axes use ``currentColor`` so they follow Material's light/dark palette; every figure has alt
text (``role="img"``, ``aria-label``, ``<title>``).
"""

from .heat_table import ColourScale, HeatFigure, HeatTable, heat_figure, heat_table
from .html import figure_html, figure_tabs, show, show_tabs, tabs_html
from .plots import format_number, heatmap
from .style import FONT_NAME, INK, MissingGlyphError, apply_house_style, new_figure
from .svg import to_svg
from .tables import markdown_table, table_html

__all__ = [
    "FONT_NAME",
    "INK",
    "ColourScale",
    "HeatFigure",
    "HeatTable",
    "MissingGlyphError",
    "apply_house_style",
    "figure_html",
    "figure_tabs",
    "format_number",
    "heat_figure",
    "heat_table",
    "heatmap",
    "markdown_table",
    "new_figure",
    "show",
    "show_tabs",
    "table_html",
    "tabs_html",
    "to_svg",
]  # fmt: skip
