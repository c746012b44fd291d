"""The wheel the site serves, so that a downloaded notebook installs exactly the project the site was built from.

Why a wheel built with the site (and not ``pip install git+https://…@commit``): a reader's machine needs only
Python, pip and the network — no git, no build tools, no access to the repository; the wheel is the very tree
the pages were computed from (a preview of uncommitted edits included), it exists as soon as the site does, a
copy of the site serves it offline, and nothing else has to be published or kept in step.

:func:`project_wheel` builds it with setuptools' own PEP 517 hook (``setuptools.build_meta.build_wheel``, the
backend ``pyproject.toml`` names) from a clean copy of ``pyproject.toml``, ``README.md``, ``LICENSE`` and
``src/`` — so the work tree gets no ``build/`` or ``*.egg-info`` — in a subprocess, without build isolation
(the installed setuptools is used; nothing is downloaded). It is cached under ``.cache/wheels/<digest>/`` on
the SHA-256 of those inputs, so a warm build reuses it (building takes under a second). The site serves it
twice: at ``wheels/<digest>/<name>.whl`` (what each notebook installs: a stale notebook finds no wheel rather
than a different one) and at ``wheels/<name>.whl`` (the stable address the API page and README give).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

INPUTS = ("pyproject.toml", "README.md", "LICENSE")
SKIPPED = ("__pycache__", "*.pyc", "*.egg-info")
DIGEST_LENGTH = 12
FOLDER = "wheels"


class WheelError(RuntimeError):
    """The wheel could not be built; the message says why (the backend's output included)."""


@dataclass(frozen=True)
class ProjectWheel:
    path: Path  # the built file, in the cache
    digest: str  # of the inputs, DIGEST_LENGTH hex digits

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def pinned_uri(self) -> str:
        """Where the site serves the wheel for its notebooks: wheels/<digest>/<name>.whl."""
        return f"{FOLDER}/{self.digest}/{self.name}"

    @property
    def stable_uri(self) -> str:
        """The address that always holds the latest wheel: wheels/<name>.whl."""
        return f"{FOLDER}/{self.name}"


def _source_files(root: Path) -> list[Path]:
    files = [root / name for name in INPUTS]
    missing = [path.name for path in files if not path.is_file()]
    if missing:
        raise WheelError(f"the project's {', '.join(missing)} is missing in {root}: no wheel can be built")
    for path in sorted((root / "src").rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and not any(part == "__pycache__" or part.endswith(".egg-info") for part in relative.parts):
            if path.suffix != ".pyc":
                files.append(path)
    return files


def inputs_digest(root: Path) -> str:
    """SHA-256 over the relative path and bytes of every file that goes into the wheel."""
    h = hashlib.sha256()
    for path in _source_files(root):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:DIGEST_LENGTH]


def project_wheel(root: Path, cache_dir: Path | None) -> ProjectWheel:
    """The wheel of the project at ``root``, from ``cache_dir`` (default ``<root>/.cache/wheels``) or built now."""
    root = Path(root)
    digest = inputs_digest(root)
    folder = (Path(cache_dir) if cache_dir is not None else root / ".cache" / "wheels") / digest
    built = sorted(folder.glob("*.whl")) if folder.is_dir() else []
    if built:
        return ProjectWheel(built[0], digest)
    with tempfile.TemporaryDirectory(prefix="transformer-wheel-") as tmp:
        copy, out = Path(tmp) / "project", Path(tmp) / "dist"
        copy.mkdir()
        for name in INPUTS:
            shutil.copy2(root / name, copy / name)
        shutil.copytree(root / "src", copy / "src", ignore=shutil.ignore_patterns(*SKIPPED))
        out.mkdir()
        result = subprocess.run(
            [sys.executable, "-c", "import sys, setuptools.build_meta as b; b.build_wheel(sys.argv[1])", str(out)],
            cwd=copy, capture_output=True, text=True, timeout=300, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
        )  # fmt: skip
        wheels = sorted(out.glob("*.whl"))
        if result.returncode != 0 or len(wheels) != 1:
            raise WheelError(
                f"building the project's wheel failed (setuptools.build_meta.build_wheel, exit {result.returncode}):\n"
                + (result.stderr or result.stdout)[-2000:]
            )
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / (wheels[0].name + f".{os.getpid()}.tmp")
        shutil.copy2(wheels[0], partial)
        os.replace(partial, folder / wheels[0].name)  # atomic: a concurrent build never reads half a wheel
    return ProjectWheel(folder / wheels[0].name, digest)
