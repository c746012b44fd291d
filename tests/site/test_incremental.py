"""The edit loop's decisions (transformer_site.incremental): what a rebuild of ``mkdocs serve --dirty`` redoes."""

from __future__ import annotations

from transformer_site import incremental
from transformer_site.incremental import Change, classify

BEFORE = {"docs/a.md": (1, 10), "docs/b.md": (1, 20), "docs/img.svg": (1, 5), "src/m.py": (1, 3), "mkdocs.yml": (1, 1)}


def test_the_first_build_is_whole():
    assert classify(None, BEFORE, "docs").whole


def test_a_prose_edit_rebuilds_that_page_only_and_keeps_the_modules():
    change = classify(BEFORE, {**BEFORE, "docs/a.md": (2, 11)}, "docs")
    assert (change.whole, change.code_changed, change.pages) == (False, False, {"a.md"})


def test_code_configuration_assets_and_added_pages_rebuild_everything():
    assert classify(BEFORE, {**BEFORE, "src/m.py": (2, 3)}, "docs").code_changed
    assert classify(BEFORE, {**BEFORE, "mkdocs.yml": (2, 1)}, "docs").whole
    assert classify(BEFORE, {**BEFORE, "docs/img.svg": (2, 6)}, "docs").whole
    added = classify(BEFORE, {**BEFORE, "docs/c.md": (1, 1)}, "docs")
    assert added.whole and not added.code_changed
    assert classify(BEFORE, BEFORE, "docs") == Change(whole=False, code_changed=False)


def test_the_pages_that_read_the_docs_are_found(tmp_path):
    (tmp_path / "docs" / "notes").mkdir(parents=True)
    (tmp_path / "snippets" / "notes" / "count").mkdir(parents=True)
    (tmp_path / "snippets" / "notes" / "count" / "n.py").write_text('print(len(list(open("docs/x.md"))))\n')
    (tmp_path / "snippets" / "notes" / "count" / "p.py").write_text("print(1)\n")
    (tmp_path / "docs" / "x.md").write_text("# x\n")
    fence = '```python exec="on"\n--8<-- "snippets/notes/count/{}.py"\n```\n'
    (tmp_path / "docs" / "notes" / "count.md").write_text("# c\n\n" + fence.format("n"))
    (tmp_path / "docs" / "notes" / "plain.md").write_text("# p\n\n" + fence.format("p"))
    assert incremental.pages_reading_docs(tmp_path, tmp_path / "docs") == {"notes/count.md"}


def test_a_dirty_build_keeps_the_search_entries_of_the_pages_it_did_not_rebuild():
    loop = incremental.ServeLoop(dirty=True, serving=True)
    old = {"config": {}, "docs": [{"location": "", "text": "top"}, {"location": "a/", "text": "old a"},
                                  {"location": "a/#s", "text": "old s"}, {"location": "b/", "text": "b"}]}  # fmt: skip
    whole = loop.rebuilt_only(Change(whole=True, code_changed=True), set())
    assert incremental.merge_search_index(loop, old, whole) is old
    prose = loop.rebuilt_only(Change(whole=False, code_changed=False, pages={"a.md"}), {"a/"})
    merged = incremental.merge_search_index(loop, {"config": {}, "docs": [{"location": "a/", "text": "new a"}]}, prose)
    assert [d["text"] for d in merged["docs"]] == ["top", "new a", "b"]


def test_mkdocs_warning_about_dirty_builds_is_dropped_only_in_a_dirty_serve():
    import logging

    record = logging.LogRecord("mkdocs.commands.build", logging.WARNING, "", 0, "A 'dirty' build is being performed", None, None)  # noqa: E501
    assert not incremental._drop_dirty_warning(record)
    other = logging.LogRecord("mkdocs.commands.build", logging.WARNING, "", 0, "something else", None, None)
    assert incremental._drop_dirty_warning(other)


def test_only_a_partial_rebuild_names_the_pages_it_rendered():
    """The notebooks are written for the rendered pages only in a dirty prose rebuild (notebooks.export);
    a whole build, or any build outside a dirty serve, writes them all."""
    loop = incremental.ServeLoop(dirty=True, serving=True)
    assert loop.rebuilt_only(Change(whole=False, code_changed=False, pages={"a.md"}), {"a/"}) == {"a/"}
    assert loop.rebuilt_only(Change(whole=True, code_changed=False), {"a/"}) is None
    loop.dirty = False
    assert loop.rebuilt_only(Change(whole=False, code_changed=False, pages={"a.md"}), {"a/"}) is None


def test_unchanged_files_are_parsed_once_per_process_and_an_edit_is_read_again(tmp_path, monkeypatch):
    """The figure cache's facts about a file are kept across the builds of one serve, keyed on the file's bytes:
    an edit of the same size in the same instant (a constant changed) is read again."""
    from transformer_site.execution import cache as figure_cache

    parsed = []
    monkeypatch.setattr(figure_cache, "_FILE_FACTS", {})
    monkeypatch.setattr(figure_cache, "source_meaning", lambda path, data: parsed.append(path) or data)
    src = tmp_path / "src"
    (src / "transformer_math").mkdir(parents=True)
    module = src / "transformer_math" / "ops.py"
    module.write_text("X = 1\n")
    first = figure_cache.DependencyGraph(src).digest(module)
    assert figure_cache.DependencyGraph(src).digest(module) == first  # a new build's graph: nothing parsed
    assert parsed == [module]
    module.write_text("X = 2\n")
    assert figure_cache.DependencyGraph(src).digest(module) != first
    assert parsed == [module, module]
