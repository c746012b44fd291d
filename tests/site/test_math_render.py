"""Formulas typeset at build time (transformer_site.publishing.formulas): KaTeX's HTML in place of the TeX, marked
typeset; a formula KaTeX rejects fails the build, named by page and TeX; the options are those the browser uses for
what a panel draws (docs/assets/javascripts/katex-init.js)."""

from __future__ import annotations

import re
from pathlib import Path

from transformer_site.failures import Failures
from transformer_site.publishing import formulas

REPO = Path(__file__).resolve().parents[2]


def test_inline_and_display_formulas_are_typeset_and_marked():
    page = ('<p>値 <span class="arithmatex">\\(\\sqrt{d_k} &lt; 3\\)</span></p>\n'
            '<div class="arithmatex">\\[QK^\\top\\]</div>')  # fmt: skip
    out = formulas.typeset_page(page)
    assert out.count('data-typeset="done"') == 2
    inline, display = re.findall(r'<(span|div) class="arithmatex" data-typeset="done">(.*?)</\1>', out, re.S)[:2]
    assert inline[1].startswith('<span class="katex"><span class="katex-mathml"><math')
    assert "<annotation encoding=\"application/x-tex\">\\sqrt{d_k} &lt; 3</annotation>" in inline[1]  # unescaped TeX
    assert display[1].startswith('<span class="katex-display tm-breaks">')
    assert "\\(" not in out and "\\[" not in out


def test_a_one_line_display_formula_may_break_and_aligned_lines_stay_as_written():
    """A chain of equalities is typeset in display style as running text (KaTeX breaks it after = or + where the
    column is narrow); a formula in aligned lines of its own keeps display mode."""
    chain = formulas.typeset("a = b + c = d", display=True)
    assert chain.startswith('<span class="katex-display tm-breaks"><span class="katex">')
    assert chain.count('class="katex-base"') == 4  # a line may break between these: a =, b +, c =, d
    assert 'displaystyle="true"' in chain  # fractions and sums drawn as in display mode
    aligned = formulas.typeset("\\begin{aligned} a &= b \\\\ &= c \\end{aligned}", display=True)
    assert aligned.startswith('<span class="katex-display"><span class="katex">')
    assert formulas.typeset("a = b", display=False).startswith('<span class="katex">')


def test_a_formula_katex_rejects_is_a_failure_of_the_build():
    failures = Failures()
    page = '<p><span class="arithmatex">\\(\\nosuchmacro x\\)</span></p>'
    assert formulas.typeset_page(page, "docs/x.md", failures) == page  # left as it was, and reported
    reported = failures.reported()
    assert len(reported) == 1 and reported[0].startswith("docs/x.md: KaTeX cannot typeset '\\\\nosuchmacro x'")


def test_the_options_are_those_of_the_browser():
    script = (REPO / "docs" / "assets" / "javascripts" / "katex-init.js").read_text(encoding="utf-8")
    for name, value in formulas.OPTIONS.items():
        shown = f'"{value}"' if isinstance(value, str) else str(value).lower()
        assert f"{name}: {shown}" in script, name


def test_delimiters_are_stripped():
    assert formulas.strip_delimiters(" \\(x\\) ") == "x"
    assert formulas.strip_delimiters("\\[x\\]") == "x" and formulas.strip_delimiters("$$x$$") == "x"
