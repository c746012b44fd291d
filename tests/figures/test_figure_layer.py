"""The figure layer's guarantees: deterministic SVG, Japanese as text, no tofu, palette-following ink, alt text."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from transformer_figures import (
    INK,
    MissingGlyphError,
    figure_html,
    heatmap,
    new_figure,
    tabs_html,
    to_svg,
)

WORDS = ["これ", "は", "美しい", "花", "です"]


def _heatmap_figure(seed: int = 0):
    matrix = np.random.default_rng(seed).normal(size=(5, 5))
    fig, ax = new_figure(4, 4)
    heatmap(ax, matrix, WORDS, WORDS, fmt="{:+.2f}", center=0.0, title="ヘッド 0")
    return fig


_SUBPROCESS_RENDER = """
import numpy as np
from transformer_figures import heatmap, new_figure, to_svg
matrix = np.random.default_rng(0).normal(size=(5, 5))
fig, ax = new_figure(4, 4)
words = ["これ", "は", "美しい", "花", "です"]
heatmap(ax, matrix, words, words, fmt="{:+.2f}", center=0.0, title="ヘッド 0")
print(to_svg(fig), end="")
"""


@pytest.mark.repeat
def test_svg_is_byte_identical_across_processes():
    here = to_svg(_heatmap_figure())
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _SUBPROCESS_RENDER],
            capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        for seed in ("1", "2")
    }  # fmt: skip
    assert outputs == {here}


def test_japanese_stays_text_with_generic_fallback_and_page_colour():
    svg = to_svg(_heatmap_figure())
    assert ">美しい</text>" in svg
    family = re.search(r"font-family: ([^\"]+)\"", svg).group(1)
    assert family.startswith("'IPAexGothic'") and family.rstrip("; ").endswith("sans-serif")
    assert "currentColor" in svg and INK not in svg
    assert "Matplotlib" not in svg and "<metadata" not in svg and "<style" not in svg


def test_missing_glyph_is_an_error_naming_the_figure():
    fig, ax = new_figure(3, 2)
    ax.set_title("ꙮ")  # U+A66E: not in IPAexGothic
    with pytest.raises(MissingGlyphError, match=r"scores-heatmap.*MULTIOCULAR O"):
        to_svg(fig, what="scores-heatmap")


def test_two_figures_on_one_page_share_no_id():
    ids = [set(re.findall(r' id="([^"]+)"', to_svg(_heatmap_figure(seed)))) for seed in (0, 1)]
    assert ids[0] and ids[1] and not ids[0] & ids[1]
    svg = to_svg(_heatmap_figure())
    for ref in re.findall(r"url\(#([^)]+)\)", svg):
        assert f'id="{ref}"' in svg


def test_figure_html_carries_alt_text_and_rejects_empty_alt():
    out = figure_html(_heatmap_figure(), alt="文1 のスコア")
    assert '<svg role="img" aria-label="文1 のスコア"' in out
    assert "<title>文1 のスコア</title>" in out
    with pytest.raises(ValueError, match="alt"):
        figure_html(_heatmap_figure(), alt=" ")


def test_figure_text_stays_out_of_the_search_index():
    out = figure_html(_heatmap_figure(), alt="文1 のスコア")
    assert out.startswith('<figure class="tf-figure" data-search-exclude>')


def test_heatmap_rejects_label_shape_mismatch():
    _fig, ax = new_figure(3, 3)
    with pytest.raises(ValueError, match=r"shape \(5, 5\).*4 row labels"):
        heatmap(ax, np.zeros((5, 5)), WORDS[:4], WORDS)


def test_heatmap_prints_every_value_with_typographic_minus():
    _fig, ax = new_figure(3, 3)
    matrix = np.array([[-1.5, 0.25], [2.0, -0.125]])
    heatmap(ax, matrix, ["a", "b"], ["c", "d"], fmt="{:+.2f}")
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted(["−1.50", "+0.25", "+2.00", "−0.12"])


def test_tabs_html_has_one_radio_label_and_block_per_tab():
    out = tabs_html({"文1": "<p>a</p>", "文2": "<p>b</p>", "文3": "<p>c</p>"}, name="s")
    assert out.count('type="radio"') == 3 and out.count("<label") == 3 and out.count("tabbed-block") == 3
    assert out.count("checked=") == 1 and 'data-tabs="s:3"' in out
    with pytest.raises(ValueError, match="tabs"):
        tabs_html({})


def test_markdown_table_aligns_and_escapes_pipes():
    from transformer_figures import markdown_table

    text = markdown_table(["a", "|x|"], [["1", "|Δθ|"]], "lr")
    assert text.splitlines() == ["| a | \\|x\\| |", "|---|---:|", "| 1 | \\|Δθ\\| |"]
    with pytest.raises(ValueError, match="align"):
        markdown_table(["a"], [["1"]], "c")
    with pytest.raises(ValueError, match="every row"):
        markdown_table(["a", "b"], [["1"]])


def test_figure_tabs_needs_an_alt_text_for_every_tab():
    from transformer_figures import figure_tabs

    with pytest.raises(ValueError, match="same tabs"):
        figure_tabs(lambda: None, {"文1": ()}, {"文2": "図"}, name="t")
