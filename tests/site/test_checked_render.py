"""Build integration without a build: what render_checked_numbers hands to Markdown, and what Markdown makes."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import markdown

from transformer_math import preset, preset_trace
from transformer_site.checked import render_checked_numbers

REPO = Path(__file__).resolve().parents[2]
S1 = preset_trace(1)


def _html(text: str) -> str:
    return markdown.markdown(text, extensions=["tables", "admonition", "attr_list", "pymdownx.arithmatex"],
                             extension_configs={"pymdownx.arithmatex": {"generic": True}})  # fmt: skip


def test_prose_gets_a_focusable_span_and_math_the_bare_literal(tmp_path):
    page = tmp_path / "p.md"
    text = "値 {{ +3.526 = s1.scores[0, 2, 3] }} と $\\sqrt{d_k} = {{ 2.828 = sqrt(preset.D_K) }}$\n"
    page.write_text(text, encoding="utf-8")
    out = render_checked_numbers(text, page, root=tmp_path)
    label = "文1・ヘッド0 の scores&#91;美しい→花&#93;"
    assert out.startswith(f'値 <span class="checked-number" tabindex="0" data-label="{label}"')
    assert f'data-value="{float(S1.scores[0, 2, 3])!r}"' in out and 'data-expr="s1.scores&#91;0, 2, 3&#93;"' in out
    assert out.endswith(f"$\\sqrt{{d_k}} = {preset.D_K**0.5:.3f}$\n")


def test_table_cell_and_admonition_render_as_html():
    text = "| 組 | scores |\n|---|---|\n| 美しい → 花 | {{ +3.526 = s1.scores[0, 2, 3] }} |\n\n" \
           "!!! note\n    重み {{ 0.912 = s1.attn[0, 0, 3] }}\n"  # fmt: skip
    html = _html(render_checked_numbers(text, "nowhere.md"))
    cell = re.search(r"<td>(<span class=\"checked-number\".*?</span>)</td>", html)
    assert cell and cell[1].endswith(f">{S1.scores[0, 2, 3]:+.3f}</span>")
    assert re.search(r'<div class="admonition note">.*checked-number.*?>0\.912</span>', html, re.DOTALL)


def test_powers_of_ten_become_superscripts_in_prose():
    out = render_checked_numbers("{{ 1.1 × 10^8 = counting.bert_params(configs.BERT_BASE).total }}", "x.md")
    assert out.endswith(">1.1 × 10<sup>8</sup></span>")


def test_errors_are_logged_at_the_source_line_after_front_matter(tmp_path, caplog):
    page = tmp_path / "docs" / "p.md"
    page.parent.mkdir()
    source = "---\ntitle: t\n---\n\n本文\n\n{{ +9.999 = s1.scores[0, 2, 3] }}\n"
    page.write_text(source, encoding="utf-8")
    body = source.split("---\n", 2)[2].lstrip("\n")  # what MkDocs passes after stripping front matter
    with caplog.at_level(logging.ERROR, logger="mkdocs.plugins.transformer_site.checked"):
        out = render_checked_numbers(body, page, root=tmp_path)
    assert [r.getMessage() for r in caplog.records] == [
        f"docs/p.md:7: quoted +9.999, live {S1.scores[0, 2, 3]:+.3f} (s1.scores[0, 2, 3] = {S1.scores[0, 2, 3]:.7g}…)"
    ]
    assert 'class="checked-number checked-number--stale"' in out and ">+9.999</span>" in out


def test_code_is_left_alone():
    text = "`{{ 1.0 = x }}`\n\n```\n{{ 2.0 = y }}\n```\n"
    assert render_checked_numbers(text, "x.md") == text


def test_the_tooltip_is_made_on_demand_by_the_registered_script():
    """No pseudo-element tooltip per number: the page's one tooltip reads the span's data, label first."""
    css = (REPO / "docs" / "assets" / "checked-numbers.css").read_text(encoding="utf-8")
    assert "::after" not in css and "attr(data-" not in css
    js = (REPO / "docs" / "assets" / "javascripts" / "tooltips.js").read_text(encoding="utf-8")
    assert js.index("el.dataset.label") < js.index("el.dataset.value") < js.index("el.dataset.expr")
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for asset in ("assets/checked-numbers.css", "assets/tooltips.css", "assets/javascripts/tooltips.js"):
        assert asset in config
    assert "content.tooltips" not in config  # Material's per-element tooltips would mount on every term again


def test_a_claim_renders_its_words_in_a_span_and_a_citation_as_a_link():
    text = "キー側は{{ どの文でも同じ if notes.qkv.keys_copy_the_noun_dimension() }}です [@vaswani2017, §3.5]。\n"
    out = render_checked_numbers(text, "nowhere.md", page_uri="chapter/01-overview.md")
    assert '<span class="checked-number checked-claim" tabindex="0" data-label="計算で確かめた条件: ' in out
    assert ">どの文でも同じ</span>" in out
    assert '[\\[1, §3.5\\]](../notes/10-references.md#ref-vaswani2017 "Vaswani et al. (2017) Attention Is All' in out
    html = _html(out)
    assert '<a class="citation" href="../notes/10-references.md#ref-vaswani2017"' in html and ">[1, §3.5]</a>" in html


def test_an_entry_line_of_the_references_page_becomes_the_entry():
    from transformer_pages.notes.references import REFERENCES

    lines = "\n\n".join(f"[@{r.key}]:" for r in REFERENCES)
    out = render_checked_numbers(lines, "nowhere.md", page_uri="notes/10-references.md")
    assert out.startswith('<span class="reference-anchor" id="ref-vaswani2017"></span>**[1]** Vaswani, A.')
    assert "(2017). **Attention Is All You Need.** NeurIPS 2017. [arXiv](https://arxiv.org/abs/1706.03762)" in out
