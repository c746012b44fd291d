"""A tiny MkDocs project with the real site's configuration (extensions, plugins, theme), for tests that build or
serve one page and one snippet in a temporary directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def write_tiny_project(root: Path, page: str, snippets: dict[str, str], nav: list | None = None) -> Path:
    """mkdocs.yml (the repo's, with its paths made absolute), docs/page.md and ``snippets`` under ``root``."""
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    theme = config.get("theme", {})
    if isinstance(theme, dict) and theme.get("custom_dir"):
        theme["custom_dir"] = str(REPO / theme["custom_dir"])
    config["nav"] = nav if nav is not None else [{"ページ": "page.md"}]
    config["watch"] = [name for name in ("src", "snippets") if (root / name).exists() or name == "snippets"]
    config.pop("site_url", None)  # `mkdocs serve` would serve under the published path, not at /
    for key in ("extra_css", "extra_javascript"):  # assets of the real docs/ are not copied
        config.pop(key, None)
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "page.md").write_text(page, encoding="utf-8")
    (root / "snippets").mkdir(exist_ok=True)
    for name, code in snippets.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code, encoding="utf-8")
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return root / "mkdocs.yml"


def build_env(**extra: str) -> dict[str, str]:
    """The environment of a test build: this repo's src first, no cache, no leftovers of the caller's settings."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(REPO / "src"), TRANSFORMER_FIGURE_CACHE="off")
    for name in ("TRANSFORMER_SITE_NO_EXEC", "TRANSFORMER_BLOCK_TIME_LIMIT", "SOURCE_DATE_EPOCH"):
        env.pop(name, None)
    env.update(extra)
    return env


def run_build(
    project: Path, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 300
) -> tuple[int, str]:
    """``mkdocs build --strict -d <project>/site <args>`` in ``cwd`` (default: the project); (exit code, log)."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(project / "site"), *args]
    result = subprocess.run(
        command, cwd=cwd or project, env=env or build_env(), capture_output=True, text=True, timeout=timeout
    )
    return result.returncode, result.stdout + result.stderr


# The front matter that makes a Markdown page a Jupytext notebook with a kernel of ``language`` (a lab).
JUPYTEXT_HEADER = """---
jupyter:
  jupytext:
    text_representation:
      extension: .md
      format_name: markdown
      format_version: '1.3'
  kernelspec:
    display_name: Python 3
    language: {language}
    name: python3
---
"""
