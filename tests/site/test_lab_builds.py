"""A lab notebook built with the site's configuration (tests/site/tiny_project.py): rendered by mkdocs-jupyter with
its outputs, executed again exactly when it or a ``src`` module it imports changes, and refused when a cell or a
number fails.

The project's ``src`` is a copy of this repository's (on ``PYTHONPATH`` for the build and for the lab's kernel),
so that the tests can edit a module without touching the repository. The cache's report in the build log says
what happened: ``lab notebooks: lab.md executed: …`` or ``… from cache``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from tiny_project import JUPYTEXT_HEADER, REPO, build_env, run_build, write_tiny_project

pytestmark = pytest.mark.build
pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

HEADER = JUPYTEXT_HEADER.format(language="python")
LAB = (
    HEADER
    + """
# 小さなラボ

語彙は {{ 16 = preset.VOCAB_SIZE }} 語で、[本文のページ](page.md) にもどれます。

```python
from transformer_math import schedules
print("学習率", float(schedules.noam_lr(1, d_model=16, warmup=10)))
```

## 二つ目の節

```python
print("二つ目", 1 + 1)
```
"""
)
NAV = [{"ページ": "page.md"}, {"ラボ": "lab.md"}]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "src", tmp_path / "src", ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):  # the notebooks' wheel is built from this project
        shutil.copy(REPO / name, tmp_path / name)
    write_tiny_project(tmp_path, "# ページ\n\n本文。\n", {}, nav=NAV)
    (tmp_path / "docs" / "lab.md").write_text(LAB, encoding="utf-8")
    return tmp_path


def build(project: Path) -> tuple[int, str]:
    env = build_env(PYTHONPATH=str(project / "src"), TRANSFORMER_FIGURE_CACHE=str(project / ".cache"))
    return run_build(project, env=env)


def lab_report(log: str) -> str:
    found = re.findall(r"lab notebooks: lab\.md (.*)", log)
    assert len(found) == 1, log[-3000:]
    return found[0]


def touch(project: Path, module: str) -> None:
    path = project / "src" / module
    # code, not a comment: the cache keys on what code means (a comment changes nothing)
    path.write_text(path.read_text(encoding="utf-8") + "\n_EDITED_BY_A_TEST = 1\n", encoding="utf-8")


def test_the_lab_is_rendered_by_mkdocs_jupyter_and_executed_only_when_its_inputs_change(project):
    code, log = build(project)
    assert code == 0, log[-3000:]
    assert lab_report(log).startswith("executed: 2 cells")
    page = (project / "site" / "lab" / "index.html").read_text(encoding="utf-8")
    # mkdocs-jupyter's markup, with the outputs of this build's run
    assert 'class="jupyter-wrapper"' in page and "jp-CodeCell" in page
    assert re.search(r'class="[^"]*jp-OutputArea-output[^"]*"[^>]*>\s*<pre>学習率 0\.00790569', page)
    assert "二つ目 2" in page
    # the Japanese H1 has an id (mkdocs-jupyter alone gives id=""), the checked number its span, the link its URL
    h1 = re.search(r'<h1 id="([^"]*)">小さなラボ', page)
    assert h1 is not None and h1[1] == "_1"
    number = re.search(r'<span [^>]*class="checked-number"[^>]*>16</span>', page)
    assert number is not None and 'data-expr="preset.VOCAB_SIZE"' in number[0]
    assert 'href="../page/"' in page and 'href="page.md"' not in page
    assert "cdnjs" not in page and "x-mathjax-config" not in page
    assert page.count("<style") == 1  # mkdocs-jupyter's stylesheets, pruned into one
    download = project / "site" / "lab" / "lab.ipynb"
    assert download.is_file() and "学習率 0.00790569" in download.read_text(encoding="utf-8")
    assert "{{" not in download.read_text(encoding="utf-8")

    code, log = build(project)  # warm: nothing changed
    assert code == 0 and lab_report(log).startswith("from cache")

    touch(project, "transformer_figures/scale_figs.py")  # not imported by the lab, nor read by its numbers
    code, log = build(project)
    assert code == 0 and lab_report(log).startswith("from cache")

    touch(project, "transformer_math/schedules.py")  # imported by its first code cell
    code, log = build(project)
    assert code == 0 and lab_report(log).startswith("executed:")

    touch(project, "transformer_math/preset.py")  # read by its checked number (preset.VOCAB_SIZE)
    code, log = build(project)
    assert code == 0 and lab_report(log).startswith("executed:")


def test_a_failing_cell_fails_the_build_naming_the_notebook_and_the_cell(project):
    (project / "docs" / "lab.md").write_text(LAB.replace("1 + 1", "1 / 0"), encoding="utf-8")
    code, log = build(project)
    assert code != 0
    line = LAB.split("\n").index("```python", LAB.split("\n").index("## 二つ目の節")) + 1
    assert f"lab notebook: docs/lab.md: cell 2 of 2 (line {line}) failed:" in log, log[-3000:]
    assert "ZeroDivisionError" in log
    stored = list((project / ".cache" / "lab").glob("*/headings.json")) if (project / ".cache" / "lab").exists() else []
    assert stored == []  # nothing of a failing run is kept
    assert not (project / "site" / "index.html").exists()  # and nothing is published


def test_a_stale_number_fails_the_build_at_its_line(project):
    (project / "docs" / "lab.md").write_text(LAB.replace("{{ 16 =", "{{ 17 ="), encoding="utf-8")
    code, log = build(project)
    line = LAB.split("\n").index(next(x for x in LAB.split("\n") if "{{ 16" in x)) + 1
    assert code != 0 and f"docs/lab.md:{line}: quoted 17, live 16" in log, log[-3000:]


def test_mkdocs_jupyter_must_leave_execution_to_the_site(project):
    config_path = project / "mkdocs.yml"
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "mkdocs-jupyter" in plugin:
            plugin["mkdocs-jupyter"].update(execute=True, allow_errors=True)
    config_path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    code, log = build(project)
    assert code != 0
    assert "mkdocs-jupyter in mkdocs.yml: execute: True (must be False); allow_errors: True (must be False)" in log
