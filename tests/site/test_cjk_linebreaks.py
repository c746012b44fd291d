from transformer_site.publishing.linebreaks import join_wide_line_breaks


def test_break_between_japanese_characters_is_removed():
    assert join_wide_line_breaks("<p>これは\n  本です。</p>") == "<p>これは本です。</p>"


def test_break_next_to_latin_or_markup_is_kept():
    html = "<p>W_Q\nの列と\n<span>値</span>、\nQ の行</p>"
    assert join_wide_line_breaks(html) == html


def test_verbatim_elements_are_untouched():
    html = "<pre><code># 日本\n語</code></pre><p>日本\n語</p><svg><text>日\n本</text></svg>"
    expected = "<pre><code># 日本\n語</code></pre><p>日本語</p><svg><text>日\n本</text></svg>"
    assert join_wide_line_breaks(html) == expected


def test_full_width_punctuation_counts_as_wide():
    assert join_wide_line_breaks("<p>(例: 文1)。\n次に</p>") == "<p>(例: 文1)。次に</p>"
