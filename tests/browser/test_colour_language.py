"""One colour language on every page: the same sign has the same hue on every kind of heat table (the notes'
and the chapter's tables, the explorer's tables, the scaled dot-product panel), in light and dark, and a frame
never covers the digits it frames.

Each table says which scale it uses (``data-scale``, ``data-cmap``, written by the figure layer and by the
panels); the colours read here are the ones the browser paints.
"""

from __future__ import annotations

import colorsys

import pytest
from page_scripts import with_helpers
from walk import in_views, probe, readings

from transformer_figures.style import DIVERGING_CMAP, SEQUENTIAL_CMAP

pytestmark = [pytest.mark.browser, pytest.mark.build]

CMAPS = {"diverging": DIVERGING_CMAP, "sequential": SEQUENTIAL_CMAP}
RED, BLUE, YELLOW_GREEN = "red", "blue", "yellow-green"

# [kind, scale, cmap, [vmin, vmax], caption, [value, rgb] of the largest and of the smallest cell] per table
_TABLES = probe("heat-table-colours", views=((1280, "light"), (1280, "dark")), script=with_helpers("""
() => {
  /* helpers */
  const out = [];
  for (const table of document.querySelectorAll("article table.tf-heat")) {
    const kind = table.classList.contains("tm-explorer-table") ? "explorer table"
      : table.dataset.role === "heatmap" ? "panel heatmap" : "heat table";
    const cells = [];
    for (const td of table.querySelectorAll("td")) {
      const value = parseFloat(td.textContent.trim().replace(/\\u2212/g, "-"));
      const colour = rgba(getComputedStyle(td).backgroundColor);
      if (Number.isFinite(value) && colour && colour[3] > 0) cells.push([value, colour.slice(0, 3)]);
    }
    if (!cells.length) continue;
    cells.sort((a, b) => a[0] - b[0]);
    const caption = (table.caption ? table.caption.textContent : "").slice(0, 30);
    const range = [parseFloat(table.dataset.vmin), parseFloat(table.dataset.vmax)];
    out.push([kind, table.dataset.scale || null, table.dataset.cmap || null, range, caption,
              cells[cells.length - 1], cells[0]]);
  }
  return out;
}
"""))


def hue_family(rgb) -> str | None:
    """"red", "blue", "yellow-green" or None (a pale, near-grey colour: near zero on a diverging scale)."""
    h, lightness, s = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    if s < 0.2 or lightness > 0.93:
        return None
    degrees = h * 360
    if degrees >= 330 or degrees <= 30:
        return RED
    if 190 <= degrees <= 260:
        return BLUE
    if 40 <= degrees <= 160:
        return YELLOW_GREEN
    return f"hue {degrees:.0f}°"


def _problems(where: str, table) -> list[str]:
    kind, scale, cmap, (vmin, vmax), caption, (top, top_rgb), (low, low_rgb) = table
    name = f"{where}: {kind} {caption!r}"
    if scale not in CMAPS:
        return [f"{name} does not say its colour scale (data-scale={scale!r})"]
    if cmap != CMAPS[scale]:
        return [f"{name} uses {cmap!r} for a {scale} scale; the site's {scale} scale is {CMAPS[scale]!r}"]
    if not vmax > vmin:
        return [f"{name} does not say the range its colours span (data-vmin={vmin}, data-vmax={vmax})"]
    problems = []
    if scale == "diverging":  # centred at 0: a value beyond 30 % of the half-range is clearly coloured
        if top > 0.3 * vmax and hue_family(top_rgb) != RED:
            problems.append(f"{name}: positive {top} is {hue_family(top_rgb)} {top_rgb}, not red")
        if low < 0.3 * vmin and hue_family(low_rgb) != BLUE:
            problems.append(f"{name}: negative {low} is {hue_family(low_rgb)} {low_rgb}, not blue")
    else:  # a high weight (top 15 % of the scale) is yellow-green; a low one dark
        if top >= vmin + 0.85 * (vmax - vmin) and hue_family(top_rgb) != YELLOW_GREEN:
            problems.append(f"{name}: the high weight {top} is {hue_family(top_rgb)} {top_rgb}, not yellow-green")
        if low <= vmin + 0.15 * (vmax - vmin) and colorsys.rgb_to_hls(*(c / 255 for c in low_rgb))[1] > 0.4:
            problems.append(f"{name}: the low weight {low} is a light colour {low_rgb}, not a dark one")
    return problems


@in_views((1280, "light"), (1280, "dark"))
def test_same_sign_same_hue_on_every_heat_table(page_walk, view):
    problems, seen = [], {}
    # the explorer opens on the weights (sequential); the walk also opens it on a signed stage (diverging)
    for path, tables in readings(page_walk, _TABLES, *view):
        for table in tables:
            kind, scale = table[0], table[1]
            seen[(kind, scale)] = seen.get((kind, scale), 0) + 1
            problems += _problems("/" + path, table)
    print(f"\n{view[1]}: " + ", ".join(f"{n} {kind} ({scale})" for (kind, scale), n in sorted(seen.items())))
    for needed in [("heat table", "diverging"), ("heat table", "sequential"), ("panel heatmap", "sequential")]:
        assert needed in seen, f"no {needed[0]} with a {needed[1]} scale found on any page: {sorted(seen)}"
    for needed in [("explorer table", "diverging"), ("explorer table", "sequential")]:
        assert needed in seen, f"the explorer drew no table with a {needed[1]} scale: {sorted(seen)}"
    assert not problems, "\n".join(problems)


@in_views((1280, "light"))
def test_every_table_of_signed_values_uses_the_diverging_scale(page_walk, view):
    """The home page says signed values are red and blue: a table with a value below 0 (ffn_h dips to about −0.17)
    is on the diverging scale, whatever kind of table it is. The figure layer refuses the other case at build time
    (ColourScale.check_signs), for its drawn heatmaps too; this reads what the pages show."""
    signed, problems = 0, []
    for path, tables in readings(page_walk, _TABLES, *view):
        for kind, scale, _cmap, _range, caption, _top, (low, _rgb) in tables:
            if low < 0:
                signed += 1
                if scale != "diverging":
                    problems.append(f"/{path}: {kind} {caption!r} shows {low} on the {scale} scale")
    assert signed > 20, f"only {signed} tables with signed values found: the probe is not reading the pages"
    assert not problems, "\n".join(problems)


# [caption, cell text, text left/right, frame's inner left/right] of every framed cell whose digits reach into
# its frame (the frame and its white ring take 4 px inside the cell, site.css)
_FRAMES = probe("heat-table-frames", views=((1280, "light"), (390, "light")), reveals=True, script=with_helpers("""
() => {
  /* helpers */
  const FRAME_PX = 4;
  const out = [];
  const framed = document.querySelectorAll(
    "article table.tf-heat td.f, article table.tf-heat td.fd, article table.tf-heat td.c");
  for (const td of framed) {
    reveal(td);
    if (!td.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(td);
    const text = range.getBoundingClientRect(), cell = td.getBoundingClientRect();
    if (!cell.width) continue;
    const left = cell.left + FRAME_PX, right = cell.right - FRAME_PX;
    if (text.left < left - 0.5 || text.right > right + 0.5) {
      const caption = td.closest("table").caption;
      out.push([(caption ? caption.textContent : "").slice(0, 30), td.textContent.trim(),
                text.left, text.right, left, right]);
    }
  }
  return [framed.length, out];
}
"""))


@in_views((1280, "light"), (390, "light"))
def test_a_frame_never_covers_the_digits_it_frames(page_walk, view):
    problems, framed = [], 0
    for path, (count, covered) in readings(page_walk, _FRAMES, *view):
        framed += count
        problems += [f"/{path}: {caption!r} {text!r} spans {a:.1f}–{b:.1f} px, inside the frame {lo:.1f}–{hi:.1f}"
                     for caption, text, a, b, lo, hi in covered]  # fmt: skip
    print(f"\n{framed} framed cells at {view[0]} px")
    assert framed, "no framed cell found on any page"
    assert not problems, "\n".join(problems)
