"""One term, every spelling: katakana and English spellings of the site's terms find each other in search.

The spellings come from one table, the glossary (``transformer_pages.reference.glossary.TERMS``): each term's
written forms, its English name (and the alternatives its parentheses list: "mask (causal mask)" gives "mask"
and "causal mask") and the spellings a reader may type that the prose does not write (``search_also``:
ソフトマックス for softmax, レイヤー正規化 for LayerNorm). A section of the search index that contains one
spelling of a term gets the others in two extra fields, ``title_aliases`` and ``aliases`` (weighted as its title
and its text), cut the way the search cuts them: Japanese as bigrams, Latin as words. The visible title and text
are untouched, so a preview shows what the page says.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

ALIAS_FIELDS = {"title_aliases": {"boost": 1000.0}, "aliases": {"boost": 1.0}}
_LATIN = re.compile(r"^[\x00-\x7f]+$")


def _english_names(english: str) -> list[str]:
    """"mask (causal mask)" → ["mask", "causal mask"]; "A (b, c)" → ["A", "b", "c"]."""
    head, _, rest = english.partition("(")
    names = [head.strip()] + [part.strip() for part in rest.rstrip(")").split(",")]
    return [name for name in names if name]


@functools.cache
def spelling_groups() -> tuple[frozenset[str], ...]:
    """Every glossary term's spellings (forms, English names, search spellings), one set per term."""
    from transformer_pages.reference.glossary import TERMS

    return tuple(groups_of(TERMS))


def groups_of(terms: Iterable) -> list[frozenset[str]]:
    groups = []
    for term in terms:
        spellings = {term.headword, *term.forms, *_english_names(term.english), *term.search_also}
        groups.append(frozenset(s for s in spellings if s.strip()))
    return groups


def _key(spelling: str) -> str:
    return spelling.lower() if _LATIN.match(spelling) else spelling


@functools.cache
def _word(spelling: str) -> re.Pattern:
    return re.compile(r"(?<![a-z0-9])" + re.escape(spelling.lower()) + r"(?![a-z0-9])")


def _writes(text: str, lower: str, spelling: str) -> bool:
    """Does the text write this spelling? Latin spellings as whole words, in any case."""
    if not _LATIN.match(spelling):
        return spelling in text
    return spelling.lower() in lower and _word(spelling).search(lower) is not None


def other_spellings(text: str, groups: tuple[frozenset[str], ...]) -> list[str]:
    """The spellings of every term ``text`` mentions, except those it already writes, in a stable order."""
    lower = text.lower()
    out: list[str] = []
    for group in groups:
        spellings = sorted(group)
        written = [_writes(text, lower, s) for s in spellings]
        if any(written):
            out += [s for s, hit in zip(spellings, written, strict=True) if not hit]
    return list(dict.fromkeys(out))


def alias_field(spellings: Iterable[str], bigrams) -> str:
    """The spellings as the search cuts them: Japanese runs as bigrams (``bigrams``), Latin as words."""
    parts: list[str] = []
    for spelling in spellings:
        parts += bigrams(spelling)
        latin = re.sub(r"[^\x00-\x7f]+", " ", spelling).strip()
        if latin:
            parts.append(latin)
    return " ".join(parts)
