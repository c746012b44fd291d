"""The shape of the site layer: one plugin and no hooks, one pipeline table, no import cycle in src/, a small top
level, MkDocs only in the adapter, no build state in module globals."""

from __future__ import annotations

import ast
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import yaml

from transformer_site import pipeline, plugin

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
SITE = SRC / "transformer_site"
MAX_TOP_LEVEL_MODULES = 12


def _config() -> dict:
    class _Loader(yaml.SafeLoader):
        pass

    _Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # MkDocs' own tags (none used today)
    return yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)


def _plugin_names(config: dict) -> list[str]:
    return [next(iter(entry)) if isinstance(entry, dict) else entry for entry in config["plugins"]]


def test_the_site_is_one_plugin_listed_last_and_no_hooks():
    config = _config()
    assert "hooks" not in config
    assert _plugin_names(config)[-1] == plugin.NAME
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert declared["project"]["entry-points"]["mkdocs.plugins"] == {plugin.NAME: "transformer_site.plugin:SitePlugin"}
    (installed,) = [e for e in entry_points(group="mkdocs.plugins") if e.name == plugin.NAME]
    assert installed.load() is plugin.SitePlugin


def test_the_plugin_runs_every_row_of_the_table_at_its_priority():
    registered = {}
    for name in dir(plugin.SitePlugin):
        handler = getattr(plugin.SitePlugin, name)
        if name.startswith("on_") and hasattr(handler, "methods"):
            registered[name[3:]] = [method.mkdocs_priority for method in handler.methods]
    expected: dict[str, list[int]] = {}
    for event, when in pipeline.moments():
        expected.setdefault(event, []).append(when)
    assert registered == expected
    for row in pipeline.PIPELINE:
        assert row.step in pipeline.steps(row.event, row.when)
        assert row.when in (pipeline.FIRST, pipeline.AFTER, pipeline.LAST) and row.does


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(SRC.glob("transformer_*/**/*.py"))}


def _imports(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports, anywhere in its code (a lazy import is an import too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {module for module in found if module in MODULES and module != name}


def test_no_import_cycle_in_src():
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    cycles: list[list[str]] = []

    def walk(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                walk(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [name])
    assert not cycles, "import cycles: " + "; ".join(" → ".join(cycle) for cycle in cycles)


def test_a_small_top_level_beside_the_capability_packages():
    modules = sorted(path.name for path in SITE.glob("*.py"))
    assert len(modules) <= MAX_TOP_LEVEL_MODULES, modules


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("transformer_site.")))
def test_only_the_adapter_knows_mkdocs(name):
    if name == "transformer_site.plugin":
        return
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [m for m in imported if m.split(".")[0] in ("mkdocs", "material")], name


def test_no_build_state_in_module_globals():
    """No module rebinds a global: a build's state is on its Build. The one exception is process state that
    outlives every build: isolation's audit hook, installed once per interpreter."""
    rebinding = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Global):
                rebinding += [f"{name}: {global_name}" for global_name in node.names]
    assert rebinding == ["transformer_site.execution.isolation: _installed"]


def test_contributing_holds_the_pipeline_table_as_the_code_has_it():
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    copy = text.split("<!-- pipeline: start -->\n", 1)[1].split("\n<!-- pipeline: end -->", 1)[0]
    assert copy == pipeline.table(), "paste transformer_site.pipeline.table() into CONTRIBUTING.md"


def test_the_readme_is_short_and_gives_the_two_commands():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 100
    commands = [line.split("#")[0].strip() for line in readme.splitlines() if line.startswith("bash scripts/")]
    assert commands == ["bash scripts/serve.sh", "bash scripts/test.sh"]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "\nbash scripts/test.sh\n" in ci and "bash .ci/fresh-serve" in ci  # CI runs both, on a fresh clone
