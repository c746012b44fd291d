"""The heat tables' colour maps as data, for the browser's panels: the same colours, never new ones.

A matplotlib colour map is a lookup table of ``N`` colours; ``ColourScale.rgba`` picks entry
``min(floor(x·N), N − 1)`` for a value scaled to x in [0, 1]. Exporting the table and that rule lets the explorer
colour a cell exactly as :func:`transformer_figures.heat_table` would, with the same black or white ink.
"""

from __future__ import annotations

import numpy as np
from matplotlib import colormaps

from .heat_table import _hex, _needs_white_ink
from .style import DIVERGING_CMAP, SEQUENTIAL_CMAP


def colour_map_data(cmap: str) -> dict:
    """{"name": cmap, "colours": N hex colours, "white_ink": N booleans}: the lookup table of ``cmap`` and the
    ink on each."""
    if cmap not in colormaps:
        raise ValueError(f"cmap must be a matplotlib colour map name, got {cmap!r}")
    colour_map = colormaps[cmap]
    rgba = colour_map(np.arange(colour_map.N))  # integer input: the table's own entries
    return {"name": cmap, "colours": [_hex(c) for c in rgba], "white_ink": [bool(w) for w in _needs_white_ink(rgba)]}


def palette_data() -> dict:
    """The two scales of the site: "diverging" for signed values (centred at 0), "sequential" for weights."""
    return {"diverging": colour_map_data(DIVERGING_CMAP), "sequential": colour_map_data(SEQUENTIAL_CMAP)}
