"""Two clean builds in separate folders are byte-identical; warm rebuilds render only what changed.

The project (every file git tracks or would track) is exported once, committed to a fresh git
repository with a fixed date (the hook pins MkDocs' dates to the last commit: tests/project_export.py), and built
cold there: that is the run's one shared build (tests/conftest.py: ``shared_build``). Its sources are copied to a
folder with another name and depth and built cold again, with another PYTHONHASHSEED, so that set/dict order,
absolute paths, dates and ids would all show up as differences. Then a copy of the first, with its warm cache, is
rebuilt twice: after a prose edit, and after an edit of one src module.
"""

from __future__ import annotations

import datetime as dt
import filecmp
import gzip
import re
import shutil
import struct
from pathlib import Path

import pytest
from project_export import COMMIT_DATE, copy_sources, export, finish, start_build

from transformer_site.execution.blocks import find_executed_blocks
from transformer_site.execution.cache import DependencyGraph
from transformer_site.page import Page

pytestmark = pytest.mark.build

_REPORT = re.compile(
    r"figure cache: (?P<renders>\d+) rendered, (?P<hits>\d+) from cache \([^)]*\); rendered: (?P<ids>.*)"
)


def report(log: str) -> tuple[int, int, list[str]]:
    found = _REPORT.search(log)
    assert found, f"no figure-cache report in the build log:\n{log[-2000:]}"
    ids = [i for i in found["ids"].split(", ") if i]
    return int(found["renders"]), int(found["hits"]), ids


def built(process) -> str:
    code, log = finish(process)
    assert code == 0, log[-3000:]
    return log


@pytest.fixture(scope="module")
def cold(shared_build, tmp_path_factory) -> tuple[Path, Path, str]:
    """(first project, second project, the first build's log): the run's shared build is the first (a strict
    build of an export, hash seed 1); the second is its sources copied to a folder with another name and depth,
    built cold with hash seed 2. With ``SITE_DIR`` there is no shared build, and both are built here."""
    root = tmp_path_factory.mktemp("reproducible")
    if shared_build is None:
        first = export(root / "first")
        first_log = built(start_build(first, "site", "1"))
    else:
        first, first_log = shared_build.project, shared_build.log
    second = copy_sources(first, root / "elsewhere" / "second-copy")
    built(start_build(second, "site", "2"))
    return first, second, first_log


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
        for block in find_executed_blocks(Page.read(page), relative):
            code[block.block_id] = "".join((project / s).read_text(encoding="utf-8") for s in block.snippets)
    return code


def test_warm_rebuilds_render_only_what_changed(cold, tmp_path):
    shared, _, cold_log = cold
    first = tmp_path / "warm"  # a copy with the first build's warm figure cache: the shared build stays as built
    shutil.copytree(shared, first, symlinks=True)
    renders, hits, _ = report(cold_log)
    code = blocks_by_id(first)
    # Cold: each distinct block code renders once (two blocks with the same code share one entry).
    assert renders == len(set(code.values())) and hits < len(code)
    reads_pages = {i for i, c in code.items() if re.search(r"""["']docs["'/]""", c)}

    # 1. Prose edit of one page: nothing renders but blocks whose snippets read the pages themselves.
    page = next(p for p in sorted((first / "docs").rglob("*.md")) if 'exec="on"' in p.read_text(encoding="utf-8"))
    page.write_text(page.read_text(encoding="utf-8") + "\n本文に一文を足しても図は描き直されない。\n", encoding="utf-8")
    renders, hits, ids = report(built(start_build(first, "site-prose", "3")))
    assert set(ids) <= reads_pages, f"a prose edit re-rendered {set(ids) - reads_pages}"
    assert renders == len(ids) and hits > 0

    # 2. Edit of one src module: exactly the blocks whose import closure contains it render again.
    module = "transformer_math.counting"
    path = first / "src" / "transformer_math" / "counting.py"
    # code, not a comment: the figure cache keys on what code means (a comment re-renders nothing)
    path.write_text(path.read_text(encoding="utf-8") + "\n_EDIT_THAT_CHANGES_NO_VALUE = 0\n", encoding="utf-8")
    graph = DependencyGraph(first / "src")
    expected = {i for i, c in code.items() if module in graph.closure(c)}
    renders, _, ids = report(built(start_build(first, "site-src", "4")))
    assert expected, "no block depends on counting: pick another module for this test"
    assert set(ids) == expected and renders == len(expected)
    # The re-rendered blocks give the same bytes, so the whole site is unchanged by that edit — but for the
    # wheel it serves to its notebooks (built from src: a new one, under its new digest, named by the notebooks).
    digests = [next(p.name for p in (first / s / "wheels").iterdir() if p.is_dir()) for s in ("site-prose", "site-src")]
    assert digests[0] != digests[1]
    assert not differing_files(first / "site-prose", first / "site-src", renamed=(digests[0], digests[1]))
