"""The build's steps without a build: executed-block discovery, fresh modules for ``mkdocs serve``, source maps."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from transformer_site.execution import blocks as executed
from transformer_site.page import Page

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def steps():
    """The executed-block functions and the build's other steps under test."""
    from transformer_site.publishing.site_dir import drop_source_maps

    return SimpleNamespace(
        find_executed_blocks=lambda text, uri: executed.find_executed_blocks(Page(text, f"docs/{uri}"), uri),
        with_derived_ids=lambda text, blocks: executed.with_derived_ids(text, 0, blocks),
        drop_source_maps=drop_source_maps,
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


def test_finds_executed_blocks_with_line_id_and_snippet(steps):
    blocks = steps.find_executed_blocks(PAGE, "notes/x.md")
    assert [(b.line, b.block_id, b.snippets) for b in blocks] == [
        (3, "a-block", ("snippets/x/a.py",)),
        (13, "b-block", ("snippets/x/b.py",)),
    ]
    assert blocks[0].where("docs") == "docs/notes/x.md:3: executed block id='a-block' (snippet snippets/x/a.py)"


def test_inline_code_without_id_is_an_error_naming_page_and_line(steps):
    inline = PAGE.replace(' id="a-block"', "").replace('--8<-- "snippets/x/a.py"', 'print("<p>x</p>")')
    with pytest.raises(ValueError, match=r"notes/x\.md:3: executed block has no id"):
        steps.find_executed_blocks(inline, "notes/x.md")


def test_a_rebuild_forgets_project_modules_so_serve_sees_edits():
    import transformer_figures  # noqa: F401
    import transformer_math
    from transformer_site import PROJECT_PACKAGES, incremental
    from transformer_site.execution import isolation

    # isolation owns the audit hook, which cannot be removed; incremental remembers serve's last build
    assert incremental.KEPT == {"transformer_site.execution.isolation", "transformer_site.incremental"}
    saved = {name: mod for name, mod in sys.modules.items() if name.split(".")[0] in PROJECT_PACKAGES}
    try:
        incremental.forget_project_modules([])
        left = [n for n in sys.modules if n.split(".")[0] in PROJECT_PACKAGES]
        assert sorted(left) == sorted(name for name in incremental.KEPT if name in saved)
        assert sys.modules["transformer_site.execution.isolation"] is isolation
        # the next import is a fresh module object, built from the files on disk
        import transformer_math as again

        assert again is not transformer_math
        assert again.preset_trace(1).scores.shape == (2, 5, 5)
    finally:  # later tests keep the module objects they imported at collection time
        for name in [n for n in sys.modules if n.split(".")[0] in PROJECT_PACKAGES]:
            del sys.modules[name]
        sys.modules.update(saved)


def test_drop_source_maps_removes_maps_and_their_comments(steps, tmp_path):
    js = tmp_path / "assets" / "javascripts"
    js.mkdir(parents=True)
    (js / "bundle.min.js").write_text('console.log("x");\n//# sourceMappingURL=bundle.min.js.map\n', encoding="utf-8")
    (js / "bundle.min.js.map").write_text("{}" * 50, encoding="utf-8")
    (js / "katex-init.js").write_text("// ours, no map\n", encoding="utf-8")
    assert steps.drop_source_maps(tmp_path) == 100
    assert not list(tmp_path.rglob("*.map"))
    assert (js / "bundle.min.js").read_text(encoding="utf-8") == 'console.log("x");'
    assert (js / "katex-init.js").read_text(encoding="utf-8") == "// ours, no map\n"


def test_an_executed_block_without_id_gets_one_from_its_page_and_snippet(steps):
    page = '# t\n\n```python exec="on" html="on"\n--8<-- "snippets/notes/03-attention/scores_heatmap.py"\n```\n'
    (block,) = steps.find_executed_blocks(page, "notes/03-attention.md")
    assert block.block_id == "notes-03-attention-scores-heatmap"
    assert 'exec="on" html="on" id="notes-03-attention-scores-heatmap"' in steps.with_derived_ids(page, [block])


def test_an_explicit_id_stays(steps):
    page = '```python exec="on" id="mine"\n--8<-- "snippets/tryit/index/pe.py"\n```\n'
    (block,) = steps.find_executed_blocks(page, "chapter/04-positional-encoding.md")
    assert block.block_id == "mine" and steps.with_derived_ids(page, [block]) == page


def test_a_snippet_outside_the_page_folders_is_refused(steps):
    page = '```python exec="on"\n--8<-- "snippets/loose.py"\n```\n'
    with pytest.raises(ValueError, match=r"notes/x\.md:1: .*snippets/<page path>/"):
        steps.find_executed_blocks(page, "notes/x.md")
