"""Byte-identical builds: pin the one date MkDocs writes (sitemap ``lastmod``, the gzip header of
``sitemap.xml.gz``) to the last commit instead of the day of the build.

MkDocs reads ``SOURCE_DATE_EPOCH`` (reproducible-builds.org) for every date it writes. If the builder set it,
it is respected; otherwise the build sets it to the committer time of ``HEAD`` of the project's git work tree,
so a rebuild of the same commit tomorrow gives the same bytes. Outside git nothing is pinned (MkDocs then
uses today's date, which is the only difference two builds of the same sources can show).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

OURS = "TRANSFORMER_SITE_DATE_FROM_GIT"  # marks a SOURCE_DATE_EPOCH we set (refreshed on each build)


def last_commit_epoch(root: Path) -> str | None:
    """Committer time of HEAD in ``root``'s git work tree, in seconds, or None outside git."""
    try:
        result = subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%ct"], capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.SubprocessError):
        return None
    epoch = result.stdout.strip()
    return epoch if result.returncode == 0 and epoch.isdigit() else None


def pin_build_date(root: Path) -> str | None:
    """Set SOURCE_DATE_EPOCH from git unless the builder chose one; returns the epoch in force (or None)."""
    if "SOURCE_DATE_EPOCH" in os.environ and os.environ.get(OURS) != "1":
        return os.environ["SOURCE_DATE_EPOCH"]
    epoch = last_commit_epoch(Path(root))
    if epoch is None:
        os.environ.pop("SOURCE_DATE_EPOCH", None)
        os.environ.pop(OURS, None)
        return None
    os.environ["SOURCE_DATE_EPOCH"] = epoch
    os.environ[OURS] = "1"
    return epoch
