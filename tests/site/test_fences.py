from transformer_site.fences import find_fences

PAGE = """# ページ

```python exec="on" html="on" id="fig-a"
--8<-- "snippets/a/fig.py"
```

=== "タブ"

    ````python exec="on" id="fig-b"
    print("```")
    --8<-- "snippets/b/table.py"
    ````

```text
shown, not run
```
""".split("\n")


def test_fences_are_found_with_their_lines_ids_and_includes():
    fences = find_fences(PAGE)
    assert [(f.line, f.lang, f.executed, f.block_id) for f in fences] == [
        (3, "python", True, "fig-a"),
        (9, "python", True, "fig-b"),
        (14, "text", False, None),
    ]
    assert fences[0].includes == ("snippets/a/fig.py",)
    assert fences[1].includes == ("snippets/b/table.py",)


def test_an_indented_fence_loses_its_indentation_and_a_shorter_fence_does_not_close_it():
    inner = find_fences(PAGE)[1]
    assert inner.body == ('print("```")', '--8<-- "snippets/b/table.py"')
    assert PAGE[inner.end].strip() == "````"


def test_an_unclosed_fence_runs_to_the_end():
    fences = find_fences(['```python exec="on" id="x"', "print(1)"])
    assert (fences[0].end, fences[0].body) == (2, ("print(1)",))
