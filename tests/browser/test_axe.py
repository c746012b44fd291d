"""Accessible by the standard's own test: axe-core (4.14.1, vendored in ``vendor/axe-core``: see its SOURCE.txt)
with its WCAG 2 A and AA rules reports no violation on any built page, at 1280 and 390 px, in Material's light
and dark palette.

axe runs as a probe of the browser walk (``walk.py``), on the visit every other check of the page makes, not on
a second visit of its own. Before it runs every ``<details>`` is opened (answers, folded tables and derivations
are content a reader opens), so their text is judged too. It is the first probe that changes the page, so it
judges the page as it loads (the first tab of each set, scrolled to the top) with its folds open (``first``).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from walk import VIEWS, in_order, in_views, probe, readings

pytestmark = [pytest.mark.browser, pytest.mark.build]

VENDORED = Path(__file__).with_name("vendor") / "axe-core"
AXE_FILE_PATH = VENDORED / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# Content axe cannot judge, each excluded by name:
# - text drawn inside a figure's SVG (<svg class="tf-figure">): axe cannot see what a glyph stands on inside an
#   SVG and reports it "incomplete", never as a pass; test_figure_contrast.py measures every such text against
#   the shape or page under it, in both palettes.
EXCLUDE = [["svg.tf-figure"]]

# [[rule, help, [target selector, …]], …]: axe.run's violations, with the nodes' targets only
_AXE = probe("axe", reveals=True, first=True, add_scripts=(AXE_FILE_PATH,), script="""
async () => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  await new Promise(resolve => setTimeout(resolve, 100));  // Material animates <details>; let the bodies settle
  await document.fonts.ready;
  const options = {runOnly: {type: "tag", values: TAGS}, resultTypes: ["violations"]};
  const results = await axe.run({exclude: EXCLUDE}, options);
  return results.violations.map(v => [v.id, v.help, v.nodes.map(n => n.target.map(String).join(" "))]);
}
""".replace("EXCLUDE", json.dumps(EXCLUDE)).replace("TAGS", json.dumps(TAGS)))


def describe(path: str, violations: list) -> list[str]:
    """One line per rule: page, rule, count of nodes and the first few target selectors."""
    return [f"/{path}: {rule} ×{len(nodes)} ({help_}): " + "; ".join(nodes[:4]) for rule, help_, nodes in violations]


def test_the_vendored_axe_is_the_release_its_source_names():
    """axe.min.js is the file of the npm release SOURCE.txt records, byte for byte (an edit or a half-done
    upgrade would judge the site with another axe than the one named)."""
    source = (VENDORED / "SOURCE.txt").read_text(encoding="utf-8")
    version = re.match(r"axe-core (\S+) ", source)[1]
    recorded = re.search(r"sha256\(package/axe\.min\.js\)\s*=\s*([0-9a-f]{64})", source)[1]
    script = AXE_FILE_PATH.read_bytes()
    assert hashlib.sha256(script).hexdigest() == recorded, f"{AXE_FILE_PATH} is not the file SOURCE.txt records"
    assert script.startswith(f"/*! axe v{version}\n".encode()), f"{AXE_FILE_PATH} does not start as axe {version}"


def test_axe_judges_the_page_before_any_other_probe_changes_it():
    assert next(p.name for p in in_order() if p.reveals) == _AXE


@in_views(*VIEWS)
def test_axe_reports_no_wcag_violation_on_any_page(page_walk, view):
    width, scheme = view
    judged = readings(page_walk, _AXE, width, scheme)
    problems = [line for path, violations in judged for line in describe(path, violations)]
    assert judged, f"axe judged no page at {width} px, {scheme}"
    assert not problems, f"axe-core WCAG 2 A/AA at {width} px, {scheme}:\n" + "\n".join(problems)
