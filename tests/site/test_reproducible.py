"""Two clean builds in separate folders are byte-identical; warm rebuilds render only what changed.

The project (every file git tracks or would track) is exported once, committed to a fresh git
repository with a fixed date (the hook pins MkDocs' dates to the last commit), and copied to a folder with
another name and depth. Both are built at once, cold (empty figure cache each), with different PYTHONHASHSEEDs, so
that set/dict order, absolute paths, dates and ids would all show up as differences. Then the first copy is
rebuilt twice with its warm cache: after a prose edit, and after an edit of one src module.
"""

from __future__ import annotations

import datetime as dt
import filecmp
import gzip
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from transformer_site.executed import find_executed_blocks
from transformer_site.figure_cache import DependencyGraph

pytestmark = pytest.mark.build

REPO = Path(__file__).resolve().parents[2]
COMMIT_DATE = "2026-01-02T03:04:05+00:00"
_REPORT = re.compile(
    r"figure cache: (?P<renders>\d+) rendered, (?P<hits>\d+) from cache \([^)]*\); rendered: (?P<ids>.*)"
)


def project_files() -> list[str]:
    """Every file of the work tree that git tracks or would track (not .gitignore'd: no caches, no site)."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True,
    ).stdout.decode()  # fmt: skip
    return sorted({name for name in listed.split("\0") if name and (REPO / name).is_file()})


def export(destination: Path) -> Path:
    for name in project_files():
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    env = dict(os.environ, GIT_AUTHOR_DATE=COMMIT_DATE, GIT_COMMITTER_DATE=COMMIT_DATE)
    git = ["git", "-C", str(destination), "-c", "user.name=build", "-c", "user.email=build@example.invalid"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "export"]):
        subprocess.run([*git, *args], check=True, env=env, capture_output=True)
    return destination


def start_build(project: Path, site: str, hash_seed: str) -> subprocess.Popen:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(project / "src"), PYTHONHASHSEED=hash_seed)
    env.pop("SOURCE_DATE_EPOCH", None)
    env.pop("TRANSFORMER_SITE_DATE_FROM_GIT", None)
    env.pop("TRANSFORMER_SITE_NO_EXEC", None)
    env["TRANSFORMER_FIGURE_CACHE"] = str(project / ".cache" / "figures")
    # Not --strict: content pages are written in parallel and may warn; reproducibility is the point here
    # (the strict build is tested by tests/browser and tests/site/test_bad_input_builds.py).
    command = [sys.executable, "-m", "mkdocs", "build", "--no-strict", "-d", str(project / site)]
    return subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(process: subprocess.Popen) -> str:
    log, _ = process.communicate(timeout=1200)
    assert process.returncode == 0, log[-3000:]
    return log


def report(log: str) -> tuple[int, int, list[str]]:
    found = _REPORT.search(log)
    assert found, f"no figure-cache report in the build log:\n{log[-2000:]}"
    ids = [i for i in found["ids"].split(", ") if i]
    return int(found["renders"]), int(found["hits"]), ids


@pytest.fixture(scope="module")
def cold(tmp_path_factory) -> tuple[Path, Path, str]:
    root = tmp_path_factory.mktemp("reproducible")
    # One export, copied: the work tree is shared and may change between two exports.
    first = export(root / "first")
    second = root / "elsewhere" / "second-copy"
    shutil.copytree(first, second, symlinks=True)
    processes = [start_build(first, "site", "1"), start_build(second, "site", "2")]
    logs = [finish(p) for p in processes]
    return first, second, logs[0]


def differing_files(a: Path, b: Path, renamed: tuple[str, str] | None = None) -> list[str]:
    """Files that differ between two sites. ``renamed`` (old, new): a string of ``a`` that is ``new`` in ``b``, in
    paths and contents (the digest of a wheel the site serves); the wheels themselves are then not compared."""
    old, new = renamed or ("", "")
    files_a = sorted(p.relative_to(a).as_posix().replace(old, new) if old else p.relative_to(a).as_posix()
                     for p in a.rglob("*") if p.is_file())  # fmt: skip
    files_b = sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file())
    if files_a != files_b:
        return [f"only in one build: {sorted(set(files_a) ^ set(files_b))[:10]}"]
    problems = []
    for name in files_a:
        source = a / (name.replace(new, old) if old else name)
        if old and name.endswith(".whl"):
            continue  # built from the edited src: a new wheel by design
        if old or not filecmp.cmp(source, b / name, shallow=False):
            x, y = source.read_bytes(), (b / name).read_bytes()
            if old:
                x = x.replace(old.encode(), new.encode())
            if x == y:
                continue
            at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
            problems.append(f"{name} @ byte {at}: {x[max(0, at - 60) : at + 60]!r} vs {y[max(0, at - 60) : at + 60]!r}")
    return problems


def test_two_clean_builds_in_separate_folders_are_byte_identical(cold):
    first, second, _ = cold
    problems = differing_files(first / "site", second / "site")
    assert not problems, "\n".join(problems[:8])
    assert (first / "site" / "index.html").is_file() and (first / "site" / "search" / "search_index.json").is_file()


def test_dates_come_from_the_last_commit_not_the_build_day(cold):
    first, _, _ = cold
    with open(first / "site" / "sitemap.xml.gz", "rb") as f:
        header = f.read(10)
    (mtime,) = struct.unpack("<I", header[4:8])
    commit_day = dt.datetime.fromisoformat(COMMIT_DATE).date()
    assert dt.datetime.fromtimestamp(mtime, dt.UTC).date() == commit_day
    sitemap = gzip.decompress((first / "site" / "sitemap.xml.gz").read_bytes()).decode()
    assert sitemap == (first / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert all(day == commit_day.isoformat() for day in re.findall(r"<lastmod>([^<]*)</lastmod>", sitemap))


def blocks_by_id(project: Path) -> dict[str, str]:
    """Executed block id → the code it runs (its included snippet files), over every page of the copy."""
    code = {}
    for page in sorted((project / "docs").rglob("*.md")):
        relative = page.relative_to(project / "docs").as_posix()  # ids derive from the docs-relative path
        for block in find_executed_blocks(page.read_text(encoding="utf-8"), relative):
            code[block.block_id] = "".join((project / s).read_text(encoding="utf-8") for s in block.snippets)
    return code


def test_warm_rebuilds_render_only_what_changed(cold):
    first, _, cold_log = cold
    renders, hits, _ = report(cold_log)
    code = blocks_by_id(first)
    # Cold: each distinct block code renders once (two blocks with the same code share one entry).
    assert renders == len(set(code.values())) and hits < len(code)
    reads_pages = {i for i, c in code.items() if re.search(r"""["']docs["'/]""", c)}

    # 1. Prose edit of one page: nothing renders but blocks whose snippets read the pages themselves.
    page = next(p for p in sorted((first / "docs").rglob("*.md")) if 'exec="on"' in p.read_text(encoding="utf-8"))
    page.write_text(page.read_text(encoding="utf-8") + "\n本文に一文を足しても図は描き直されない。\n", encoding="utf-8")
    renders, hits, ids = report(finish(start_build(first, "site-prose", "3")))
    assert set(ids) <= reads_pages, f"a prose edit re-rendered {set(ids) - reads_pages}"
    assert renders == len(ids) and hits > 0

    # 2. Edit of one src module: exactly the blocks whose import closure contains it render again.
    module = "transformer_math.counting"
    path = first / "src" / "transformer_math" / "counting.py"
    # code, not a comment: the figure cache keys on what code means (a comment re-renders nothing)
    path.write_text(path.read_text(encoding="utf-8") + "\n_EDIT_THAT_CHANGES_NO_VALUE = 0\n", encoding="utf-8")
    graph = DependencyGraph(first / "src")
    expected = {i for i, c in code.items() if module in graph.closure(c)}
    renders, _, ids = report(finish(start_build(first, "site-src", "4")))
    assert expected, "no block depends on counting: pick another module for this test"
    assert set(ids) == expected and renders == len(expected)
    # The re-rendered blocks give the same bytes, so the whole site is unchanged by that edit — but for the
    # wheel it serves to its notebooks (built from src: a new one, under its new digest, named by the notebooks).
    digests = [next(p.name for p in (first / s / "wheels").iterdir() if p.is_dir()) for s in ("site-prose", "site-src")]
    assert digests[0] != digests[1]
    assert not differing_files(first / "site-prose", first / "site-src", renamed=(digests[0], digests[1]))
