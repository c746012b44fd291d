"""Lighthouse 12's mobile figures for the pages a first visit is most likely to open, as a phone would get them.

The built site is served with gzip, as a static host serves it (text types compressed on the fly at level 6, the
default of nginx; Cache-Control: max-age=600, as GitHub Pages sends), on 127.0.0.1. Lighthouse runs with its
defaults: mobile emulation (a mid-range phone's screen) and simulated throttling (slow 4G, 4× CPU slowdown), the
performance category only. Each page is measured ``--runs`` times and the median of each figure is printed, with
the spread of the score. Several sites are measured together, their runs interleaved page by page, so that a
comparison is not skewed by what else the machine did meanwhile (compare only runs made together).

``--without-search-index`` measures each site a second time, served with its search index
(``search/search_index.json``) answered by 404, so that what the index costs a page can be read off the two rows.
The site fetches the index only when the reader opens search (search-on-demand.js), so the column ``search``
should read "no"; the option is for comparing with builds that fetch it with every page. It is a measurement aid
only: a site served so has a search that finds nothing.

The bar (issue 33): performance ≥ 90, largest contentful paint ≤ 2.5 s, total blocking time ≤ 200 ms.

Usage:
    .venv/bin/python benchmarks/lighthouse.py [SITE_DIR ...] [--runs 3] [--pages index notes/03-attention/ …]
        [--without-search-index] [--keep DIR]
Without a directory the site is built (mkdocs build --strict) into a temporary one first.

Lighthouse: ``$LIGHTHOUSE`` if set (a command line, e.g. ``/tmp/lh/node_modules/.bin/lighthouse``), else
``npx --yes lighthouse@12.2.3``. It needs Node 20 and Debian's chromium (``$CHROME_PATH``, default /usr/bin/chromium);
no browser is downloaded. Exit status 1 if a page of the last site (as published) misses the bar.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("", "notes/03-attention/", "chapter/02-attention-kinds/", "tryit/")
LIGHTHOUSE = "npx --yes lighthouse@12.2.3"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --no-first-run --disable-component-update --disable-sync"
SEARCH_INDEX = "search/search_index.json"
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".ipynb", ".map", ".mjs")
BAR = {"score": 90, "lcp": 2500, "tbt": 200}
# figure name → (Lighthouse audit, what to read from it)
AUDITS = {
    "lcp": "largest-contentful-paint",
    "tbt": "total-blocking-time",
    "cls": "cumulative-layout-shift",
    "fcp": "first-contentful-paint",
    "dom": "dom-size",
    "bytes": "total-byte-weight",
    "main": "mainthread-work-breakdown",
}


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files; a text file is sent gzipped when the client accepts it (compressed once, kept in memory)."""

    cache: typing.ClassVar[dict[Path, bytes]] = {}
    without_search_index = False

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def send_head(self):
        if self.without_search_index and self.path.split("?")[0].endswith("/" + SEARCH_INDEX):
            self.send_error(404)
            return None
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's slash
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        body = self.cache.get(path)
        if body is None:
            body = self.cache[path] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve(site: Path, without_search_index: bool = False) -> tuple[http.server.ThreadingHTTPServer, str]:
    kind = type("Handler", (GzipHandler,), {"without_search_index": without_search_index})
    handler = functools.partial(kind, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def lighthouse(url: str, out: Path) -> dict:
    command = [
        *shlex.split(os.environ.get("LIGHTHOUSE", LIGHTHOUSE)),
        url,
        "--only-categories=performance",
        "--output=json",
        f"--output-path={out}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--quiet",
    ]
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf-8"))


def figures(report: dict) -> dict:
    audits = report["audits"]
    found = {"score": round(100 * (report["categories"]["performance"]["score"] or 0))}
    for name, audit in AUDITS.items():
        found[name] = audits[audit].get("numericValue")
    requests = audits["network-requests"]["details"]["items"]
    found["search"] = any(SEARCH_INDEX in r["url"] and r.get("statusCode") == 200 for r in requests)
    found["requests"] = len(requests)
    return found


ATTEMPTS = 3  # a run that yields no figures (Lighthouse's NO_FCP on a busy machine) is made again, this often


def measure_once(url: str, out: Path) -> dict:
    """The figures of one run; a run without them (the page painted nothing Lighthouse saw) is repeated."""
    for attempt in range(1, ATTEMPTS + 1):
        report = lighthouse(url, out)
        if report["categories"]["performance"]["score"] is not None:
            return figures(report)
        error = report["audits"]["first-contentful-paint"].get("errorMessage", "no score")
        print(f"  {url}: attempt {attempt}/{ATTEMPTS} gave no figures ({error[:80]})", file=sys.stderr)
    raise RuntimeError(f"{url}: Lighthouse gave no figures in {ATTEMPTS} attempts")


def measure(sites: list[tuple[Path, bool]], pages: tuple[str, ...], runs: int, work: Path) -> dict:
    """{(site, page): [figures of each run]}, runs interleaved across sites and pages; a site is (folder, served
    without its search index)."""
    servers = [serve(site, without) for site, without in sites]
    results: dict[tuple[int, str], list[dict]] = {}
    try:
        for run in range(runs):
            for page in pages:
                for n, (_, base) in enumerate(servers):
                    out = work / f"site{n}-{page.strip('/').replace('/', '_') or 'index'}-{run}.json"
                    found = measure_once(base + page, out)
                    results.setdefault((n, page), []).append(found)
                    print(f"  run {run + 1}/{runs} site {n} /{page}: score {found['score']}, "
                          f"LCP {found['lcp'] / 1000:.1f} s, TBT {found['tbt']:.0f} ms", file=sys.stderr)  # fmt: skip
    finally:
        for server, _ in servers:
            server.shutdown()
    return results


def median(runs: list[dict], name: str) -> float:
    return statistics.median(r[name] for r in runs)


def print_table(sites: list[tuple[Path, bool]], pages: tuple[str, ...], results: dict) -> bool:
    """The medians; True when every page of the last site as published (with its search index) meets the bar."""
    met = True
    last = max(n for n, (_, without) in enumerate(sites) if not without)
    header = (f"{'site':>4} {'page':30} {'score':>11} {'LCP s':>6} {'TBT ms':>7} {'CLS':>6} {'FCP s':>6} "
              f"{'DOM':>6} {'KB':>6} {'main s':>7} {'reqs':>5} search  bar")  # fmt: skip
    print(header)
    for n in range(len(sites)):
        for page in pages:
            runs = results[(n, page)]
            scores = sorted(r["score"] for r in runs)
            score = median(runs, "score")
            lcp, tbt = median(runs, "lcp"), median(runs, "tbt")
            ok = score >= BAR["score"] and lcp <= BAR["lcp"] and tbt <= BAR["tbt"]
            if n == last:
                met &= ok
            print(
                f"{n:>4} {('/' + page):30} {score:>4.0f} ({scores[0]}–{scores[-1]}) {lcp / 1000:>6.2f} {tbt:>7.0f} "
                f"{median(runs, 'cls'):>6.3f} {median(runs, 'fcp') / 1000:>6.2f} {median(runs, 'dom'):>6.0f} "
                f"{median(runs, 'bytes') / 1024:>6.0f} {median(runs, 'main') / 1000:>7.2f} "
                f"{median(runs, 'requests'):>5.0f} {'yes' if any(r['search'] for r in runs) else 'no':>6}  "
                f"{'✓' if ok else '✗'}"
            )
    for n, (site, without) in enumerate(sites):
        print(f"site {n}: {site}" + (f" (served with {SEARCH_INDEX} answered by 404)" if without else ""))
    print(f"medians of {len(next(iter(results.values())))} runs; score (lowest–highest); KB: transfer size; "
          f"main: main-thread work; search: the search index came while the page loaded; "
          f"bar: score ≥ {BAR['score']}, LCP ≤ {BAR['lcp'] / 1000} s, TBT ≤ {BAR['tbt']} ms")  # fmt: skip
    return met


def build(site_dir: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site_dir)]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", nargs="*", type=Path, help="built sites (default: build this checkout)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", nargs="+", default=list(PAGES), help="paths inside the site ('' is the index)")
    parser.add_argument("--keep", type=Path, help="keep Lighthouse's JSON reports in this folder")
    parser.add_argument(
        "--without-search-index", action="store_true",
        help=f"also measure each site with {SEARCH_INDEX} answered by 404 (what the index costs)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    pages = tuple("" if p in ("", "/", "index") else p.strip("/") + "/" for p in args.pages)
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        sites = args.sites
        if not sites:
            sites = [Path(tmp) / "site"]
            build(sites[0])
        for site in sites:
            if not (site / "index.html").is_file():
                print(f"{site}: not a built site (no index.html)", file=sys.stderr)
                return 2
        served = [(site, False) for site in sites]
        if args.without_search_index:
            served += [(site, True) for site in sites]
        results = measure(served, pages, args.runs, work)
        return 0 if print_table(served, pages, results) else 1


if __name__ == "__main__":
    sys.exit(main())
