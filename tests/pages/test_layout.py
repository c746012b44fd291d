"""The pages layer mirrors docs/: every page module names one page and imports only the layers below it."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import transformer_pages
from transformer_site.citable import NAMES

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "src" / "transformer_pages"
MODULES = sorted(p for p in PAGES.rglob("*.py") if p.name != "__init__.py")


def page_of(module: Path) -> list[Path]:
    """The docs page(s) that the naming rule maps to ``module``: docs/<section>/NN-<name>.md (or <name>.md) or
    <section>/index.md."""
    rel = module.relative_to(PAGES).with_suffix("")
    if rel.parts == ("course",):  # the front page: the course's stages, tracks and reading rule
        return [ROOT / "docs" / "index.md"]
    if len(rel.parts) == 1:  # a section made of an index.md alone
        return [ROOT / "docs" / rel.parts[0] / "index.md"]
    section, name = rel.parts
    name = name.removesuffix("_questions")  # a page's 確認問題 live beside its module: attention_questions.py
    stem = name.replace("_", "-")  # a numbered page (NN-name.md), or an unnumbered one (the reference pages)
    folder = ROOT / "docs" / section
    return sorted(folder.glob(f"[0-9][0-9]-{stem}.md")) + sorted(folder.glob(f"{stem}.md"))


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(PAGES)))
def test_each_page_module_names_exactly_one_page(module):
    pages = page_of(module)
    assert len(pages) == 1 and pages[0].is_file(), f"{module.relative_to(ROOT)}: no docs page by the naming rule"


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(PAGES)))
def test_page_modules_import_only_the_layers_below(module):
    """site → pages → figures → math: a page module never imports the site glue."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module and not node.level
    }
    allowed = re.compile(
        r"^(__future__|numpy|math|re|dataclasses|functools|itertools|types|collections\.abc|transformer_math(\..*)?)$"
    )
    assert all(allowed.match(name) for name in imported), sorted(n for n in imported if not allowed.match(n))


def test_every_page_module_is_citable_through_its_section():
    for info in pkgutil.walk_packages(transformer_pages.__path__, "transformer_pages."):
        module = importlib.import_module(info.name)
        parts = info.name.split(".")[1:]
        if len(parts) == 2:
            assert getattr(NAMES[parts[0]], parts[1]) is module, info.name
