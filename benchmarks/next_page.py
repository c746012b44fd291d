"""What following a link to the next lesson costs a phone: the main thread's long tasks from the tap until the
new page has settled.

    .venv/bin/python benchmarks/next_page.py SITE_DIR [SITE_DIR ...] [--runs 3] [--from notes/02-qkv/]

Lighthouse (benchmarks/lighthouse.py) measures a page opened first; a reader then follows the page's "next" link.
Each site is served on 127.0.0.1 as if deployed at ``site_url`` (sitemap.xml rewritten to this server, which
Material's ``navigation.instant`` needs to take over the link, should a build enable it). In Chromium with a
phone's screen (412 × 823, touch) and the CPU slowed 4×, Lighthouse's mobile slowdown, the start page is opened
and left to settle, then the footer's "next" link is tapped. From the tap until three seconds after the new page's
``load``, every long task (over 50 ms) is recorded; the script prints, per site, the medians of:

- blocking: the sum over those tasks of the time beyond 50 ms (Lighthouse's total blocking time, counted from
  the tap rather than from the first paint);
- longest: the longest of them;
- load: seconds from the tap until the new page's ``load`` (or, when it was swapped in without a reload, until
  its title was there and the network idle);

and whether the new page was loaded afresh or swapped in. Sites are measured in turn within each run, so compare
sites of one run; the machine's noise shows as the spread printed beside each median.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import shutil
import statistics
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
PHONE = {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75, "is_mobile": True, "has_touch": True}
SLOWDOWN = 4
SETTLE_MS = 3000
# Long tasks from the start of the document (buffered) and from then on; a page swapped in keeps the observer.
RECORD = """window.__tasks = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) window.__tasks.push([e.startTime, e.duration]);
}).observe({type: "longtask", buffered: true});"""


def site_url() -> str:
    match = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.MULTILINE)
    return match.group(1) if match else ""


def serve(site: Path, deployed_at: str):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if not (deployed_at and self.path.split("?")[0].endswith("/sitemap.xml")):
                return super().do_GET()
            text = Path(self.translate_path(self.path)).read_text(encoding="utf-8")
            body = text.replace(deployed_at, f"http://{self.headers['Host']}/").encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def follow_next(browser, base: str, start: str) -> dict:
    context = browser.new_context(locale="ja-JP", **PHONE)
    context.add_init_script(RECORD)
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
    page.goto(base + start, wait_until="load")
    page.wait_for_timeout(SETTLE_MS)
    link = page.locator("a.md-footer__link--next")
    if not link.count():
        raise SystemExit(f"/{start} has no link to a next page (a.md-footer__link--next)")
    old_title = page.evaluate("document.querySelector('h1').textContent")
    page.evaluate("window.__sameDocument = true")
    tap = page.evaluate("performance.now()")
    began = time.perf_counter()
    link.tap()
    page.wait_for_function("t => document.querySelector('h1') && document.querySelector('h1').textContent !== t",
                           arg=old_title, timeout=60_000)  # fmt: skip
    swapped = page.evaluate("window.__sameDocument === true")
    page.wait_for_load_state("networkidle" if swapped else "load")
    loaded = time.perf_counter() - began
    page.wait_for_timeout(SETTLE_MS)
    tasks = page.evaluate("window.__tasks")
    if swapped:  # the same document: only what came after the tap
        tasks = [task for task in tasks if task[0] >= tap]
    context.close()
    durations = [duration for _, duration in tasks]
    return {
        "blocking": sum(max(0.0, d - 50) for d in durations),
        "longest": max(durations, default=0.0),
        "load": loaded,
        "swapped": swapped,
    }


def median_spread(values: list[float], digits: int) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", type=Path, nargs="+")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--from", dest="start", default="notes/02-qkv/", help="the page whose next link is followed")
    args = parser.parse_args()
    for site in args.sites:
        if not (site / args.start / "index.html").is_file():
            parser.error(f"{site}: no page {args.start} (index.html) in this directory")
    servers = [serve(site, site_url()) for site in args.sites]
    results: list[list[dict]] = [[] for _ in args.sites]
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=FLAGS)
            for run in range(args.runs):
                for k, httpd in enumerate(servers):
                    result = follow_next(browser, f"http://127.0.0.1:{httpd.server_address[1]}/", args.start)
                    results[k].append(result)
                    print(f"  run {run + 1}/{args.runs} site {k}: blocking {result['blocking']:.0f} ms, "
                          f"longest {result['longest']:.0f} ms, load {result['load']:.2f} s", flush=True)  # fmt: skip
            browser.close()
    finally:
        for httpd in servers:
            httpd.shutdown()
    print(f"from /{args.start}, the footer's next link tapped; CPU {SLOWDOWN}× slower; medians of {args.runs} runs")
    print("site  blocking ms        longest ms         load s            the new page")
    for k, rows in enumerate(results):
        kinds = {"swapped in" if row["swapped"] else "loaded afresh" for row in rows}
        print(f"{k:>4}  {median_spread([r['blocking'] for r in rows], 0):18} "
              f"{median_spread([r['longest'] for r in rows], 0):18} "
              f"{median_spread([r['load'] for r in rows], 2):17} {', '.join(sorted(kinds))}")  # fmt: skip
    for k, site in enumerate(args.sites):
        print(f"site {k}: {site}")


if __name__ == "__main__":
    main()
