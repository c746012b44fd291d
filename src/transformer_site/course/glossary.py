"""The glossary on the site: the 用語集 page from ``transformer_pages.reference.glossary``, and its terms explained
in place.

Two jobs, one table of terms:

- :func:`glossary_markdown`: the glossary page's list (headword, definition, a link to where the term is taught),
  put in at the comment ``<!-- glossary: terms -->`` before Markdown is converted, so MkDocs checks every link
  and anchor like any other link of the page (a wrong one fails the strict build).
- :func:`wrap_terms`: on every lesson page, the *first* occurrence of each term in running prose becomes
  ``<abbr class="glossary-term" tabindex="0" data-name="クエリ (Query)" data-def="…">``. The site's tooltip script
  (``docs/assets/javascripts/tooltips.js``) builds the one tooltip of the page from these attributes when the term
  is hovered, focused or tapped: nothing is mounted per term while the page loads, and there is no ``title`` (the
  browser's own tooltip would show the same text a second time). ``tabindex`` puts it in the keyboard's path.
  Python-Markdown's ``abbr`` cannot do this for Japanese: it matches only between word boundaries, which do not
  exist between two Japanese characters.

A form is a whole term: a Latin form only between non-letters, a katakana form only where no katakana touches it
(ヘッド is not found inside マルチヘッド), and never inside one of the term's ``not_in`` phrases (「Tab キー」 is a
key of the keyboard, not the attention's キー).

Where a term is never wrapped: headings, code, math (KaTeX's source in ``arithmatex``), links, figures, table
header cells, checked numbers (their own tooltip), buttons and labels, admonition and details titles, the block
map, and existing ``abbr``. Only text between tags changes; tags and attributes are copied as they are, so the
search index sees the same text (Material's parser keeps the text of an ``abbr`` and drops the tag).
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterable
from pathlib import Path

from transformer_pages.reference.glossary import TERMS, Term, in_order
from transformer_site.failures import Failures

GLOSSARY_PAGE = "reference/glossary.md"
MARKER = "<!-- glossary: terms -->"

# Elements whose whole content is never searched for terms.
_SKIPPED_TAGS = frozenset(
    "h1 h2 h3 h4 h5 h6 pre code kbd samp script style textarea svg math a abbr button label select option summary "
    "th thead figure figcaption img template noscript".split()
)
# Pages whose text is not a lesson: the API reference is English docstrings about the code.
_UNWRAPPED_PAGES = ("reference/api",)
# …and elements of these classes, whatever their tag.
_SKIPPED_CLASSES = frozenset(
    "arithmatex checked-number admonition-title block-map tabbed-labels headerlink md-source-file".split()
)
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_TAG = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S)
_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_KATAKANA = "\u30a1-\u30fa\u30fc-\u30ff"
_WORD = "A-Za-z0-9_"


def _form_pattern(form: str) -> str:
    """A form as a regular expression: Latin forms as whole words, katakana forms as whole katakana runs."""
    body = re.escape(form)
    if form.isascii():
        return f"(?<![{_WORD}]){body}(?![{_WORD}])"
    if re.fullmatch(f"[{_KATAKANA}]+", form):
        return f"(?<![{_KATAKANA}]){body}(?![{_KATAKANA}])"
    return body


class TermMatcher:
    """Every written form of ``terms`` in one pattern, the longest first (so 残差接続 wins over 残差).

    The ``not_in`` phrases are in the pattern too, mapped to None: where one is written it is matched as a whole
    (it is longer than the form inside it) and left as it is.
    """

    def __init__(self, terms: Iterable[Term] = TERMS):
        self.by_form: dict[str, Term | None] = {}
        for term in terms:
            for form in term.forms:
                self.by_form[form] = term
        for term in terms:
            for phrase in term.not_in:
                self.by_form.setdefault(phrase, None)
        forms = sorted(self.by_form, key=lambda f: (-len(f), f))
        self.pattern = re.compile("|".join(_form_pattern(f) for f in forms)) if forms else None


@functools.cache
def _site_matcher() -> TermMatcher:
    """The matcher of the site's own table, compiled once per build process (not once per page)."""
    return TermMatcher()


def _is_skipped(name: str, attributes: str) -> bool:
    if name in _SKIPPED_TAGS:
        return True
    m = _CLASS.search(attributes)
    if m is None:
        return False
    classes = (m.group(1) or m.group(2) or m.group(3) or "").split()
    return any(c in _SKIPPED_CLASSES for c in classes)


TEXT = {
    "site_only": "このサイトの手作りのモデルだけで使う言葉。",
    "sections": {"latin": "英字で始まる語", "kana": "かなと漢字の語 (五十音順)"},
    "also": " 本文では {forms} とも書きます。",
    "forms_joined": "、",
    "taught_at": " 説明: [{where}]({link})",
}
"""The reader-facing words of the tooltips and of the glossary page's list (its section headings, an entry's
other spellings and the link to where the term is taught)."""


def tooltip_name(term: Term) -> str:
    """The tooltip's first line: the headword and the English name papers and exams use (「クエリ (Query)」)."""
    if term.english == term.headword:
        return term.headword
    return f"{term.headword} ({term.english})"


def tooltip_definition(term: Term) -> str:
    """The tooltip's text after the name: the definition, and for a word of this site only, that it is one."""
    return f"{term.definition} {TEXT['site_only']}" if term.site_only else term.definition


def tooltip_text(term: Term) -> str:
    """All the tooltip says, as one line (what a test or a screen reader reads)."""
    return f"{tooltip_name(term)}: {tooltip_definition(term)}"


def _abbr(form: str, term: Term) -> str:
    name = html.escape(tooltip_name(term), quote=True)
    definition = html.escape(tooltip_definition(term), quote=True)
    return (
        f'<abbr class="glossary-term" tabindex="0" data-term="{term.key}" data-name="{name}"'
        f' data-def="{definition}">{form}</abbr>'
    )


def wrap_terms(page_html: str, matcher: TermMatcher | None = None) -> str:
    """``page_html`` with the first occurrence of each term in running prose wrapped for its tooltip."""
    matcher = matcher or _site_matcher()
    if matcher.pattern is None:
        return page_html
    used: set[str] = set()

    def wrap_text(text: str) -> str:
        def one(m: re.Match) -> str:
            term = matcher.by_form[m.group(0)]
            if term is None or term.key in used:  # a not_in phrase, or a term already explained
                return m.group(0)
            used.add(term.key)
            return _abbr(m.group(0), term)

        return matcher.pattern.sub(one, text)

    pieces: list[str] = []
    position = 0
    skipping: str | None = None  # the tag name of the skipped element we are inside
    depth = 0  # how many elements of that name are open inside it (itself included)
    for tag in _TAG.finditer(page_html):
        text = page_html[position : tag.start()]
        pieces.append(text if skipping else wrap_text(text))
        pieces.append(tag.group(0))
        position = tag.end()
        closing, name, attributes = tag.group(1), (tag.group(2) or "").lower(), tag.group(3) or ""
        if not name or name in _VOID or attributes.rstrip().endswith("/"):
            continue  # a comment, a void element or a self-closed one opens nothing
        if skipping:
            if name == skipping:
                depth += -1 if closing else 1
                if depth == 0:
                    skipping = None
        elif not closing and _is_skipped(name, attributes):
            skipping, depth = name, 1
    tail = page_html[position:]
    pieces.append(tail if skipping else wrap_text(tail))
    return "".join(pieces)


def _relative(target: str, from_page: str) -> str:
    """A docs path (``notes/02-qkv.md#bond-3``) as a Markdown link from ``from_page`` (both under docs/)."""
    import posixpath

    path, _, anchor = target.partition("#")
    link = posixpath.relpath(path, posixpath.dirname(from_page) or ".")
    return f"{link}#{anchor}" if anchor else link


def _section_of(term: Term) -> str:
    """``latin`` for a headword that starts in Latin letters (it has no reading), else ``kana``."""
    return "latin" if not term.reading else "kana"


def page_title(docs_dir: Path, target: str) -> str:
    """The title (first ``# `` line) of the page a term links to, for the link's text; the path if it has none."""
    path = target.partition("#")[0]
    m = re.search(r"^# (.+)$", (docs_dir / path).read_text(encoding="utf-8"), re.M)
    return m.group(1).strip() if m else path


def glossary_markdown(page_uri: str = GLOSSARY_PAGE, docs_dir: Path | None = None) -> str:
    """The glossary's list: the Latin headwords A to Z, then the kana in 五十音 order, each a ``<dt id>``.

    The list is HTML with Markdown inside each ``<dd>`` (``md_in_html``), so the term's anchor is its id and the
    link to where it is taught stays a Markdown link, checked by MkDocs with the page's other links.
    """
    lines: list[str] = []
    section = None
    for term in in_order():
        if _section_of(term) != section:
            if section is not None:
                lines += ["</dl>", ""]
            section = _section_of(term)
            lines += [
                f"## {TEXT['sections'][section]}",
                "",
                '<dl class="glossary" markdown>',
            ]
        forms = [f for f in term.forms if f != term.headword]
        also = TEXT["also"].format(forms=TEXT["forms_joined"].join(forms)) if forms else ""
        reading = f' <span class="glossary__reading">({term.reading})</span>' if term.reading else ""
        english = (
            f' <span class="glossary__english" lang="en">{html.escape(term.english)}</span>'
            if term.english != term.headword
            else ""
        )
        site_only = f" {TEXT['site_only']}" if term.site_only else ""
        link = _relative(term.taught_at, page_uri)
        where = page_title(docs_dir, term.taught_at) if docs_dir else term.taught_at
        taught_at = TEXT["taught_at"].format(where=where, link=link)
        lines += [
            f'<dt id="{term.key}">{html.escape(term.headword)}{reading}{english}</dt>',
            f'<dd markdown="1">{term.definition}{site_only}{also}{taught_at}</dd>',
        ]
    lines += ["</dl>"]
    return "\n".join(lines) + "\n"


def wraps_terms_on(page_uri: str) -> bool:
    """Whether a page's terms are explained in place: every page but the glossary itself and the API reference."""
    return page_uri != GLOSSARY_PAGE and not page_uri.startswith(_UNWRAPPED_PAGES)


def render_glossary_page(markdown: str, page_uri: str, docs_dir: Path, failures: Failures | None = None) -> str:
    """The glossary page's Markdown with the list at its marker; a page without the marker is reported to
    ``failures`` (the build's)."""
    if MARKER not in markdown:
        failures = Failures() if failures is None else failures
        failures.report(f"docs/{page_uri}: the glossary page lost its marker {MARKER}")
        return markdown
    return markdown.replace(MARKER, glossary_markdown(page_uri, docs_dir))
