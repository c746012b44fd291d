"""The collector (tests/docs) and the strict build both catch the fixture's wrong literal, at the same place."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tiny_project import build_env, write_tiny_project

from transformer_math import preset_trace
from transformer_site.checked import check, collect, number_ids

pytestmark = pytest.mark.slow  # runs pytest and mkdocs in subprocesses

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "checked_numbers_page.md"
VALUE = float(preset_trace(1).scores[0, 2, 3])
# Independent route to the expected message: f-strings of the trace value.
STALE_MESSAGE = f"docs/page.md:9: quoted +3.524, live {VALUE:+.3f} (s1.scores[0, 2, 3] = {VALUE:.7g}…)"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A tiny project with the site's configuration: the fixture page as docs/page.md."""
    write_tiny_project(tmp_path, FIXTURE.read_text(encoding="utf-8"), {})
    return tmp_path


def test_collector_yields_both_numbers_with_page_line_ids(project):
    numbers = collect([project / "docs"], root=project)
    assert number_ids(numbers) == ["docs/page.md:7", "docs/page.md:9"]  # the fenced one is not read
    right, wrong = (check(n) for n in numbers)
    assert right.ok
    assert wrong.message == STALE_MESSAGE


def _pytest_docs(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, CHECKED_NUMBERS_ROOT=str(project))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/docs/test_checked_numbers.py", *args],
        capture_output=True, text=True, cwd=REPO, env=env,
    )  # fmt: skip


def test_the_collector_itself_catches_a_wrong_literal(project):
    """Run the real doc-value collector over the fixture: one pass, one failure, the exact message."""
    result = _pytest_docs(project, "-v", "-rf")
    assert result.returncode == 1, result.stdout
    assert "test_checked_number[docs/page.md:7] PASSED" in result.stdout
    assert "FAILED tests/docs/test_checked_numbers.py::test_checked_number[docs/page.md:9]" in result.stdout
    assert STALE_MESSAGE in result.stdout.splitlines()
    assert "1 failed, 2 passed" in result.stdout


def _build(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(project / "site")],
        capture_output=True, text=True, cwd=project, env=build_env(),
    )  # fmt: skip


@pytest.mark.build
def test_strict_build_fails_at_the_same_location(project):
    result = _build(project)
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.startswith("ERROR")]
    assert errors[0] == f"ERROR   -  {STALE_MESSAGE}", result.stderr
    assert errors[1].startswith("ERROR   -  build failed: emptied "), result.stderr  # nothing is published
    assert errors[2:] == [
        "ERROR   -  1 problem(s) reported above (each names its page and line); nothing from this build is published"
    ], result.stderr


@pytest.mark.build
def test_strict_build_passes_and_shows_the_literal_only(project):
    page = project / "docs" / "page.md"
    page.write_text(page.read_text(encoding="utf-8").replace("+3.524", f"{VALUE:+.3f}"), encoding="utf-8")
    result = _build(project)
    assert result.returncode == 0, result.stderr
    html = (project / "site" / "page" / "index.html").read_text(encoding="utf-8")
    assert html.count('<span class="checked-number" tabindex="0"') == 2
    assert f'data-value="{VALUE!r}"' in html
    paragraph = re.search(r"<p>正しい値:.*?</p>", html)[0]
    assert re.sub(r"<[^>]+>", "", paragraph).endswith(f"のスコアは {VALUE:+.3f} です。")  # the literal only
    assert "{{ 9.999 = s1.scores[0, 2, 3] }}" in html  # fenced code is left as written


def test_list_and_check_commands(project):
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "transformer_site.checked", *args], capture_output=True, text=True, cwd=project
        )

    listed = run("list")
    assert listed.stdout.splitlines() == [
        f"docs/page.md:7: +3.526 = s1.scores[0, 2, 3] = {VALUE!r}",
        f"docs/page.md:9: +3.524 = s1.scores[0, 2, 3] = {VALUE!r}  STALE → {VALUE:+.3f}",
    ]
    checked = run("check")
    assert (checked.returncode, checked.stdout) == (1, STALE_MESSAGE + "\n")
