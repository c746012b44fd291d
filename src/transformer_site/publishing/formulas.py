"""Formulas typeset when the site is built, so that a reader's browser only draws them.

pymdownx.arithmatex (generic mode) leaves each formula as ``<span class="arithmatex">\\(…\\)</span>`` (inline) or
``<div class="arithmatex">\\[…\\]</div>`` (display). :func:`typeset_page` replaces the TeX inside each by KaTeX's
HTML and MathML (MathML for screen readers, HTML for the eye) and marks the element ``data-typeset="done"``, as
``docs/assets/javascripts/katex-init.js`` did in the browser before: the same KaTeX (the copy the site vendors,
``docs/assets/vendor/katex/katex.min.js``), the same options, run in V8 through mini-racer. The page's first paint
then shows finished formulas, with no script to run and nothing moving once the fonts are in; the browser loads
KaTeX's script only where a panel typesets what it draws.

A formula KaTeX cannot parse is a failure of the build (reported to the build's ``Failures``), named by its page
and TeX. The search index is made from the page before this runs (Material's search plugin reads the content when
the page's context is made; the pipeline's step ``typeset_formulas`` runs on the page's final HTML), so it keeps
the TeX and not KaTeX's markup.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from transformer_site.failures import Failures

KATEX = Path(__file__).resolve().parents[3] / "docs" / "assets" / "vendor" / "katex" / "katex.min.js"
# KaTeX's options: those katex-init.js used in the browser (a site test holds the two equal).
OPTIONS = {"throwOnError": True, "strict": "error", "trust": False, "output": "htmlAndMathml"}
_FORMULA = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
_DELIMITERS = (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$"))
_RENDER_ALL = """
function tmRenderAll(items, options) {
  return items.map(function (item) {
    var opts = Object.assign({}, options, {displayMode: item[1]});
    try { return [true, katex.renderToString(item[0], opts)]; }
    catch (err) { return [false, String(err && err.message || err)]; }
  });
}
"""


class MathError(ValueError):
    """A formula KaTeX cannot typeset."""


def strip_delimiters(text: str) -> str:
    """The TeX of a formula without the delimiters arithmatex kept around it."""
    t = text.strip()
    for opening, closing in _DELIMITERS:
        if t.startswith(opening) and t.endswith(closing) and len(t) >= len(opening) + len(closing):
            return t[len(opening) : len(t) - len(closing)]
    return t


@functools.cache
def _context():
    from py_mini_racer import MiniRacer

    context = MiniRacer()
    context.eval(KATEX.read_text(encoding="utf-8"))
    context.eval(_RENDER_ALL)
    return context


@functools.lru_cache(maxsize=20000)
def _typeset_one(tex: str, display: bool) -> str:
    return _typeset_many(((tex, display),))[0]


def _typeset_many(items: tuple[tuple[str, bool], ...]) -> list[str]:
    results = _context().call("tmRenderAll", [list(item) for item in items], OPTIONS)
    out = []
    for (tex, _), (ok, text) in zip(items, results, strict=True):
        if not ok:
            raise MathError(f"KaTeX cannot typeset {tex!r}: {text}")
        out.append(text)
    return out


BREAKABLE = "tm-breaks"
"""Class of a display formula that may break between its terms (site.css lets its lines wrap)."""
# A formula laid out in lines of its own (aligned, gathered, …) keeps them: KaTeX typesets it in display mode.
_LINES = re.compile(r"\\begin\{(?:aligned|alignedat|gathered|split|align|gather)\*?\}")


def typeset(tex: str, display: bool) -> str:
    """KaTeX's HTML for one formula (cached: many formulas repeat across pages).

    A display formula written on one line (not in aligned lines of its own) is typeset as KaTeX typesets running
    text, in display style: KaTeX then lets a line break after each top-level relation and binary operator
    (``=``, ``+``, …), so on a phone a chain of equalities continues on the next line at an ``=`` instead of running
    past the column. Where the column is wide enough it looks as display mode does, centred on its own line.
    """
    if not display or _LINES.search(tex):
        return _typeset_one(tex, display)
    inner = _typeset_one("\\displaystyle " + tex, False)
    return f'<span class="katex-display {BREAKABLE}">{inner}</span>'



def typeset_page(page_html: str, where: str = "<page>", failures: Failures | None = None) -> str:
    """``page_html`` with every arithmatex formula typeset; a formula KaTeX rejects is reported to ``failures``
    (the build's) and left as it is."""
    failures = Failures() if failures is None else failures

    def one(m: re.Match) -> str:
        tag, body = m.group(1), m.group(2)
        tex = strip_delimiters(html.unescape(body))
        try:
            rendered = typeset(tex, display=tag == "div")
        except MathError as err:
            failures.report(f"{where}: {err}")
            return m.group(0)
        return f'<{tag} class="arithmatex" data-typeset="done">{rendered}</{tag}>'

    return _FORMULA.sub(one, page_html)
