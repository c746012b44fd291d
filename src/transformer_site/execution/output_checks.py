"""What an executed block produced must be publishable; otherwise the block fails (naming page.md:line).

Checked for every executed block (``transformer_site.execution.blocks`` runs every block inside these):

- a figure may not be drawn from NaN data: while a block runs, every figure pyplot creates looks at every
  artist (lines, images, collections, bars, texts) when it is drawn and raises ``NonFiniteFigureError``
  naming the artist.
  ±inf stays allowed (masked attention scores are −∞ by design); NaN under a mask counts too (imshow masks
  NaN itself), so blank a cell by masking a finite value;
- the output may not be empty (a block that prints nothing would publish an empty result tab);
- the output may not show ``nan`` as a value (a table cell or an SVG ``<text>`` that is just ``nan``);
- the output may not exceed ``MAX_OUTPUT_BYTES`` (a runaway print would bloat the page).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import numpy as np

MAX_OUTPUT_BYTES = 2_000_000  # the largest block on the site is a few hundred KB
_NAN_VALUE = re.compile(r"(?:^|[>|])[ \t]*[-+−]?nan[ \t]*(?=$|[<|])", re.IGNORECASE | re.MULTILINE)


class BadOutputError(ValueError):
    """An executed block's output must not be published."""


class NonFiniteFigureError(ValueError):
    """A figure would be drawn from NaN data (matplotlib silently leaves such points out)."""


def check_output(output: str) -> None:
    if not output.strip():
        raise BadOutputError(
            "the block printed nothing: print the table or call show(fig, alt=…) — an empty result would be published"
        )
    size = len(output.encode("utf-8"))
    if size > MAX_OUTPUT_BYTES:
        raise BadOutputError(
            f"the block printed {size / 1e6:.1f} MB (limit {MAX_OUTPUT_BYTES / 1e6:.1f} MB per block): "
            "summarise the data or split the figure"
        )
    found = _NAN_VALUE.search(output)
    if found:
        start = max(0, found.start() - 60)
        raise BadOutputError(f"the output shows nan as a value: …{output[start : found.end() + 20]!r}…")


def _has_nan(values) -> bool:
    if values is None:
        return False
    # Masked entries count too: imshow masks NaN by itself, so a mask cannot tell intent from accident
    # (blank a cell with a mask over a finite value instead).
    try:
        data = np.asarray(np.ma.getdata(values), dtype=float)
    except (TypeError, ValueError):
        return False  # categorical or text data: nothing numeric to check
    return bool(np.isnan(data).any())


def nan_artists(figure) -> list[str]:
    """Descriptions of the artists of ``figure`` that carry NaN data."""
    from matplotlib.collections import Collection
    from matplotlib.image import AxesImage
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle
    from matplotlib.text import Text

    found = []
    for artist in figure.findobj():
        label = f"{type(artist).__name__} {artist.get_label()!r}" if artist.get_label() else type(artist).__name__
        if isinstance(artist, Line2D):
            bad = _has_nan(artist.get_xydata())
        elif isinstance(artist, AxesImage):
            bad = _has_nan(artist.get_array())
        elif isinstance(artist, Collection):
            bad = _has_nan(artist.get_offsets()) or _has_nan(artist.get_array())
        elif isinstance(artist, Rectangle):
            bad = _has_nan([artist.get_x(), artist.get_y(), artist.get_width(), artist.get_height()])
        elif isinstance(artist, Text):
            bad = re.fullmatch(r"\s*[-+−]?nan\s*", artist.get_text(), flags=re.IGNORECASE) is not None
        else:
            continue
        if bad:
            found.append(label)
    return found


_FIGURE_HOOK = "transformer_site.execution.output_checks:watch_figure"


def watch_figure(figure) -> None:
    """A ``figure.hooks`` entry: the figure refuses to be drawn (saved) from NaN data."""
    figure.canvas.mpl_connect("draw_event", _refuse_nan)


def _refuse_nan(event) -> None:
    bad = nan_artists(event.canvas.figure)
    if bad:
        raise NonFiniteFigureError(
            f"the figure has NaN data in {', '.join(bad[:5])}{' …' if len(bad) > 5 else ''}: "
            "matplotlib would silently leave those points out"
        )


@contextlib.contextmanager
def nan_free_figures() -> Iterator[None]:
    """While a block runs, every figure pyplot creates refuses NaN data when it is drawn (saved).

    Through matplotlib's public ``figure.hooks`` setting (each hook is called with every new pyplot figure)
    and its ``draw_event``; ``rc_context`` also gives every block the settings it started with.
    """
    import matplotlib

    with matplotlib.rc_context({"figure.hooks": [*matplotlib.rcParams["figure.hooks"], _FIGURE_HOOK]}):
        yield
