"""Shared fixtures for the browser tests that need one built site (search, math after navigation, contrast,
print): ``shared_site`` (one strict build per run, shared by the workers, or ``SITE_DIR`` = an already built site),
``shared_server`` (that site on 127.0.0.1) and ``shared_browser`` (Debian's chromium through Playwright).

Skipped with a reason when chromium or Playwright is missing, unless ``REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]  # fmt: skip


def skip_or_fail(reason: str):
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_site(tmp_path_factory) -> Path:
    """One strict build of the site for the whole run: the first worker to need it builds it, under a file lock;
    the others wait for it and read the same folder (pytest-xdist workers share the parent of their basetemp)."""
    given = os.environ.get("SITE_DIR")
    if given:
        site_dir = Path(given)
        assert (site_dir / "index.html").is_file(), f"SITE_DIR={given} holds no built site"
        return site_dir
    from filelock import FileLock

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    site_dir, partial, failed = root / "site-shared", root / "site-shared.partial", root / "site-shared.failed"
    with FileLock(root / "site-shared.lock"):
        if failed.is_file():  # another worker's build failed: the same message, not a second build
            pytest.fail(failed.read_text(encoding="utf-8"))
        if not site_dir.is_dir():
            message = build_site(partial)
            if message:
                failed.write_text(message, encoding="utf-8")
                pytest.fail(message)
            partial.rename(site_dir)  # whole or not at all: a reader never sees half a site
    return site_dir


def build_site(site_dir: Path) -> str:
    """``mkdocs build --strict`` into ``site_dir``; the failure's message, or "" once it is built."""
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site_dir)],
        cwd=ROOT, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), capture_output=True, text=True,
    )  # fmt: skip
    if result.returncode != 0:
        return f"mkdocs build --strict failed:\n{result.stderr[-4000:]}"
    print(f"\nshared strict build: {time.perf_counter() - start:.1f} s in {site_dir}")
    return ""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """Serves the built site as if it were deployed at ``site_url``: Material's instant navigation only
    follows links listed in sitemap.xml, whose URLs carry site_url; they are rewritten to this server."""

    site_url = ""

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        if not (self.site_url and self.path.split("?")[0].endswith("/sitemap.xml")):
            return super().do_GET()
        path = Path(self.translate_path(self.path))
        local = f"http://{self.headers['Host']}/"
        body = path.read_text(encoding="utf-8").replace(self.site_url, local).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def site_url() -> str:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    match = re.search(r"^site_url:\s*(\S+)", config, re.MULTILINE)
    return match.group(1) if match else ""


@pytest.fixture(scope="session")
def shared_server(shared_site: Path):
    handler = type("Handler", (_Quiet,), {"site_url": site_url()})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(shared_site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def shared_browser():
    executable = shutil.which("chromium")
    if executable is None:
        skip_or_fail("Debian's chromium is not installed (apt-get install -y chromium fonts-ipaexfont-gothic)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright (Python) is not installed")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def shared_pages(shared_site: Path) -> list[str]:
    return site_pages(shared_site)


def site_pages(site: Path) -> list[str]:
    """URL paths of every content page in the built site (each directory with an index.html), sorted."""
    pages = []
    for index in sorted(site.rglob("index.html")):
        rel = index.parent.relative_to(site).as_posix()
        if rel.startswith(("assets", "search")):
            continue
        pages.append("" if rel == "." else rel + "/")
    return pages


@pytest.fixture(scope="session")
def page_walk(shared_browser, shared_server, shared_pages):
    """Every page, every registered probe run once, in each view a test reads (``tests/browser/walk.py``)."""
    from walk import Walk

    return Walk(shared_browser, shared_server, shared_pages)
