"""The figure cache renders a block again exactly when its code or a src file it imports changed.

A small temporary project (src/ with two packages, docs/, snippets as code strings) and the cache API with
its render counter; one test runs blocks through the site's runner, as the build does.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from transformer_site.execution import cache as figure_cache
from transformer_site.execution.cache import DependencyGraph, FigureCache

REPO = Path(__file__).resolve().parents[2]

FILES = {
    "src/transformer_math/__init__.py": "from . import ops\nfrom .block import forward\n",
    "src/transformer_math/ops.py": "def softmax(x):\n    return x\n",
    "src/transformer_math/block.py": "from . import ops\n\ndef forward(x):\n    return ops.softmax(x)\n",
    "src/transformer_math/counting.py": "def params(d):\n    return 4 * d * d\n",
    "src/transformer_math/schedules.py": "from .counting import params\n\ndef lr(d):\n    return 1 / params(d)\n",
    "src/transformer_figures/__init__.py": "from .style import INK\n",
    "src/transformer_figures/style.py": 'INK = "#222"\n',
    "src/transformer_site/__init__.py": "",
    "docs/page.md": "# ページ\n\n本文。\n",
}
SNIPPETS = {
    "heatmap": "from transformer_figures import INK\nfrom transformer_math import forward\nprint(INK, forward(1))\n",
    "params": "from transformer_math.counting import params\nprint(params(4))\n",
    "lr": "from transformer_math import schedules\nprint(schedules.lr(4))\n",
    "plain": "print('<p>no project import</p>')\n",
    "pages": "from pathlib import Path\nprint(len(list(Path('docs').rglob('*.md'))))\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def build(project: Path) -> FigureCache:
    """One 'build': a fresh cache object (as each mkdocs build gets) over every snippet."""
    cache = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    for name, code in SNIPPETS.items():
        output = cache.run(code, lambda name=name: f"<output of {name}>", label=name)
        assert output == f"<output of {name}>"
    return cache


def edit(project: Path, name: str, extra: str = "\nEDITED = 1\n") -> None:
    path = project / name
    path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")


def test_import_closure_is_transitive_and_relative_imports_resolve(project):
    graph = DependencyGraph(project / "src")
    assert graph.closure(SNIPPETS["lr"]) == [
        "transformer_math", "transformer_math.block", "transformer_math.counting", "transformer_math.ops",
        "transformer_math.schedules",
    ]  # fmt: skip
    assert graph.closure(SNIPPETS["heatmap"]) == [
        "transformer_figures", "transformer_figures.style", "transformer_math", "transformer_math.block",
        "transformer_math.ops",
    ]  # fmt: skip
    assert graph.closure(SNIPPETS["plain"]) == []


def test_a_cold_build_renders_everything_and_a_warm_one_nothing(project):
    assert build(project).renders == len(SNIPPETS)
    warm = build(project)
    assert (warm.renders, warm.hits) == (0, len(SNIPPETS))


def test_editing_prose_renders_nothing_but_the_block_that_reads_the_pages(project):
    build(project)
    edit(project, "docs/page.md", "\nもう一文。\n")
    assert build(project).rendered == ["pages"]  # it names "docs": its output is a function of the pages


def test_editing_a_leaf_module_renders_exactly_its_dependents(project):
    build(project)
    edit(project, "src/transformer_math/counting.py")
    assert sorted(build(project).rendered) == ["lr", "params"]  # schedules imports counting
    assert build(project).renders == 0


def test_editing_a_module_imported_by_the_package_renders_every_user_of_the_package(project):
    build(project)
    edit(project, "src/transformer_math/ops.py")  # transformer_math/__init__ imports it, so every import does
    assert sorted(build(project).rendered) == ["heatmap", "lr", "params"]
    edit(project, "src/transformer_figures/style.py")
    assert build(project).rendered == ["heatmap"]


def test_editing_a_snippet_renders_only_that_snippet(project):
    build(project)
    SNIPPETS_EDITED = dict(SNIPPETS, params=SNIPPETS["params"] + "print('more')\n")
    cache = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    for name, code in SNIPPETS_EDITED.items():
        cache.run(code, lambda: "x", label=name)
    assert cache.rendered == ["params"]


def test_a_failing_render_is_not_stored(project):
    cache = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")

    def fail():
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        cache.run(SNIPPETS["params"], fail)
    assert cache.run(SNIPPETS["params"], lambda: "ok") == "ok"
    assert cache.renders == 1


def test_dynamic_imports_depend_on_every_module_of_the_named_package(project):
    (project / "src/transformer_site/citable.py").write_text(
        textwrap.dedent("""\
            import importlib, pkgutil
            import transformer_math
            INFOS = pkgutil.iter_modules(transformer_math.__path__)
            MODULES = [importlib.import_module(f"transformer_math.{m.name}") for m in INFOS]
            """),
        encoding="utf-8",
    )  # fmt: skip
    closure = DependencyGraph(project / "src").closure("from transformer_site.citable import MODULES\n")
    assert "transformer_math.counting" in closure and "transformer_math.schedules" in closure
    assert not any(m.startswith("transformer_figures") for m in closure)


def test_a_page_module_of_a_fourth_package_is_followed(project):
    """transformer_pages (facts that exist for one page) is a project package like the others."""
    pages = project / "src" / "transformer_pages"
    pages.mkdir()
    (pages / "__init__.py").write_text("", encoding="utf-8")
    module = "from transformer_math.counting import params\nX = params(2)\n"
    (pages / "attention.py").write_text(module, encoding="utf-8")
    code = "from transformer_pages.attention import X\nprint(X)\n"
    closure = DependencyGraph(project / "src").closure(code)
    assert closure == ["transformer_math", "transformer_math.block", "transformer_math.counting",
                       "transformer_math.ops", "transformer_pages", "transformer_pages.attention"]  # fmt: skip
    build(project)
    cache = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    cache.run(code, lambda: "x", label="pages")
    edit(project, "src/transformer_pages/attention.py")
    again = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    again.run(code, lambda: "y", label="pages")
    assert (cache.renders, again.renders) == (1, 1)


def test_real_snippets_resolve_their_dependencies():
    """On this repository: a heatmap of the trace does not depend on counting; the parameter table does."""
    graph = DependencyGraph(REPO / "src")
    scores = graph.closure((REPO / "snippets/notes/03-attention/scores_heatmap.py").read_text(encoding="utf-8"))
    assert {"transformer_math.ops", "transformer_math.block", "transformer_figures.svg"} <= set(scores)
    assert "transformer_math.counting" not in scores
    params = graph.closure((REPO / "snippets/chapter/01-overview/params_table.py").read_text(encoding="utf-8"))
    assert "transformer_math.counting" in params
    for module in scores + params:
        assert graph.module_file(module) is not None


def test_the_runner_goes_through_the_cache(project, monkeypatch):
    """markdown-exec's base_format calls the site's runner (blocks.run_block), which asks the cache first."""
    from transformer_site.execution.blocks import BlockRun, run_block
    from transformer_site.failures import Failures

    monkeypatch.delenv("TRANSFORMER_SITE_NO_EXEC", raising=False)
    monkeypatch.setenv("TRANSFORMER_FIGURE_CACHE", str(project / "cache"))
    run = BlockRun.for_build(project, project / "docs", Failures())
    code = "print('<p>' + str(6 * 7) + '</p>')"
    assert run_block(code, id="t1", run=run) == "<p>42</p>\n"
    assert run_block(code, id="t2", run=run) == "<p>42</p>\n"
    assert (run.cache.renders, run.cache.hits, run.cache.rendered) == (1, 1, ["t1"])
    assert list(run.cache.render_seconds) == ["t1"] and run.cache.render_seconds["t1"] >= 0.0  # a hit costs none
    assert re.fullmatch(r"executed blocks: [\d.]+ s CPU rendering, slowest t1 [\d.]+ s", run.cache.cost_report())
    monkeypatch.setenv("TRANSFORMER_SITE_NO_EXEC", "1")
    assert run_block("raise SystemExit('never run')", id="t3", run=run) == ""
    # The next build (mkdocs serve) gets a fresh run and cache object, reading the same stored outputs.
    again = BlockRun.for_build(project, project / "docs", Failures())
    monkeypatch.delenv("TRANSFORMER_SITE_NO_EXEC")
    assert run_block(code, id="t4", run=again) == "<p>42</p>\n"
    assert (again.cache.renders, again.cache.hits) == (0, 1)


def test_comments_docstrings_and_layout_of_a_module_render_nothing(project):
    build(project)
    edit(project, "src/transformer_math/counting.py", "\n# a comment only\n")
    path = project / "src/transformer_math/ops.py"
    path.write_text('"""Operations."""\n\n\ndef softmax(x):  # why\n    """The softmax."""\n    return (x)\n')
    edit(project, "src/transformer_figures/style.py", "# colours of the house style\n")
    cache = build(project)
    assert cache.renders == 0, cache.rendered


def test_a_changed_constant_renders_every_block_that_reads_it(project):
    build(project)
    path = project / "src/transformer_figures/style.py"
    path.write_text(path.read_text(encoding="utf-8").replace("#222", "#333"), encoding="utf-8")
    assert sorted(build(project).rendered) == ["heatmap"]
    path = project / "src/transformer_math/counting.py"
    path.write_text(path.read_text(encoding="utf-8").replace("4 * d", "3 * d"), encoding="utf-8")
    assert sorted(build(project).rendered) == ["lr", "params"]


def test_a_block_that_reads_docstrings_renders_again_when_one_changes(project):
    reader = "import inspect\nfrom transformer_math import counting\nprint(inspect.getdoc(counting.params))\n"
    cache = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    cache.run(reader, lambda: "first", label="reader")
    path = project / "src/transformer_math/counting.py"
    path.write_text(path.read_text(encoding="utf-8").replace("):\n", '):\n    """Parameters."""\n', 1))
    again = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    assert again.run(reader, lambda: "second", label="reader") == "second"
    build(project)
    path.write_text(path.read_text(encoding="utf-8").replace("Parameters.", "Parameter count."))
    assert "params" not in build(project).rendered  # it does not read docstrings: same meaning, no render


def test_a_reader_that_names_what_it_reads_ignores_comments_elsewhere(project):
    reader = (
        "# reads source of: transformer_math.counting\n"
        "import inspect\nfrom transformer_figures import INK\nfrom transformer_math import counting\n"
        "print(INK, inspect.getdoc(counting.params))\n"
    )
    cache = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    cache.run(reader, lambda: "first", label="reader")
    edit(project, "src/transformer_figures/style.py", "# colours of the house style\n")
    again = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    assert again.run(reader, lambda: "second", label="reader") == "first"  # a comment where it reads nothing
    edit(project, "src/transformer_math/counting.py", "# a comment where it reads\n")
    third = FigureCache(project, project / ".cache" / "figures", src_root=project / "src")
    assert third.run(reader, lambda: "third", label="reader") == "third"


def test_reads_of_source_are_found_in_the_code_not_in_its_words():
    reads = figure_cache.source_reads
    assert reads('"""Mentions inspect.getsource and __doc__ in words."""\nx = 1  # inspect.getdoc\n') is None
    assert reads("import argparse\nargparse.ArgumentParser(description=__doc__)\n") == "own"
    assert reads("import inspect\nprint(inspect.getsource(f))\n") == "others"
    assert reads("from inspect import getdoc\n") == "others"
    assert reads("print(f.__doc__)\n") == "others"
    assert reads("def f(:\n") == "others"  # does not parse: the safe side


def test_a_module_that_does_not_parse_is_keyed_on_its_bytes(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    first = figure_cache.source_meaning(broken)
    broken.write_text("def f(:\n# comment\n")
    assert figure_cache.source_meaning(broken) != first
