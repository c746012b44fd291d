"""Shared fixtures for the browser tests that need one built site (search, math, contrast, print):
``shared_server`` (the one strict build of the run, ``shared_site`` in tests/conftest.py, on 127.0.0.1) and
``shared_browser`` (Debian's chromium through Playwright).

Skipped with a reason when chromium or Playwright is missing, unless ``REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
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


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="session")
def shared_server(shared_site: Path):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(shared_site)))
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
