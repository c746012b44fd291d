"""The project exported to a folder of its own and built there: the one build of the site that the whole run shares
(``shared_site`` in tests/conftest.py) is such a build, and tests/site/test_reproducible.py compares it with a
second one.

An export holds every file of the work tree that git tracks or would track (no caches, no built site), committed
to a fresh git repository with a fixed date, so that the dates MkDocs writes (pinned to the last commit by
``transformer_site.publishing.reproducible``) are the same in every export. A build of an export reads only the
export: its own ``src`` (PYTHONPATH), its own figure cache (empty at first: a cold build), and the hash seed it is
given.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMMIT_DATE = "2026-01-02T03:04:05+00:00"
LOG = "build.log"  # what the build printed, next to the project (the figure cache's report is read from it)


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


def copy_sources(project: Path, destination: Path) -> Path:
    """A second copy of an export, without what building it made (its site, figure cache and log)."""
    made = {"site", ".cache", LOG}  # at the top of the project only (tests/site is a source folder)

    def ignore(folder: str, names: list[str]) -> set[str]:
        return made & set(names) if Path(folder) == project else set()

    shutil.copytree(project, destination, symlinks=True, ignore=ignore)
    return destination


def start_build(project: Path, site: str, hash_seed: str, strict: bool = False) -> subprocess.Popen:
    """``mkdocs build`` of ``project`` into ``project/site``, started (read its output with :func:`finish`)."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(project / "src"), PYTHONHASHSEED=hash_seed)
    env.pop("SOURCE_DATE_EPOCH", None)
    env.pop("TRANSFORMER_SITE_DATE_FROM_GIT", None)
    env.pop("TRANSFORMER_SITE_NO_EXEC", None)
    env["TRANSFORMER_FIGURE_CACHE"] = str(project / ".cache" / "figures")
    strictness = "--strict" if strict else "--no-strict"
    command = [sys.executable, "-m", "mkdocs", "build", strictness, "-d", str(project / site)]
    return subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(process: subprocess.Popen) -> tuple[int, str]:
    """(exit code, everything the build printed)."""
    log, _ = process.communicate(timeout=1200)
    return process.returncode, log
