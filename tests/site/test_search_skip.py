"""Figures set aside while the search plugin reads a page (transformer_site.search.skip): same index, figures back."""

from __future__ import annotations

import numpy as np
import pytest
from material.plugins.search.plugin import Parser

from transformer_figures import figure_html, heat_figure, heat_table, new_figure
from transformer_site.failures import BuildError
from transformer_site.search.skip import put_back, take_out


def _page() -> str:
    heat = figure_html(heat_figure(heat_table(np.eye(2), ["これ", "は"], ["a", "b"])), alt="表の説明")
    fig, ax = new_figure(2.0, 1.5)
    ax.plot([0, 1], [1, 0], label="線")
    ax.set_title("図の題")
    svg = figure_html(fig, alt="図の説明", caption="キャプション")
    return (
        '<h1 id="t">題</h1>\n<p>本文の 正規化 について。</p>\n' + heat + "\n<h2 id=\"s\">節</h2>\n<p>つづき</p>\n" + svg
        + "\n<p>おわり 1.00</p>"
    )  # fmt: skip


def _sections(html: str) -> list[tuple[str | None, str, str]]:
    parser = Parser()
    parser.feed(html)
    parser.close()
    return [(s.id, "".join(s.title), "".join(s.text)) for s in parser.data if not s.is_excluded()]


def test_the_search_plugin_reads_the_same_sections_without_the_figures():
    page = _page()
    stripped, figures = take_out(page)
    assert len(figures) == 2 and "<table" not in stripped and "<svg" not in stripped
    assert _sections(stripped) == _sections(page)
    assert any("正規化" in text for _, _, text in _sections(page))


def test_put_back_restores_the_page_byte_for_byte():
    page = _page()
    stripped, figures = take_out(page)
    assert put_back(stripped, figures, "p.md") == page


def test_a_lost_placeholder_is_an_error_naming_the_page():
    stripped, figures = take_out(_page())
    broken = stripped.replace("<!-- tf-search-skip 1 -->", "")
    with pytest.raises(BuildError, match=r"search_skip: notes/p\.md: 2 figures were set aside, 1 placeholders"):
        put_back(broken, figures, "notes/p.md")


def test_a_lesson_page_keeps_code_tab_labels_and_the_block_map_out_of_the_index():
    """A result's preview is the start of its section's text: on a lesson page it is prose, never code; an API
    page keeps its code (it is what the page documents). Everything comes back in the built page."""
    page = (
        '<nav class="block-map block-map--small" aria-label="地図"><p>ブロックの地図</p><ol><li>1埋め込み</li></ol>'
        '<p class="block-map__note">読む目安 約 5 分</p></nav>\n<h2 id="s">節</h2>\n<p>マスクの説明。</p>\n'
        '<div class="tabbed-set"><div class="tabbed-labels"><label for="exec-1--__tabbed_1_1">ソース</label>'
        '<label for="exec-1--__tabbed_1_2">結果</label></div>\n<div class="tabbed-content"><div class="tabbed-block">'
        '<div class="highlight"><pre><span></span><code>import numpy as np\n</code></pre></div></div></div></div>'
    )  # fmt: skip
    stripped, parts = take_out(page)
    texts = " ".join(text for _, _, text in _sections(stripped))
    assert "マスクの説明" in texts
    assert not any(word in texts for word in ("import", "ソース", "結果", "ブロックの地図", "読む目安")), texts
    assert put_back(stripped, parts, "p.md") == page
    api_stripped, _ = take_out(page, lesson=False)
    assert "import numpy" in " ".join(text for _, _, text in _sections(api_stripped))
