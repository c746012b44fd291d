"""The MkDocs hooks without a build: executed-block discovery, fresh modules for ``mkdocs serve``, source maps."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from transformer_site.execution import blocks as executed

REPO = Path(__file__).resolve().parents[2]


def load_hook(name: str):
    """A hook file loaded by its path, as MkDocs does (not as a package module)."""
    path = REPO / "src" / "transformer_site" / "hooks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"site_hook_under_test_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hooks():
    """The executed-block functions (transformer_site.execution.blocks) and the hook files they were split from."""
    return SimpleNamespace(
        find_executed_blocks=executed.find_executed_blocks,
        with_derived_ids=executed.with_derived_ids,
        on_pre_build=load_hook("fresh_build").on_pre_build,
        drop_source_maps=load_hook("publishing").drop_source_maps,
    )


PAGE = """\
# 見出し

```python exec="on" html="on" source="tabbed-right" tabs="ソース|結果" id="a-block"
--8<-- "snippets/x/a.py"
```

```python
print("not executed")
```

=== "タブ"

    ```python exec="on" id='b-block'
    --8<-- "snippets/x/b.py"
    ```
"""


def test_finds_executed_blocks_with_line_id_and_snippet(hooks):
    blocks = hooks.find_executed_blocks(PAGE, "notes/x.md")
    assert [(b.line, b.block_id, b.snippets) for b in blocks] == [
        (3, "a-block", ("snippets/x/a.py",)),
        (13, "b-block", ("snippets/x/b.py",)),
    ]
    assert blocks[0].where("docs") == "docs/notes/x.md:3: executed block id='a-block' (snippet snippets/x/a.py)"


def test_inline_code_without_id_is_an_error_naming_page_and_line(hooks):
    inline = PAGE.replace(' id="a-block"', "").replace('--8<-- "snippets/x/a.py"', 'print("<p>x</p>")')
    with pytest.raises(ValueError, match=r"notes/x\.md:3: executed block has no id"):
        hooks.find_executed_blocks(inline, "notes/x.md")


def hooks_module_kept() -> list[str]:
    from transformer_site.hooks.fresh_build import KEPT

    assert KEPT == {"transformer_site.execution.isolation", "transformer_site.incremental"}
    return [name for name in KEPT if name in sys.modules]


class _Config(dict):
    """What on_pre_build reads of MkDocs' config: items and the config file's path."""

    def __init__(self, config_file_path: str, **items):
        super().__init__(items)
        self.config_file_path = config_file_path


def test_pre_build_forgets_project_modules_so_serve_sees_edits(hooks, tmp_path):
    import transformer_figures  # noqa: F401
    import transformer_math
    from transformer_site import PROJECT_PACKAGES
    from transformer_site.execution import isolation
    saved = {name: mod for name, mod in sys.modules.items() if name.split(".")[0] in PROJECT_PACKAGES}
    try:
        hooks.on_pre_build(_Config(str(REPO / "mkdocs.yml"), docs_dir=str(REPO / "docs"), site_dir=str(tmp_path)))
        left = [n for n in sys.modules if n.split(".")[0] in PROJECT_PACKAGES]
        # isolation owns the audit hook, which cannot be removed; incremental remembers serve's last build
        assert sorted(left) == sorted(hooks_module_kept())
        assert sys.modules["transformer_site.execution.isolation"] is isolation
        # the next import is a fresh module object, built from the files on disk
        import transformer_math as again

        assert again is not transformer_math
        assert again.preset_trace(1).scores.shape == (2, 5, 5)
    finally:  # later tests keep the module objects they imported at collection time
        for name in [n for n in sys.modules if n.split(".")[0] in PROJECT_PACKAGES]:
            del sys.modules[name]
        sys.modules.update(saved)


def test_drop_source_maps_removes_maps_and_their_comments(hooks, tmp_path):
    js = tmp_path / "assets" / "javascripts"
    js.mkdir(parents=True)
    (js / "bundle.min.js").write_text('console.log("x");\n//# sourceMappingURL=bundle.min.js.map\n', encoding="utf-8")
    (js / "bundle.min.js.map").write_text("{}" * 50, encoding="utf-8")
    (js / "katex-init.js").write_text("// ours, no map\n", encoding="utf-8")
    assert hooks.drop_source_maps(tmp_path) == 100
    assert not list(tmp_path.rglob("*.map"))
    assert (js / "bundle.min.js").read_text(encoding="utf-8") == 'console.log("x");'
    assert (js / "katex-init.js").read_text(encoding="utf-8") == "// ours, no map\n"


def test_an_executed_block_without_id_gets_one_from_its_page_and_snippet(hooks):
    page = '# t\n\n```python exec="on" html="on"\n--8<-- "snippets/notes/03-attention/scores_heatmap.py"\n```\n'
    (block,) = hooks.find_executed_blocks(page, "notes/03-attention.md")
    assert block.block_id == "notes-03-attention-scores-heatmap"
    assert 'exec="on" html="on" id="notes-03-attention-scores-heatmap"' in hooks.with_derived_ids(page, [block])


def test_an_explicit_id_stays(hooks):
    page = '```python exec="on" id="mine"\n--8<-- "snippets/tryit/index/pe.py"\n```\n'
    (block,) = hooks.find_executed_blocks(page, "chapter/04-positional-encoding.md")
    assert block.block_id == "mine" and hooks.with_derived_ids(page, [block]) == page


def test_a_snippet_outside_the_page_folders_is_refused(hooks):
    page = '```python exec="on"\n--8<-- "snippets/loose.py"\n```\n'
    with pytest.raises(ValueError, match=r"notes/x\.md:1: .*snippets/<page path>/"):
        hooks.find_executed_blocks(page, "notes/x.md")
