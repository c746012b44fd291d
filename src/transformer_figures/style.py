"""The house style: one font, one palette, colours that read on Material's light *and* dark palettes.

Text, axes, ticks and spines are drawn in a sentinel colour (:data:`INK`); :func:`transformer_figures.svg.to_svg`
rewrites it to ``currentColor``, so an inline SVG takes the page's text colour and follows the palette toggle.
The figure and axes backgrounds are transparent. Colours that must not follow the page (heatmap cells, the
numbers printed on them) are fixed and chosen to be legible on both palettes.
"""

from __future__ import annotations

import contextlib
import warnings

import matplotlib

matplotlib.use("svg")  # build-time rendering only; never a GUI backend

import matplotlib_fontja
from matplotlib import pyplot as plt

FONT_NAME = matplotlib_fontja.matplotlib_fontja.FONT_NAME  # "IPAexGothic"
FONT_FALLBACKS = "'IPAexGothic', 'IPAexゴシック', 'Hiragino Sans', 'Noto Sans CJK JP', 'Yu Gothic', sans-serif"
"""What the SVG names as font-family: the metrics font first, generic family last."""

INK = "#123456"
"""Sentinel for "the page's text colour"; replaced by ``currentColor`` in the SVG."""

# Heatmap colour map: viridis keeps order visible in greyscale and on both backgrounds.
SEQUENTIAL_CMAP = "viridis"
DIVERGING_CMAP = "RdBu_r"
ACCENT = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")  # mid-luminance: readable on white and on #1e2129

HOUSE_RC: dict[str, object] = {
    "svg.fonttype": "none",  # Japanese stays <text>: searchable, selectable, 2-3x smaller than paths
    "svg.hashsalt": "transformer-anatomy",  # stable marker/clip ids across builds
    "font.family": [FONT_NAME],
    "font.size": 11.0,
    "axes.unicode_minus": True,
    "text.color": INK,
    "axes.labelcolor": INK,
    "axes.edgecolor": INK,
    "axes.titlecolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "xtick.labelcolor": INK,
    "ytick.labelcolor": INK,
    "grid.color": INK,
    "grid.alpha": 0.25,
    "legend.frameon": False,
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.facecolor": "none",
    "savefig.edgecolor": "none",
    "savefig.transparent": True,
    "figure.dpi": 96,
    "axes.prop_cycle": matplotlib.cycler(color=list(ACCENT)),
}


def apply_house_style() -> None:
    """Set the house rcParams. Called on import of :mod:`transformer_figures`; idempotent."""
    matplotlib.rcParams.update(HOUSE_RC)


def new_figure(width_in: float = 6.2, height_in: float = 3.8, nrows: int = 1, ncols: int = 1, **kwargs):
    """``plt.subplots`` in the house style, with constrained layout (labels never clip).

    Material's text column is about 6.2 in (600 px) wide on a desktop; a wider figure is scaled down and its
    9 px cell labels become hard to read, so stay at or below the default width.
    """
    if width_in <= 0 or height_in <= 0:
        raise ValueError(f"width_in and height_in must be positive, got {width_in!r} × {height_in!r}")
    apply_house_style()
    kwargs.setdefault("layout", "constrained")
    return plt.subplots(nrows, ncols, figsize=(width_in, height_in), **kwargs)


class MissingGlyphError(ValueError):
    """A character in a figure has no glyph in the house font: readers would see tofu."""


@contextlib.contextmanager
def raise_on_missing_glyphs(what: str = "figure"):
    """Inside this block matplotlib's ``Glyph … missing from font(s)`` warning raises :class:`MissingGlyphError`.

    MkDocs logs such warnings at INFO, so ``--strict`` would otherwise pass with boxes (tofu) in the figure.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=r"Glyph \d+ .* missing from font")
        try:
            yield
        except UserWarning as exc:
            if "missing from font" not in str(exc):
                raise
            hint = f"Readers would see a box; use a character {FONT_NAME} has."
            raise MissingGlyphError(f"{what}: {exc} {hint}") from None


def text_color_for(rgba) -> str:
    """Black or white, whichever reads better on a cell of colour ``rgba`` (WCAG relative luminance)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(float(c)) for c in rgba[:3])
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if luminance > 0.179 else "#ffffff"


apply_house_style()
