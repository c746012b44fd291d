"""Weight of every page that carries an interactive panel: its HTML (which embeds the panel data) gzipped,
plus the panel script and stylesheet every such page loads. Target: ≤ 400 KB per page, gzipped.

Usage: .venv/bin/python benchmarks/panel_weight.py [BUILT_SITE_DIR]
Without a directory the site is built (mkdocs build --strict) into a temporary one first.
Exit status 1 if a page is over the target.
"""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_BYTES = 400 * 1024
ASSETS = ("assets/panels.js", "assets/panels.css")
DATA = re.compile(rb'<template class="tm-panel-data".*?</template>', re.S)


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def build(site_dir: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site_dir)]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)


def report(site_dir: Path) -> int:
    assets = sum(gz((site_dir / a).read_bytes()) for a in ASSETS)
    pages = sorted(p for p in site_dir.rglob("*.html") if b"data-tm-panel=" in p.read_bytes())
    if not pages:
        print(f"no page in {site_dir} carries a panel (data-tm-panel)")
        return 1
    print(f"{'page':40} {'panels':>6} {'HTML':>10} {'HTML gz':>10} {'data gz':>10} {'+js/css gz':>11} {'total gz':>10}")
    worst = 0
    for page in pages:
        html = page.read_bytes()
        n_panels = html.count(b"data-tm-panel=")
        data = b"".join(DATA.findall(html))
        total = gz(html) + assets
        worst = max(worst, total)
        name = str(page.relative_to(site_dir))
        print(f"{name:40} {n_panels:>6} {len(html) / 1024:>8.1f} K {gz(html) / 1024:>8.1f} K "
              f"{gz(data) / 1024:>8.1f} K {assets / 1024:>9.1f} K {total / 1024:>8.1f} K")  # fmt: skip
    verdict = "within" if worst <= TARGET_BYTES else "OVER"
    print(f"heaviest panel page: {worst / 1024:.1f} KB gzipped, {verdict} the {TARGET_BYTES // 1024} KB target")
    return 0 if worst <= TARGET_BYTES else 1


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        site_dir = Path(argv[1])
        if not (site_dir / "index.html").is_file():
            raise SystemExit(f"BUILT_SITE_DIR must be a built site (with index.html), got {site_dir}")
        return report(site_dir)
    with tempfile.TemporaryDirectory(prefix="panel-weight-") as tmp:
        build(Path(tmp))
        return report(Path(tmp))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
