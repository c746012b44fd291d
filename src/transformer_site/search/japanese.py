"""Japanese search that finds terms inside compounds (after Material's search plugin has written its index).

Material's ``lang: ja`` cuts Japanese with TinySegmenter in the browser, so a term inside a longer word
(言語 in 自然言語処理, 処理 in 前処理) is a different token and the search finds nothing. We index every
run of Japanese characters as overlapping character bigrams instead, and make the query side do the same:

- Index (:func:`rewrite_site`, after the build, rewriting ``search/search_index.json``): each section gets two
  extra fields, ``title_grams`` and ``grams``, holding the bigrams of its title and text separated by spaces
  (自然言語処理 → 自然 然言 言語 語処 処理; a one-character run is kept as it is). The visible ``title``
  and ``text`` are untouched, so result previews read as before. ``lang`` becomes ``en`` with only the
  stop-word filter, so no segmenter re-cuts the bigrams and no trimmer strips Japanese characters; the
  separator also splits where Japanese meets Latin (``GELUで`` → ``gelu``, ``で``).
- Previews: the formulas of ``text`` and ``title`` (arithmatex's ``\\(…\\)`` and ``\\[…\\]``) become Unicode
  text with pylatexenc (``\\partial L / \\partial z`` → ``∂L / ∂z``): a result list shows text, not TeX source, and
  what is shown is what is searched. The notebook buttons are kept out of the index at their source
  (``data-search-exclude``, honoured by Material's search plugin).
- Spellings: a section that mentions a glossary term gets its other spellings (katakana, English) in two more
  fields, ``title_aliases`` and ``aliases`` (``search.spellings``), so ソフトマックス finds a page that writes
  softmax.
- Query (the search worker): Material's own step turns each Han run of the query into dictionary words.
  We replace that one expression with the same bigram cut, every bigram required (``+``):
  正規化 → ``+正規 +規化``. A page matches when it contains every bigram of the query.

The worker patch is a text replacement in Material's minified worker; if the expected expression is not
found (a Material upgrade), the build fails with a message saying so instead of silently searching badly.
``TRANSFORMER_SITE_STOCK_SEARCH=1`` skips this step (to measure the stock search for comparison).
"""

from __future__ import annotations

import functools
import html
import json
import logging
import re
from pathlib import Path

from transformer_site import environment
from transformer_site.failures import BuildError
from transformer_site.search.skip import CODE_PAGES
from transformer_site.search.spellings import ALIAS_FIELDS, alias_field, other_spellings, spelling_groups

log = logging.getLogger("mkdocs.plugins.transformer_site.search")

# One definition of "Japanese character" for the index (Python) and the query (JavaScript, same source text):
# ideographs and the iteration marks 々〆, hiragana, katakana without the middle dot ・ (a separator),
# half-width katakana.
CJK_CLASS = "\u3005\u3006\u3041-\u309f\u30a0-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
_CJK_RUN = re.compile(f"[{CJK_CLASS}]+")
# Japanese punctuation, brackets and the middle dot: 、。，．・「」『』（）【】：；！？
_PUNCTUATION_CLASS = (
    "\u3001\u3002\uff0c\uff0e\u30fb\u300c\u300d\u300e\u300f\uff08\uff09\u3010\u3011\uff1a\uff1b\uff01\uff1f"
)
# Material's ja separator plus that punctuation, and a zero-width split wherever a Japanese character meets a
# non-Japanese one. Lookarounds are stripped by Material's highlighter, so the highlight of the query in the page
# still works.
SEPARATOR = (
    r"[\s\-\u3000" + _PUNCTUATION_CLASS + "]+"
    f"|(?<=[{CJK_CLASS}])(?=[^{CJK_CLASS}])|(?<=[^{CJK_CLASS}])(?=[{CJK_CLASS}])"
)
GRAM_FIELDS = {"title_grams": {"boost": 1000.0}, "grams": {"boost": 1.0}}

# The query step in Material 9.x's worker (search.<hash>.min.js): Han runs → dictionary words, joined by "* ".
_STOCK_QUERY_STEP = re.compile(
    r'new RegExp\("\\\\p\{sc=Han\}\+","gu"\),(?P<arg>\w+)=>\[\.\.\.\w+\((?P=arg),this\.index\.invertedIndex\)\]'
    r'\.join\("\* "\)'
)
# Our replacement: each Japanese run → its bigrams, each required; a single character stays as typed.
_BIGRAM_QUERY_STEP = (
    'new RegExp("[' + CJK_CLASS.encode("unicode_escape").decode().replace("\\", "\\\\") + ']+","gu"),'
    's=>{let c=[...s];return c.length<2?s:c.slice(1).map((x,i)=>"+"+c[i]+x).join(" ")}'
)
_TAG = re.compile(r"<[^>]+>")
# arithmatex (generic) writes inline math as \(…\) and display math as \[…\]
_CODE = re.compile(r"(<code\b[^>]*>.*?</code>)", re.DOTALL)
_MATH = re.compile(r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]", re.DOTALL)


def bigrams(text: str) -> list[str]:
    """Overlapping character bigrams of every Japanese run in ``text`` (a one-character run kept whole)."""
    grams: list[str] = []
    for run in _CJK_RUN.findall(text):
        grams.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
    return grams


def query_terms(query: str) -> str:
    """What the patched worker makes of a query (the Python twin of ``_BIGRAM_QUERY_STEP``, for tests)."""

    def cut(match: re.Match) -> str:
        run = match.group(0)
        return run if len(run) < 2 else " ".join("+" + run[i : i + 2] for i in range(len(run) - 1))

    return _CJK_RUN.sub(cut, query)


def plain_text(fragment: str) -> str:
    """The index's text is HTML; the bigrams are cut from what the reader sees."""
    return html.unescape(_TAG.sub(" ", fragment))


@functools.cache
def _tex_as_text(tex: str) -> str:
    from pylatexenc.latex2text import LatexNodes2Text

    text = LatexNodes2Text(math_mode="text", strict_latex_spaces=True).latex_to_text(html.unescape(tex))
    return html.escape(" ".join(text.split()), quote=False)  # the index's text is HTML


def math_as_text(fragment: str) -> str:
    """``fragment`` (index HTML) with each formula as the Unicode text it reads as; code is left as written."""
    parts = _CODE.split(fragment)  # odd parts are <code>…</code>: TeX shown as code stays TeX
    for i in range(0, len(parts), 2):
        parts[i] = _MATH.sub(lambda m: _tex_as_text(m.group("inline") or m.group("display")), parts[i])
    return "".join(parts)


def rewrite_index(index: dict) -> dict:
    """Formulas as text, the gram fields on every section, the config on the bigram scheme (returns ``index``)."""
    if "config" not in index or "docs" not in index:
        raise ValueError(f"search index: expected keys 'config' and 'docs', got {sorted(index)}")
    groups = spelling_groups()
    for doc in index["docs"]:
        for field in ("title", "text"):
            if field in doc:
                doc[field] = math_as_text(doc[field])
        title, text = plain_text(doc.get("title", "")), plain_text(doc.get("text", ""))
        doc["title_grams"] = " ".join(bigrams(title))
        doc["grams"] = " ".join(bigrams(text))
        # the other spellings of the glossary's terms it mentions (softmax → ソフトマックス, LayerNorm → 層正規化);
        # not for the API reference: its English docstrings would answer every katakana query before the lessons
        api = doc.get("location", "").startswith(CODE_PAGES)
        doc["title_aliases"] = "" if api else alias_field(other_spellings(title, groups), bigrams)
        doc["aliases"] = "" if api else alias_field(other_spellings(text, groups), bigrams)
    config = index["config"]
    config["lang"] = ["en"]  # lunr's ja support = TinySegmenter, which would re-cut our bigrams
    config["pipeline"] = ["stopWordFilter"]  # no trimmer: it strips every non-ASCII character
    config["separator"] = SEPARATOR
    config["fields"] = {**config.get("fields", {}), **GRAM_FIELDS, **ALIAS_FIELDS}
    return index


def patch_worker(source: str, name: str) -> str:
    """Replace Material's Han segmentation of the query with the bigram cut; fail if it is not there."""
    patched, count = _STOCK_QUERY_STEP.subn(lambda _: _BIGRAM_QUERY_STEP, source)
    if count != 1:
        raise BuildError(
            f"search_ja: {name}: Material's query segmentation step was found {count} times (expected 1); "
            "the Material version changed — update _STOCK_QUERY_STEP in src/transformer_site/search/japanese.py"
        )
    return patched


def rewrite_site(site: Path) -> None:
    """The built site's search index and worker on the bigram scheme (unless TRANSFORMER_SITE_STOCK_SEARCH=1)."""
    if environment.value("TRANSFORMER_SITE_STOCK_SEARCH"):
        log.info("search_ja: TRANSFORMER_SITE_STOCK_SEARCH=1, leaving Material's search as it is")
        return
    index_path = site / "search" / "search_index.json"
    if not index_path.is_file():
        raise BuildError(f"search_ja: {index_path} not found; is the search plugin enabled?")
    index = rewrite_index(json.loads(index_path.read_text(encoding="utf-8")))
    index_path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    workers = sorted((site / "assets" / "javascripts" / "workers").glob("search.*.min.js"))
    if len(workers) != 1:
        raise BuildError(f"search_ja: expected one search worker in the site, found {[w.name for w in workers]}")
    worker = workers[0]
    source = worker.read_text(encoding="utf-8")
    if _BIGRAM_QUERY_STEP not in source:  # mkdocs serve may keep an already patched copy
        worker.write_text(patch_worker(source, worker.name), encoding="utf-8")
    log.info(f"search_ja: {len(index['docs'])} sections indexed as bigrams; query step patched in {worker.name}")
