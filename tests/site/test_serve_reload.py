"""``mkdocs serve`` picks up an edit in ``src/`` or ``snippets/`` on the next rebuild (no stale imported module),
and a failing rebuild shows the author the error in the browser instead of leaving the tab waiting.

A tiny project whose snippet prints a value from its own package under ``src/``; the test starts
``mkdocs serve``, edits the package, and waits for the page to show the new value.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from tiny_project import write_tiny_project

pytestmark = pytest.mark.build

PAGE = """\
# 再読み込みの確認

この文は、src の値が変わったら次の再ビルドでページも変わることを確かめるためのページです。

```python exec="on" html="on" id="probe-value"
--8<-- "snippets/page/value.py"
```
"""
SNIPPET = 'from probe_values import VALUE\n\nprint(f"<p>value={VALUE}</p>")\n'


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, text: str, process: subprocess.Popen, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"mkdocs serve exited with {process.returncode}: {process.stdout.read()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                last = response.read().decode("utf-8")
            if text in last:
                return
        except OSError:
            pass
        time.sleep(1.0)
    found = [line for line in last.splitlines() if "value=" in line]
    raise AssertionError(f"{url} did not show {text!r} within {timeout:.0f} s; it shows {found}")


def _fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def test_serve_rebuild_sees_edits_in_src_and_snippets(tmp_path):
    package = tmp_path / "src" / "probe_values"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("VALUE = 1\n", encoding="utf-8")
    write_tiny_project(tmp_path, PAGE, {"snippets/page/value.py": SNIPPET})
    snippet = tmp_path / "snippets" / "page" / "value.py"

    port = _free_port()
    env = dict(
        os.environ,
        NO_MKDOCS_2_WARNING="1",
        PYTHONPATH=os.pathsep.join([str(tmp_path / "src"), os.environ.get("PYTHONPATH", "")]),
        TRANSFORMER_FIGURE_CACHE="off",  # this checks module reloading alone; the cache has its own tests
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--strict", "-a", f"127.0.0.1:{port}"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/page/"
    try:
        _wait_for(url, "value=1", process)
        time.sleep(1.5)  # a change within the same second as the first build can be missed by the watcher
        (package / "__init__.py").write_text("VALUE = 2\n", encoding="utf-8")
        _wait_for(url, "value=2", process, timeout=90)
        time.sleep(1.5)
        snippet.write_text(SNIPPET.replace("value=", "value=snippet-"), encoding="utf-8")
        _wait_for(url, "value=snippet-2", process, timeout=90)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def test_a_failing_rebuild_shows_the_error_in_the_browser_and_recovers(tmp_path):
    """Under serve (started from a subfolder), a broken snippet turns every page into the error page — page:line,
    block, snippet — that answers at once and reloads by itself; fixing the snippet brings the page back."""
    write_tiny_project(tmp_path, PAGE, {"snippets/page/value.py": 'print("<p>value=ok</p>")\n'})
    snippet = tmp_path / "snippets" / "page" / "value.py"
    port = _free_port()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", TRANSFORMER_FIGURE_CACHE="off")
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--strict", "-f", "../mkdocs.yml", "-a", f"127.0.0.1:{port}"],
        cwd=tmp_path / "docs", env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/page/"
    try:
        _wait_for(url, "value=ok", process)
        time.sleep(1.5)
        snippet.write_text('raise ValueError("壊れた")\n', encoding="utf-8")
        _wait_for(url, "ビルドが失敗しました", process, timeout=90)
        status, page = _fetch(url)
        assert status == 200
        assert "docs/page.md:5: executed block id=&#x27;probe-value&#x27; (snippet snippets/page/value.py)" in page
        assert "ValueError: 壊れた" in page
        assert "livereload" in page  # mkdocs serve's script: the open tab reloads when a rebuild succeeds
        status, other = _fetch(f"http://127.0.0.1:{port}/no/such/page/")  # any other URL answers at once too
        assert status == 404 and "ビルドが失敗しました" in other
        time.sleep(1.5)
        snippet.write_text('print("<p>value=fixed</p>")\n', encoding="utf-8")
        _wait_for(url, "value=fixed", process, timeout=90)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
