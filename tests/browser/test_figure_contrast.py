"""Every figure is legible in both palettes: the text of every inline SVG figure on every built page, measured in
Debian's chromium with Material's light (default) and dark (slate) palette, at 1280 px, during the one walk over
the site (``tests/browser/walk.py``).

For each ``<text>`` the computed fill (``currentColor`` resolved, fill-opacity and opacity blended) is compared
with what lies under its centre: a filled shape of the figure (heatmap cell, bar, box) if there is one, else the
page background (the nearest ancestor with an opaque background colour); a halo (a stroke painted under
the glyphs) replaces either. WCAG 2 contrast ratio from relative
luminance; axis and label text on the page background needs ≥ 4.5:1, text drawn on a shape ≥ 4.5:1 too.
"""

from __future__ import annotations

import re

import pytest
from page_scripts import with_helpers
from walk import in_views, probe, reading_context, readings

pytestmark = [pytest.mark.browser, pytest.mark.build]

REQUIRED = 4.5

# Returns one record per <text> of every figure: [figure label, text, fg rgba, bg rgba, on a shape?]
WIDE = ((1280, "light"), (1280, "dark"))
_MEASURE = probe("figure-text-contrast", views=WIDE, reveals=True, script=with_helpers("""
() => {
  /* helpers */
  const opacity = el => { let o = 1; for (let e = el; e && e.tagName !== "svg"; e = e.parentElement)
    o *= Number(getComputedStyle(e).opacity); return o; };
  const out = [];
  const figures = [...document.querySelectorAll("article svg.tf-figure")];
  for (const svg of figures) {
    reveal(svg);
    const background = behind(svg.parentElement);
    const label = svg.getAttribute("aria-label") || "";
    for (const text of svg.querySelectorAll("text")) {
      if (!text.textContent.trim()) continue;
      text.scrollIntoView({ block: "center", inline: "center" });
      const box = text.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(text);
      let fg = rgba(style.fill);
      if (!fg) continue;
      fg[3] *= Number(style.fillOpacity) * opacity(text);
      let under = null;
      const hits = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      for (const hit of hits) {
        if (hit === svg || !svg.contains(hit)) break;
        if (["text", "tspan", "g", "title"].includes(hit.tagName)) continue;
        const s = getComputedStyle(hit);
        const fill = rgba(s.fill);
        if (!fill || s.fill === "none") continue;
        fill[3] *= Number(s.fillOpacity) * opacity(hit);
        if (fill[3] === 0) continue;
        under = blend(fill, background);
        break;
      }
      let bg = under || background;
      // a halo (stroke painted under the fill, e.g. in the page colour) is what the glyphs stand on
      const stroke = rgba(style.stroke);
      const halo = style.paintOrder.startsWith("stroke") && stroke && parseFloat(style.strokeWidth) >= 2;
      if (halo) bg = blend(stroke, bg);
      out.push([label.slice(0, 60), text.textContent.trim().slice(0, 30), blend(fg, bg), bg, under !== null]);
    }
  }
  return out;
}
"""))


# Heat tables (transformer_figures.heat_table): every visible text of every table, with what it stands on —
# its cell's own background for a number, else the page background — and the mark colour against the page.
# Returns {texts: [[figure label, text, fg rgba, bg rgba], …], marks: [[figure label, mark rgba, page rgba], …]}.
_MEASURE_TABLES = probe("heat-table-contrast", views=WIDE, reveals=True, script=with_helpers("""
() => {
  /* helpers */
  const texts = [], marks = [];
  for (const figure of document.querySelectorAll("article figure.tf-heat-figure")) {
    reveal(figure);
    const label = (figure.getAttribute("aria-label") || "").slice(0, 60);
    const page = behind(figure);
    const mark = rgba(getComputedStyle(figure).getPropertyValue("--tf-mark").trim().replace(
      /^#(..)(..)(..)$/, (_, r, g, b) => `rgb(${parseInt(r, 16)}, ${parseInt(g, 16)}, ${parseInt(b, 16)})`));
    if (figure.querySelector("td.f, td.fd, td.c, .d")) marks.push([label, mark, page]);
    for (const cell of figure.querySelectorAll("caption, th, td")) {
      if (!cell.textContent.trim() || cell.classList.contains("z")) continue;
      const box = cell.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(cell);
      const bg = behind(cell);
      texts.push([label, cell.textContent.trim().slice(0, 30), blend(rgba(style.color), bg), bg]);
    }
  }
  return { texts, marks };
}
"""))

NON_TEXT_REQUIRED = 3.0  # WCAG 1.4.11: a frame that carries meaning against what surrounds it


def luminance(rgb) -> float:
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg, bg) -> float:
    high, low = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_formula():
    assert contrast([0, 0, 0], [255, 255, 255]) == pytest.approx(21.0)
    assert contrast([119, 119, 119], [255, 255, 255]) == pytest.approx(4.48, abs=0.01)  # #777 on white


@in_views(*WIDE)
def test_figure_text_contrast(page_walk, view):
    scheme = view[1]
    measured, low, figures = 0, [], 0
    worst = (99.0, "")
    for path, records in readings(page_walk, _MEASURE, *view):
        figures += len({r[0] for r in records})
        for label, text, fg, bg, on_shape in records:
            ratio = contrast(fg, bg)
            measured += 1
            where = f"/{path} 「{text}」 in {label!r} ({'on a shape' if on_shape else 'on the page'})"
            worst = min(worst, (ratio, where))
            if ratio < REQUIRED:
                low.append(f"{where}: {ratio:.2f}:1 (fg {fg[:3]}, bg {bg[:3]})")
    print(f"\n{scheme}: {measured} texts in {figures} figures, lowest contrast {worst[0]:.2f}:1 at {worst[1]}")
    assert measured > 0, "no figure text measured: the figures or the selector changed"
    assert not low, f"{len(low)} texts below {REQUIRED}:1 in the {scheme} palette:\n" + "\n".join(low[:40])


@in_views(*WIDE)
def test_heat_table_contrast(page_walk, view):
    scheme = view[1]
    texts, marks = [], []
    for path, measured in readings(page_walk, _MEASURE_TABLES, *view):
        texts += [(path, *record) for record in measured["texts"]]
        marks += [(path, *record) for record in measured["marks"]]
    ratios = [(contrast(fg, bg), f"/{path} 「{text}」 in {label!r}") for path, label, text, fg, bg in texts]
    mark_ratios = [(contrast(mark, bg), f"/{path} marks in {label!r}") for path, label, mark, bg in marks]
    print(f"\n{scheme}: {len(ratios)} heat-table texts, lowest {min(ratios)[0]:.2f}:1 at {min(ratios)[1]}; "
          f"{len(mark_ratios)} marked figures, lowest mark contrast {min(mark_ratios)[0]:.2f}:1")  # fmt: skip
    assert len(ratios) > 1000, "too few heat-table texts measured: the tables or the selector changed"
    low = [f"{where}: {ratio:.2f}:1" for ratio, where in ratios if ratio < REQUIRED]
    assert not low, f"{len(low)} heat-table texts below {REQUIRED}:1 in the {scheme} palette:\n" + "\n".join(low[:40])
    weak = [f"{where}: {ratio:.2f}:1" for ratio, where in mark_ratios if ratio < NON_TEXT_REQUIRED]
    assert not weak, f"frames below {NON_TEXT_REQUIRED}:1 against the {scheme} page:\n" + "\n".join(weak)


def test_scheme_really_switches(shared_browser, shared_server):
    """The two runs above differ: Material applies the slate palette for prefers-color-scheme: dark."""
    schemes = {}
    for scheme in ("light", "dark"):
        context = reading_context(shared_browser, color_scheme=scheme)
        page = context.new_page()
        page.goto(shared_server, wait_until="networkidle")
        page.wait_for_load_state("load")  # network idle may come before the parser ends
        schemes[scheme] = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        context.close()
    assert schemes == {"light": "default", "dark": "slate"}, schemes
    assert re.fullmatch(r"\w+", schemes["dark"])
