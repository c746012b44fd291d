"""Figures, display formulas and tables on a 390 px phone, over every page of the built site, light and dark.

Every figure fits its column (a hand-placed diagram brings a phone drawing of its own) and none of its text is
rendered under 11 CSS px (the font size a ``<text>`` declares times the scale its SVG is drawn at); every display
formula fits its box, except a matrix, which may scroll with the scroll cue; every table fits its column (a wide
one is turned or stacked on a phone: ``transformer_site.publishing.tables``), except a matrix (a heat table),
which may scroll inside its box with the scroll cue. Measured during the one walk over the site
(``tests/browser/walk.py``).
"""

from __future__ import annotations

from collections import Counter

import pytest
from page_scripts import with_helpers
from walk import in_views, probe, readings

pytestmark = [pytest.mark.browser, pytest.mark.build]

PHONES = ((390, "light"), (390, "dark"))
MIN_TEXT_PX = 11.0

# [label, figure width, column width, smallest text px, that text, scrolls with its cue] for every SVG figure
# shown at this width.
_FIGURES = probe("phone-figures", views=PHONES, reveals=True, script=with_helpers("""
() => {
  /* helpers */
  const out = [];
  for (const svg of document.querySelectorAll("article svg.tf-figure")) {
    reveal(svg);
    if (getComputedStyle(svg).display === "none") continue;  // the other drawing of a pair (site.css)
    const figure = svg.closest("figure");
    const box = svg.getBoundingClientRect();
    const column = figure.parentElement.getBoundingClientRect();
    // a hand-placed diagram (figure_html(phone=False)) scrolls inside its figure instead, with the cue
    const style = getComputedStyle(figure);
    const scrolls = figure.classList.contains("tf-figure-wide") && style.overflowX === "auto"
      && figure.getBoundingClientRect().width <= column.width + 0.5
      && style.backgroundImage.includes("gradient") && style.backgroundAttachment.includes("local");
    let smallest = Infinity, which = "";
    for (const text of svg.querySelectorAll("text")) {
      const m = text.getScreenCTM();
      if (!m || !text.textContent.trim()) continue;
      const px = Math.hypot(m.a, m.b) * parseFloat(getComputedStyle(text).fontSize);
      if (px < smallest) { smallest = px; which = text.textContent.slice(0, 30); }
    }
    out.push([(svg.getAttribute("aria-label") || "").slice(0, 40), box.width, column.width, smallest, which, scrolls]);
  }
  return out;
}
"""))


@in_views(*PHONES)
def test_figures_fit_a_phone_column_with_legible_text(page_walk, view):
    problems, measured, smallest = [], 0, []
    for path, figures in readings(page_walk, _FIGURES, *view):
        for label, width, column, text_px, text, scrolls in figures:
            measured += 1
            smallest.append((text_px, path, label))
            if width > column + 0.5:
                how = "scrolls sideways" if scrolls else "runs past it"
                problems.append(f"/{path}: figure {label!r} is {width:.0f} px wide in a {column:.0f} px column ({how})")
            if text_px < MIN_TEXT_PX:
                problems.append(f"/{path}: figure {label!r} draws {text!r} at {text_px:.1f} px")
    smallest.sort()
    print(f"\n{measured} figures at 390 px; smallest text: "
          + "; ".join(f"{px:.1f} px /{p} {label[:20]}" for px, p, label in smallest[:3]))  # fmt: skip
    assert measured, "no SVG figure found on any page"
    assert not problems, "\n".join(problems)


# [formula start, overflows, scroll cue, is a matrix] for every display formula on the page.
_FORMULAS = probe("phone-formulas", views=PHONES, reveals=True, script=with_helpers(r"""
() => {
  /* helpers */
  return [...document.querySelectorAll("article div.arithmatex")].map(box => {
    reveal(box);
    const style = getComputedStyle(box);
    const cue = style.backgroundImage.includes("gradient") && style.backgroundAttachment.includes("local")
                && style.backgroundAttachment.includes("scroll");
    const tex = (box.querySelector('annotation[encoding="application/x-tex"]') || box).textContent;
    const matrix = /\\begin\{(?:[pbvBV]?matrix|array)\}/.test(tex);
    return [tex.trim().slice(0, 60), box.scrollWidth > box.clientWidth + 1, cue, matrix];
  });
}
"""))


@in_views(*PHONES)
def test_display_formulas_fit_and_only_a_matrix_scrolls_with_its_cue(page_walk, view):
    problems, formulas, wide, matrices = [], 0, 0, 0
    for path, found in readings(page_walk, _FORMULAS, *view):
        for start, overflows, cue, matrix in found:
            formulas += 1
            wide += overflows
            matrices += overflows and matrix
            if overflows and not matrix:
                problems.append(f"/{path}: formula {start!r} is wider than the column (break it at = or +)")
            elif overflows and not cue:
                problems.append(f"/{path}: matrix {start!r} runs past its box with no scroll cue")
    print(f"\n{formulas} display formulas at 390 px ({view[1]}), {wide} wider than their box "
          f"({matrices} of them matrices, which scroll with the cue)")  # fmt: skip
    assert formulas, "no display formula found on any page"
    assert not problems, "\n".join(problems)


# [start of its text, layout, table width, column width, fits the column, scrolls with its cue, cells whose content
# runs past them] for every table of the article. A matrix (a heat table) may be wider than the column inside its
# scroller, if the scroller fits, scrolls and shows the cue (the shadows of a wide formula, and its line of text).
_TABLES = probe("phone-tables", views=PHONES, reveals=True, script=with_helpers(r"""
async () => {
  /* helpers */
  // a table in a closed tab or <details> has a size once revealed: scroll-regions.js then measures the boxes
  // again, as it does when a reader opens one, and marks those that scroll (the cue's line of text needs it)
  const settled = async () => {
    await new Promise(requestAnimationFrame);
    for (let waited = 0; document.documentElement.dataset.scrollRegions === "pending" && waited < 5000; waited += 20) {
      await new Promise(resolve => setTimeout(resolve, 20));
    }
  };
  const WRAPPERS = ".md-typeset__table, .md-typeset__scrollwrap, .tf-heat-scroll";
  const contentBox = el => {
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    const left = r.left + el.clientLeft + parseFloat(s.paddingLeft);
    return [left, left + el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)];
  };
  const out = [];
  for (const table of document.querySelectorAll("article table")) {
    if (!table.getClientRects().length) {
      reveal(table);
      await settled();
    }
    if (getComputedStyle(table).display === "none") continue;
    let box = table.parentElement;
    while (box.matches(WRAPPERS)) box = box.parentElement;
    const [left, right] = contentBox(box);
    const r = table.getBoundingClientRect();
    const within = el => {
      const b = el.getBoundingClientRect();
      return b.left >= left - 0.5 && b.right <= right + 0.5;
    };
    const matrix = table.classList.contains("tf-heat");
    const scroller = matrix && table.closest(".tf-heat-scroll");
    let cue = false;
    if (scroller) {
      const s = getComputedStyle(scroller), after = getComputedStyle(scroller, "::after");
      cue = within(scroller) && ["auto", "scroll"].includes(s.overflowX)
        && s.backgroundImage.includes("gradient") && s.backgroundAttachment.includes("local")
        && s.backgroundAttachment.includes("scroll") && after.content !== "none" && after.display !== "none";
    }
    const spilling = [...table.querySelectorAll("th, td")].filter(c => c.scrollWidth > c.clientWidth + 1
      && getComputedStyle(c).display !== "contents" && !["auto", "scroll"].includes(getComputedStyle(c).overflowX));
    const layout = table.dataset.tmPhone || (matrix ? "matrix" : "as it is");
    const text = (table.caption || table.rows[0] || table).textContent.replace(/\s+/g, " ").trim().slice(0, 40);
    out.push([text, layout, r.width, right - left, within(table), cue,
              spilling.map(c => c.textContent.trim().slice(0, 30))]);
  }
  return out;
}
"""))


@in_views(*PHONES)
def test_tables_fit_a_phone_column_or_scroll_as_matrices_with_the_cue(page_walk, view):
    problems, layouts, pages, scrolling = [], Counter(), set(), 0
    for path, tables in readings(page_walk, _TABLES, *view):
        for text, layout, width, column, fits, cue, spilling in tables:
            layouts[layout] += 1
            pages.add(path)
            if not fits and layout == "matrix" and cue:
                scrolling += 1
            elif not fits:
                how = "with no scroll cue" if layout == "matrix" else f"laid out {layout!r}"
                problems.append(f"/{path}: table {text!r} is {width:.0f} px wide in a {column:.0f} px column ({how})")
            if spilling:
                problems.append(f"/{path}: table {text!r} ({layout}): cells that overflow {spilling[:3]}")
    print(f"\n{sum(layouts.values())} tables on {len(pages)} pages at 390 px ({view[1]}): "
          + ", ".join(f"{n} {layout}" for layout, n in sorted(layouts.items()))
          + f"; {scrolling} matrices wider than the column scroll with the cue")  # fmt: skip
    assert layouts["turn"] and layouts["stack"], f"no table turned or stacked on any page: {dict(layouts)}"
    assert not problems, "\n".join(problems)
