"""Katakana and English spellings of a term find each other: the spelling groups come from the glossary, and a
section that writes one spelling gets the others in its alias fields, cut as the search cuts them."""

from __future__ import annotations

from transformer_pages.reference.glossary import TERMS
from transformer_site.search import spellings as sp
from transformer_site.search.japanese import bigrams, query_terms


def _group_with(spelling: str) -> frozenset[str]:
    found = [g for g in sp.spelling_groups() if spelling in g]
    assert len(found) == 1, f"{spelling!r} is in {len(found)} spelling groups"
    return found[0]


def test_every_term_gives_one_group_of_its_forms_english_names_and_search_spellings() -> None:
    assert len(sp.spelling_groups()) == len(TERMS)
    assert {"softmax", "ソフトマックス", "softmax function"} <= _group_with("ソフトマックス")
    assert {"LayerNorm", "層正規化", "layer normalization", "レイヤー正規化"} <= _group_with("LayerNorm")
    assert {"マスク", "因果マスク", "mask", "causal mask"} <= _group_with("マスク")
    assert {"勾配", "gradient"} <= _group_with("勾配")
    assert {"アテンション", "attention", "注意機構"} <= _group_with("アテンション")


def test_a_section_gets_the_spellings_it_does_not_write() -> None:
    groups = sp.spelling_groups()
    others = sp.other_spellings("各行を softmax で重みにする", groups)
    assert "ソフトマックス" in others and "softmax" not in others
    # Latin spellings match whole words only, in any case
    assert "ソフトマックス" not in sp.other_spellings("softmaxes", groups)
    assert "レイヤー正規化" in sp.other_spellings("the LAYERNORM of a row", groups)


def test_the_alias_field_holds_what_a_query_of_another_spelling_asks_for() -> None:
    """Every bigram a katakana query requires is in the alias field of a section written in English, and the
    English word of a section written in katakana."""
    for written, typed in [("softmax", "ソフトマックス"), ("LayerNorm", "レイヤー正規化"), ("gradient", "勾配"),
                           ("attention", "アテンション"), ("ソフトマックス", "softmax")]:  # fmt: skip
        field = sp.alias_field(sp.other_spellings(f"ここで {written} を使う", sp.spelling_groups()), bigrams)
        required = {t.lstrip("+") for t in query_terms(typed).split()}
        assert required <= set(field.lower().split()), f"{typed!r} does not find a section that writes {written!r}"
