"""The browser kernel's decoder: time per generated word, in Chromium, on a built site's try-it page.

    .venv/bin/python benchmarks/decoder_kernel.py SITE_DIR [--rounds N]

The page's own ``TransformerKernel.decoder`` (the decoder preset, the code a reader runs) generates in the page:

- per generated word: ``generate`` from <bos> with τ = 1 and seeds 0 … N − 1 (the sampled sentences have 4 to 11
  words), total time over total words; and greedy from each example's first three words (the panel's default
  kind of prompt, 3 words each);
- per step at each context length t = 1 … 12: one ``forward`` of t tokens (the kernel recomputes every position
  at each step; it keeps no K, V cache), so the cost of a word grows with the sentence: the ratio to t = 1 shows
  how;
- what the panel adds: one whole redraw of the generation panel (a knob changed, every step's tables rebuilt).

Times are ``performance.now()`` in the page, each figure the median of ``--rounds`` rounds (default 7) of many
calls, so a busy machine shows as a spread, printed beside each median; compare ratios of one run, not
seconds of different runs.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import statistics
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

MEASURE = """
([rounds]) => {
  const d = window.TransformerKernel.decoder;
  const bos = d.bos;
  const time = (f) => { const t0 = performance.now(); const words = f(); return [performance.now() - t0, words]; };
  const perRound = [];
  for (let r = 0; r < rounds; r++) {
    const row = {};
    // sampling from <bos>, 40 seeds
    let [ms, words] = time(() => {
      let w = 0;
      for (let s = 0; s < 40; s++) w += d.generate([bos], {seed: s}).length - 1;
      return w;
    });
    row.sample = [ms, words];
    // greedy from each example's first three words (ids from the panel's data)
    const template = document.querySelector('[data-tm-panel="generate"] template.tm-panel-data');
    const data = JSON.parse(template.content.textContent);
    const starts = data.prompts.filter(p => p.ids.length === 4).map(p => p.ids);
    [ms, words] = time(() => {
      let w = 0;
      for (let k = 0; k < 5; k++) for (const p of starts) w += d.generate(p, {topK: 1}).length - p.length;
      return w;
    });
    row.greedy = [ms, words];
    // one forward at each length
    row.forward = [];
    for (let t = 1; t <= d.nPositions; t++) {
      const ids = [bos]; for (let i = 1; i < t; i++) ids.push(i % 16);
      const [fms] = time(() => { for (let k = 0; k < 30; k++) d.forward(ids); return 30; });
      row.forward.push(fms / 30);
    }
    // one redraw of the panel: the seed changed, every step redrawn
    const seed = document.querySelector('[data-tm-panel="generate"] [data-role="seed"]');
    const [pms] = time(() => {
      for (let k = 0; k < 10; k++) {
        seed.value = String(k + 1);
        seed.dispatchEvent(new Event("change"));
      }
      return 10;
    });
    row.panel = pms / 10;
    perRound.push(row);
  }
  return perRound;
}
"""


def serve(site: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def median_spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} (min {min(values):.3f}, max {max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    httpd = serve(args.site)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=FLAGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/tryit/", wait_until="networkidle")
            page.locator('[data-tm-panel="generate"]').scroll_into_view_if_needed()  # it starts when near the view
            page.wait_for_selector('[data-tm-panel="generate"][data-tm-ready="1"]')
            rounds = page.evaluate(MEASURE, [args.rounds])
            browser.close()
    finally:
        httpd.shutdown()
    sample = [r["sample"][0] / r["sample"][1] for r in rounds]
    greedy = [r["greedy"][0] / r["greedy"][1] for r in rounds]
    print(f"rounds: {args.rounds}; words per round: sampled from <bos> {rounds[0]['sample'][1]}, "
          f"greedy after three words {rounds[0]['greedy'][1]}")  # fmt: skip
    print(f"ms per generated word, sampled from <bos> (τ = 1, seeds 0-39): {median_spread(sample)}")
    print(f"ms per generated word, greedy after <bos> + three words:      {median_spread(greedy)}")
    lengths = len(rounds[0]["forward"])
    one = statistics.median(r["forward"][0] for r in rounds)
    print("ms per forward (one step) by context length t, and its ratio to t = 1:")
    for t in range(lengths):
        ms = statistics.median(r["forward"][t] for r in rounds)
        print(f"  t = {t + 1:2d}: {ms:.3f} ms  × {ms / one:.2f}")
    print(f"ms per redraw of the generation panel (a seed changed): {median_spread([r['panel'] for r in rounds])}")


if __name__ == "__main__":
    main()
