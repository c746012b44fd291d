from transformer_site.page.fences import find_fences

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


def test_a_fence_in_a_blockquote_and_a_backtick_line_that_is_inline_code():
    """The two cases on which the checked-number reader and the hook once disagreed."""
    lines = ["> ```python", "> {{ 1 = s1.x }}", "> ```", "", "```a``` is inline code {{ 2 = s1.y }}"]
    lines += ["```text", "x", "```"]
    fences = find_fences(lines)
    assert [(f.start, f.end, f.body) for f in fences] == [(0, 2, ("{{ 1 = s1.x }}",)), (5, 7, ("x",))]


def test_the_checked_number_reader_skips_exactly_the_fences_the_hook_finds():
    from transformer_site.page.fences import fence_spans
    from transformer_site.page.tokens import find_checked_numbers

    text = "\n".join(PAGE) + "\n> ```\n> {{ 9 = s1.x }}\n> ```\n\n```a``` {{ 3 = s1.y }}\n\n{{ 4 = s1.z }}\n"
    spans = fence_spans(text)
    numbers = find_checked_numbers(text, "docs/p.md")
    assert [n.expression for n in numbers] == ["s1.y", "s1.z"]
    assert not any(start <= n.start < end for n in numbers for start, end in spans)


def test_exec_is_read_as_markdown_exec_reads_it():
    for attrs, executed in [('exec="on"', True), ("exec=1", True), ('exec="yes"', True), ('exec="off"', False),
                            ('exec="false"', False), ("exec=0", False), ("", False)]:  # fmt: skip
        (fence,) = find_fences([f"```python {attrs}", "x", "```"])
        assert fence.executed is executed, attrs
