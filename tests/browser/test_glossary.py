"""The glossary in the built site: the 用語集 page lists every term with its English name and a link that resolves,
every other page has its terms wrapped only where they may be (whole terms: 「Tab キー」 on the index is no term),
and a term's name and definition show on hover (1280 px) and on focus or a tap (390 px), inside the screen, in both
palettes, on an opaque sheet, with its text and dotted underline contrasted like body text.

Uses the one shared strict build (tests/browser/conftest.py; ``SITE_DIR=<dir>`` tests an already built site).
"""

from __future__ import annotations

import html
import posixpath
from html.parser import HTMLParser
from pathlib import Path

import pytest
from page_scripts import with_helpers
from test_figure_contrast import contrast
from walk import reading_context

from transformer_pages.reference.glossary import TERMS, in_order
from transformer_site.glossary import GLOSSARY_PAGE

pytestmark = [pytest.mark.browser, pytest.mark.build]

GLOSSARY_URL = GLOSSARY_PAGE.removesuffix(".md") + "/"
TERM_PAGE = "notes/03-attention/"  # a notes page with many terms in its first paragraphs
FORBIDDEN_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "a", "code", "pre", "th", "figure", "svg", "summary", "button"}
FORBIDDEN_CLASSES = {"arithmatex", "checked-number", "admonition-title", "block-map"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Page(HTMLParser):
    """The article's glossary terms with their ancestors; ids; the glossary's entries and links."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, set[str]]] = []
        self.terms: list[tuple[str, list[tuple[str, set[str]]]]] = []  # (data-term, ancestors)
        self.ids: set[str] = set()
        self.entries: list[tuple[str, str]] = []  # glossary page: (dt id, dt text)
        self.links: list[str] = []  # hrefs inside <dd>
        self._dt: str | None = None
        self._dt_text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "abbr" and "glossary-term" in (a.get("class") or "").split():
            self.terms.append((a.get("data-term", ""), list(self.stack)))
        if tag == "dt" and any(t == "dl" and "glossary" in c for t, c in self.stack):
            self._dt, self._dt_text = a.get("id", ""), ""
        if tag == "a" and any(t == "dd" for t, _ in self.stack):
            self.links.append(a.get("href", ""))
        if tag not in VOID:
            self.stack.append((tag, set((a.get("class") or "").split())))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag == "dt" and self._dt is not None:
            self.entries.append((self._dt, self._dt_text.strip()))
            self._dt = None

    def handle_data(self, data):
        if self._dt is not None:
            self._dt_text += data


def _parse(site: Path, path: str) -> _Page:
    parser = _Page()
    parser.feed((site / path / "index.html").read_text(encoding="utf-8"))
    return parser


def test_the_glossary_page_lists_every_term_in_order_and_every_link_resolves(shared_site: Path):
    page = _parse(shared_site, GLOSSARY_URL)
    assert [key for key, _ in page.entries] == [t.key for t in in_order()]
    for (_, text), term in zip(page.entries, in_order(), strict=True):
        assert text.startswith(term.headword), (text, term.headword)
    assert len(page.links) == len(TERMS)
    for href in page.links:
        target, _, anchor = href.partition("#")
        resolved = posixpath.normpath(posixpath.join(GLOSSARY_URL, target))
        assert (shared_site / resolved / "index.html").is_file(), f"{href}: no page {resolved}"
        if anchor:
            assert anchor in _parse(shared_site, resolved).ids, f"{href}: no element with id {anchor!r}"
    assert page.terms == []  # the glossary itself wraps nothing
    text = (shared_site / GLOSSARY_URL / "index.html").read_text(encoding="utf-8")
    english = [t for t in TERMS if t.english != t.headword]
    assert text.count('<span class="glossary__english" lang="en">') == len(english)
    for term in english:
        assert f'lang="en">{html.escape(term.english, quote=False)}</span>' in text, term.headword


def test_tab_key_on_the_index_is_not_the_attention_key(shared_site: Path):
    """The index tells how to reach a term with the Tab キー: that キー is the keyboard's, not the attention's."""
    text = (shared_site / "index.html").read_text(encoding="utf-8")
    assert "Tab キー" in text
    assert 'Tab <abbr class="glossary-term"' not in text


def test_terms_are_wrapped_once_per_page_and_only_in_running_prose(shared_site: Path, shared_pages: list[str]):
    pages_with_terms = 0
    for path in shared_pages:
        if path == GLOSSARY_URL:
            continue
        page = _parse(shared_site, path)
        keys = [key for key, _ in page.terms]
        assert len(keys) == len(set(keys)), f"{path}: a term wrapped twice: {keys}"
        for key, ancestors in page.terms:
            bad = [t for t, c in ancestors if t in FORBIDDEN_TAGS or c & FORBIDDEN_CLASSES]
            assert not bad, f"{path}: term {key} wrapped inside {bad}"
        pages_with_terms += bool(keys)
    notes = [p for p in shared_pages if p.startswith("notes/")]
    assert all(_parse(shared_site, p).terms for p in notes), "a notes page without any glossary term"
    assert pages_with_terms >= len(shared_pages) // 2


TOOLTIP = with_helpers("""(el) => {
  /* helpers */
  const tip = document.querySelector('#tm-tip:not([hidden])');
  const s = getComputedStyle(el);
  const bg = behind(el);  // colours with alpha are measured as painted over what they stand on
  const out = {
    text: blend(rgba(s.color), bg), line: blend(rgba(s.textDecorationColor), bg), style: s.textDecorationStyle, bg,
    focused: document.activeElement === el, tip: null,
  };
  if (tip) {
    const r = tip.getBoundingClientRect();
    const t = getComputedStyle(tip);
    out.tip = {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
               name: tip.querySelector('.tm-tip__name').textContent,
               text: tip.querySelector('.tm-tip__body').textContent,
               fg: blend(rgba(t.color), behind(tip)), bg: rgba(t.backgroundColor), size: parseFloat(t.fontSize)};
  }
  return out;
}""")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_a_term_shows_its_definition_inside_the_screen(shared_browser, shared_server, width: int, scheme: str):
    phone = width < 600
    height = 844 if phone else 900
    context = reading_context(shared_browser,
        viewport={"width": width, "height": height}, color_scheme=scheme, has_touch=phone, is_mobile=phone,
        locale="ja-JP",
    )  # fmt: skip
    page = context.new_page()
    try:
        page.goto(shared_server + TERM_PAGE, wait_until="networkidle")
        page.wait_for_load_state("load")  # network idle may come before the parser ends
        terms = page.locator("article abbr.glossary-term:visible")
        assert terms.count() >= 5
        for index in (0, terms.count() - 1):  # the first term and the last (deep in the page, near an edge)
            term = terms.nth(index)
            assert term.get_attribute("tabindex") == "0"
            name = html.unescape(term.get_attribute("data-name") or "")
            definition = html.unescape(term.get_attribute("data-def") or "")
            assert name and definition, "the term carries no name or definition for the tooltip"
            term.scroll_into_view_if_needed()
            page.mouse.move(0, 0)
            if phone:
                term.tap()
            else:
                term.hover()
            page.wait_for_selector("#tm-tip:not([hidden])", timeout=5000)
            seen = term.evaluate(TOOLTIP)
            tip = seen["tip"]
            assert tip is not None and tip["name"] == name and tip["text"] == definition
            assert 0 <= tip["left"] and tip["right"] <= width, f"tooltip {tip} leaves the {width} px screen"
            assert 0 <= tip["top"] and tip["bottom"] <= height, f"tooltip {tip} leaves the screen's height"
            assert tip["size"] >= 12, "the definition is smaller than 12 px"
            assert tip["bg"][3] == 1, f"the tooltip is not opaque: {tip['bg']}"
            assert contrast(tip["fg"], tip["bg"][:3]) >= 4.5
            if phone:
                assert seen["focused"], "a tap did not focus the term"
            assert seen["style"] == "dotted"  # not told apart by colour alone
            assert contrast(seen["text"], seen["bg"]) >= 4.5
            assert contrast(seen["line"], seen["bg"]) >= 4.5
            if not phone:
                page.mouse.move(0, 0)
                term.evaluate("el => el.blur()")
                page.wait_for_selector("#tm-tip", state="hidden", timeout=5000)
    finally:
        context.close()


def test_keyboard_focus_shows_the_definition(shared_browser, shared_server):
    context = reading_context(shared_browser, viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = context.new_page()
    try:
        page.goto(shared_server + TERM_PAGE, wait_until="networkidle")
        page.wait_for_load_state("load")  # network idle may come before the parser ends
        for _ in range(200):  # Tab through the page until the first term has the focus
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('glossary-term')"):
                break
        else:
            pytest.fail("Tab never reached a glossary term")
        page.wait_for_selector("#tm-tip:not([hidden])", timeout=5000)
        described = page.evaluate("document.activeElement.getAttribute('aria-describedby')")
        assert described and page.locator(f"#{described}").is_visible()
        page.keyboard.press("Escape")  # closes the tooltip, the focus stays on the term
        page.wait_for_selector(f"#{described}", state="hidden", timeout=5000)
        assert page.evaluate("document.activeElement.classList.contains('glossary-term')")
    finally:
        context.close()
