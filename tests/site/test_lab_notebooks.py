"""The pieces of the lab-notebook machinery (``transformer_site.lab_notebooks``, ``lab_css``), without a build.

What a lab is, how its Markdown cells become the site's headings and math, the readers' copy with bare literals,
the links and the table of contents, the cache key's dependencies, and the CSS pruning. The builds themselves
(mkdocs-jupyter, the cache across builds, a failing cell) are in ``test_lab_builds.py``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import jupytext
import pytest
from tiny_project import JUPYTEXT_HEADER

from transformer_site import lab_css, lab_notebooks
from transformer_site.figure_cache import DependencyGraph, find_src_root
from transformer_site.lab_notebooks import Lab

REPO = Path(__file__).resolve().parents[2]
LAB = REPO / "docs" / "backprop" / "05-lab.md"


def test_a_lab_is_a_jupytext_page_with_a_python_kernel(tmp_path):
    assert lab_notebooks.is_lab(LAB)
    assert not lab_notebooks.is_lab(REPO / "docs" / "backprop" / "01-loss.md")
    other = tmp_path / "r.md"
    other.write_text(JUPYTEXT_HEADER.format(language="R") + "\n# R\n", encoding="utf-8")
    assert not lab_notebooks.is_lab(other)
    plain_front_matter = tmp_path / "p.md"
    plain_front_matter.write_text("---\ntitle: x\n---\n\n# x\n", encoding="utf-8")
    assert not lab_notebooks.is_lab(plain_front_matter)


def test_headings_get_the_site_ids_and_permalinks_and_math_the_arithmatex_markup():
    ids: set[str] = set()
    text, headings = lab_notebooks.site_markdown("# 学習ラボ\n\n本文 $W_E \\cdot x_{t}$ と\n\n$$\na^2 * b\n$$\n", ids)
    _, found = lab_notebooks.site_markdown("## 1. データ\n\n## まとめ\n", ids)
    # the ids Python-Markdown's toc gives the other pages: a Japanese heading is "_1", "_2", … never empty
    assert [h["id"] for h in headings + found] == ["_1", "1", "_2"]
    assert '<h1 id="_1">学習ラボ<a class="headerlink" href="#_1" title="Permanent link">&para;</a></h1>' in text
    inline = re.search(r'<span class="arithmatex">(.*?)</span>', text)[1]
    display = re.search(r'<div class="arithmatex">(.*?)</div>', text, re.S)[1]
    assert html.unescape(inline) == "\\(W_E \\cdot x_{t}\\)"
    assert html.unescape(display) == "\\[\na^2 * b\n\\]"
    # nothing a Markdown renderer would read is left in the TeX: every such character is an entity
    assert not re.search(r"[\\_*{}$]", inline + display)


def test_the_readers_copy_has_bare_literals():
    text = (
        "損失は {{ 4.72 = backprop.lab.run().initial_loss }} から $L = {{ 0.138 = backprop.lab.run().final_loss }}$。"
    )
    assert lab_notebooks.plain_literals(text, "docs/x.md") == "損失は 4.72 から $L = 0.138$。"


def test_a_citation_is_the_site_s_link_on_the_page_and_its_number_in_the_readers_copy():
    from transformer_site import references

    cited = references.citation_markdown("kingma2015", "Algorithm 1", "backprop/05-lab.md")
    text, _ = lab_notebooks.site_markdown(f"Adam {cited} で $x$ を", set())
    link = re.search(r'<a class="citation" href="([^"]+)" title="[^"]+">\[(\d+), Algorithm 1\]</a>', text)
    assert link and link[1] == "../notes/10-references.md#ref-kingma2015", text
    assert "arithmatex" in text and "{ .citation }" not in text and "\\[" not in text.split("<span")[0]
    plain = lab_notebooks.plain_literals("Adam [@kingma2015, Algorithm 1] と [@he2016]。", "docs/x.md")
    assert plain == f"Adam [{link[2]}, Algorithm 1] と [{references.data.number('he2016')}]。"


def test_toc_tokens_nest_by_level():
    flat = [{"level": 1, "id": "a", "name": "A"}, {"level": 2, "id": "b", "name": "B"},
            {"level": 3, "id": "c", "name": "C"}, {"level": 2, "id": "d", "name": "D"}]  # fmt: skip
    (top,) = lab_notebooks.toc_tokens(flat)
    assert [c["id"] for c in top["children"]] == ["b", "d"]
    assert [c["id"] for c in top["children"][0]["children"]] == ["c"]


def test_links_to_pages_become_their_urls_and_a_missing_page_is_named():
    from mkdocs.structure.files import File, Files

    pages = ("backprop/05-lab.md", "backprop/01-loss.md")
    files = Files([File(uri, "/docs", "/site", use_directory_urls=True) for uri in pages])
    content = '<a href="01-loss.md">1</a> <a href="01-loss.md#_2">2</a> <a href="nowhere.md">3</a> <a href="x.ipynb">'
    out, problems = lab_notebooks.page_links(content, "backprop/05-lab.md", files, "docs/backprop/05-lab.md")
    assert 'href="../01-loss/"' in out and 'href="../01-loss/#_2"' in out and 'href="x.ipynb"' in out
    assert problems == ["docs/backprop/05-lab.md: a link to nowhere.md (docs/backprop/nowhere.md), which is not a page "
                        "of the site"]  # fmt: skip


def test_cdn_loaders_are_dropped_and_the_rest_kept():
    content = (
        '<script src="https://cdnjs.cloudflare.com/mathjax.js"> </script>\n'
        '<script type="text/x-mathjax-config">init_mathjax()</script>\n'
        '<script type="module">const m = await import("https://cdnjs.cloudflare.com/mermaid.mjs");</script>\n'
        "<script>copyButtons()</script><p>本文</p>"
    )
    assert lab_notebooks.without_cdn_scripts(content) == "<script>copyButtons()</script><p>本文</p>"


def test_the_download_sits_beside_the_page():
    assert lab_notebooks.download_uri("backprop/05-lab.md", True) == "backprop/05-lab/05-lab.ipynb"
    assert lab_notebooks.download_uri("backprop/05-lab.md", False) == "backprop/05-lab.ipynb"
    button = lab_notebooks.download_button("backprop/05-lab/", "backprop/05-lab/05-lab.ipynb")
    assert 'href="05-lab.ipynb"' in button and 'download="05-lab.ipynb"' in button


def test_code_cells_are_found_at_their_lines():
    text = LAB.read_text(encoding="utf-8")
    notebook = jupytext.reads(text, fmt="md")
    lines = lab_notebooks.code_cell_lines(text, notebook)
    source_lines = text.split("\n")
    assert len(lines) == len(lab_notebooks.code_cells(notebook)) and all(lines)
    assert all(source_lines[n - 1].startswith("```python") for n in lines)


def test_the_key_follows_the_code_cells_and_the_numbers_expressions():
    graph = DependencyGraph(find_src_root())
    modules = lab_notebooks.expression_modules(["backprop.lab.run().final_loss", "preset.T", "len(sentences)"], graph)
    assert {"transformer_pages.backprop.lab", "transformer_math.preset", "transformer_math"} <= modules
    assert not any(m.startswith(("transformer_figures", "transformer_site")) for m in modules)
    # the lab's own key: its code cells import training and the figures; its numbers read backprop.lab
    cache = lab_notebooks.LabCache(REPO, None)
    lab = Lab(LAB, "backprop/05-lab.md", "docs/backprop/05-lab.md")
    from transformer_site.checked import find_checked_numbers

    numbers = find_checked_numbers(lab.text, lab.shown)
    closure = set(graph.closure("\n".join(c.source for c in lab_notebooks.code_cells(jupytext.reads(lab.text, "md")))))
    assert {"transformer_math.training", "transformer_math.backward", "transformer_figures.backprop_figs"} <= closure
    assert cache.key(lab, numbers) == cache.key(lab, numbers)  # deterministic


def test_a_stale_number_is_refused_before_anything_runs(tmp_path):
    page = tmp_path / "stale.md"
    page.write_text(
        JUPYTEXT_HEADER.format(language="python") + "\n# x\n\n語彙は {{ 17 = preset.VOCAB_SIZE }} 語。\n",
        encoding="utf-8",
    )
    lab = Lab(page, "stale.md", "docs/stale.md")
    with pytest.raises(lab_notebooks.LabError, match=r"docs/stale\.md:16: quoted 17, live 16"):
        lab_notebooks.verified_numbers(lab)


# ------------------------------------------------------------------------------------------------ CSS pruning

PAGE = """<div class="jupyter-wrapper"><div class="jp-Cell jp-CodeCell"><pre class="highlight-ipynb">x</pre>
<a href="#">link</a></div></div>"""
SHEET = """
:root { --jp-used: 1px; --jp-unused: 2px; --jp-chain: var(--jp-used); }
.jupyter-wrapper .jp-Cell { padding: var(--jp-chain); }
.jupyter-wrapper .jp-Dialog { color: red; }
.jupyter-wrapper a:hover { color: blue; }
.jupyter-wrapper .jp-Cell:not(.jp-mod-dirty) { margin: 0; }
[data-md-color-scheme=slate] .jupyter-wrapper .jp-Cell { background: black; }
@media print { .jupyter-wrapper .jp-Cell { display: block; } .jp-Menu { display: none; } }
@media print { .jp-Menu { display: none; } }
.jp-Cell::before { content: ""; }
"""


def test_prune_keeps_what_can_apply_and_drops_the_rest():
    pruned = lab_css.prune(f"<style>{SHEET}</style>{PAGE}")
    (css,) = lab_css.styles(pruned.content)
    assert pruned.content.endswith(PAGE) and pruned.css_before == len(SHEET.encode())
    kept = {
        ".jupyter-wrapper .jp-Cell{padding:var(--jp-chain)}",
        ".jupyter-wrapper a:hover{color:blue}",  # a state of an element the page has
        ".jupyter-wrapper .jp-Cell:not(.jp-mod-dirty){margin:0}",  # :not of an absent class
        "[data-md-color-scheme=slate] .jupyter-wrapper .jp-Cell{background:black}",  # Material's dark palette
        "@media print{.jupyter-wrapper .jp-Cell{display:block}}",
        '.jp-Cell::before{content:""}',
    }
    for rule in kept:
        assert rule in css, rule
    assert "jp-Dialog" not in css and "jp-Menu" not in css
    # custom properties: the used one and the one it is reached through stay, the unused one goes
    assert "--jp-used:1px" in css and "--jp-chain:var(--jp-used)" in css and "--jp-unused" not in css


def test_prune_is_cached_on_the_content(tmp_path):
    first = lab_css.cached_prune(f"<style>{SHEET}</style>{PAGE}", tmp_path)
    assert len(list(tmp_path.glob("css-*.json"))) == 1
    assert lab_css.cached_prune(f"<style>{SHEET}</style>{PAGE}", tmp_path) == first
    lab_css.cached_prune(f"<style>{SHEET}</style>{PAGE}<p>more</p>", tmp_path)
    assert len(list(tmp_path.glob("css-*.json"))) == 2


def test_a_line_the_kernel_sent_in_pieces_is_stored_as_one_output():
    import nbformat

    out = nbformat.v4.new_output
    pieces = [
        out("stream", name="stdout", text="現れた関係:"),
        out("stream", name="stdout", text=" 3 / 16\n"),
        out("stream", name="stderr", text="warning\n"),
        out("display_data", data={"text/plain": "<Figure>"}),
        out("stream", name="stdout", text="after the figure\n"),
    ]
    merged = lab_notebooks.merged_streams(pieces)
    assert [(o["output_type"], o.get("name"), o.get("text")) for o in merged] == [
        ("stream", "stdout", "現れた関係: 3 / 16\n"),
        ("stream", "stderr", "warning\n"),
        ("display_data", None, None),
        ("stream", "stdout", "after the figure\n"),
    ]
