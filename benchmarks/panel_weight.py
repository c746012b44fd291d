"""Weight of every page that carries an interactive panel, and the explorer's time per recompute in Chromium.

Weight: the page's HTML gzipped, plus its panels' data files (the build writes them apart from the page, and a
panel fetches its own as the reader comes near it) and the kernel, the panel script and stylesheet, each gzipped:
what a reader who reaches every panel has fetched. Target: ≤ 400 KB per page, gzipped.
Recompute: the median over 200 changes of a knob of the explorer on the try-it page, from the input event to the
redrawn tables and summary with the layout done (what must fit in one frame, 16.7 ms at 60 Hz); and the time to
redraw a derivation (typeset anew when the slider rests). Needs Debian's chromium and Playwright; without them only
the weight is printed.

Usage: .venv/bin/python benchmarks/panel_weight.py [BUILT_SITE_DIR]
Without a directory the site is built (mkdocs build --strict) into a temporary one first.
Exit status 1 if a page is over the target.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_BYTES = 400 * 1024
ASSETS = ("assets/javascripts/kernel.js", "assets/panels.js", "assets/panels.css")
CHANGES = 200
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip

# In the page: move one knob CHANGES times; each change is timed from dispatching the input event to the end of
# a forced layout (the handler redraws synchronously). Returns the times in ms.
RECOMPUTE = """async ([stage, cell, changes, event]) => {
  const root = document.querySelector('[data-tm-panel="explorer"]');
  const stageSelect = root.querySelector('[data-role="stage"]');
  stageSelect.value = stage;
  stageSelect.dispatchEvent(new Event("change"));
  if (cell) root.querySelector(`button.tm-cell[data-index="${cell}"]`).click();
  const knob = root.querySelector('[data-role="knob"][data-knob="bond0"]');
  const times = [];
  for (let n = 0; n < changes; n++) {
    knob.value = String((n % 80) * 0.05);
    const start = performance.now();
    knob.dispatchEvent(new Event(event));
    document.body.getBoundingClientRect();  // force the layout of what was redrawn
    times.push(performance.now() - start);
    await new Promise(r => requestAnimationFrame(r));
  }
  return times;
}"""
DATA = re.compile(rb'<template class="tm-[a-z]+-data" data-search-exclude data-src="([^"]+)"></template>')


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def build(site_dir: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site_dir)]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)


def report(site_dir: Path) -> int:
    assets = sum(gz((site_dir / a).read_bytes()) for a in ASSETS)
    pages = sorted(p for p in site_dir.rglob("*.html") if b"data-tm-panel=" in p.read_bytes())
    if not pages:
        print(f"no page in {site_dir} carries a panel (data-tm-panel)")
        return 1
    print(f"{'page':40} {'panels':>6} {'HTML':>10} {'HTML gz':>10} {'data gz':>10} {'+js/css gz':>11} {'total gz':>10}")
    worst = 0
    for page in pages:
        html = page.read_bytes()
        n_panels = html.count(b"data-tm-panel=")
        files = {(page.parent / src.decode()).resolve() for src in DATA.findall(html)}  # a shared file comes once
        data = sum(gz(file.read_bytes()) for file in files)
        total = gz(html) + data + assets
        worst = max(worst, total)
        name = str(page.relative_to(site_dir))
        print(f"{name:40} {n_panels:>6} {len(html) / 1024:>8.1f} K {gz(html) / 1024:>8.1f} K "
              f"{data / 1024:>8.1f} K {assets / 1024:>9.1f} K {total / 1024:>8.1f} K")  # fmt: skip
    verdict = "within" if worst <= TARGET_BYTES else "OVER"
    print(f"heaviest panel page: {worst / 1024:.1f} KB gzipped, {verdict} the {TARGET_BYTES // 1024} KB target")
    return 0 if worst <= TARGET_BYTES else 1


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def recompute_times(site_dir: Path) -> None:
    """Print the median time per recompute of the explorer (and the slowest), in Chromium."""
    executable = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        executable = None
    if executable is None:
        print("recompute: skipped (needs Debian's chromium and playwright)")
        return
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site_dir)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/tryit/", wait_until="networkidle")
            page.locator('[data-tm-panel="explorer"]').scroll_into_view_if_needed()  # it starts when near the view
            page.wait_for_selector('[data-tm-panel="explorer"][data-tm-ready="1"]')
            for stage, cell, event, what in (
                ("attn", None, "input", "tables + summary, attn (2 heads × 5 × 5)"),
                ("ffn_h", "3,12", "input", "tables + summary, ffn_h (5 × 32), a cell selected"),
                ("ln1_out", "3,0", "change", "tables + summary + derivation of ln1_out[3,0], slider released"),
            ):
                times = page.evaluate(RECOMPUTE, [stage, cell, CHANGES, event])
                print(f"recompute, {what}: median {statistics.median(times):.2f} ms, slowest {max(times):.2f} ms "
                      f"over {len(times)} changes")  # fmt: skip
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        site_dir = Path(argv[1])
        if not (site_dir / "index.html").is_file():
            raise SystemExit(f"BUILT_SITE_DIR must be a built site (with index.html), got {site_dir}")
        status = report(site_dir)
        recompute_times(site_dir)
        return status
    with tempfile.TemporaryDirectory(prefix="panel-weight-") as tmp:
        build(Path(tmp))
        status = report(Path(tmp))
        recompute_times(Path(tmp))
        return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
