from transformer_site.publishing.api_docs import escape_raw_text_tags, tags_as_text


def test_tags_mentioned_in_docstrings_become_text():
    text, count = escape_raw_text_tags("<p>outside <pre>, <script>, <style> and </textarea></p>")
    assert count == 3
    assert text == "<p>outside <pre>, &lt;script&gt;, &lt;style&gt; and &lt;/textarea&gt;</p>"


def test_only_mkdocstrings_pages_are_touched():
    plain = "<p><script>alert(1)</script></p>"
    assert tags_as_text(plain, "x.md") == plain
    api = '<div class="doc doc-contents"><script></div>'
    assert "&lt;script&gt;" in tags_as_text(api, "x.md")
