"""The glossary: its table (transformer_pages.reference.glossary), its page, and the wrapping of terms in a page's
HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from transformer_pages.reference import glossary as table
from transformer_pages.reference.glossary import Term
from transformer_site.course import glossary

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

RESIDUAL = Term("残差接続", "ざんさせつぞく", "residual connection", ("残差接続", "残差"),
                "入力を出力に足し戻すつなぎ方。", "notes/05-layernorm1.md")  # fmt: skip
GELU = Term("GELU", "", "Gaussian Error Linear Unit", ("GELU",), "なめらかな活性化関数。", "notes/06-ffn.md")
HEAD = Term("ヘッド", "へっど", "attention head", ("ヘッド",), "注意の計算の一つひとつ。", "notes/02-qkv.md")
FIRING = Term("発火", "はっか", "firing", ("発火",), "出力がしきい値を超えること。", "notes/06-ffn.md", site_only=True)
KEY = Term("キー", "きー", "Key", ("キー",), "探される側のベクトル。", "notes/02-qkv.md", not_in=("Tab キー",))
MATCHER = glossary.TermMatcher((RESIDUAL, GELU, HEAD, FIRING, KEY))


def wrap(html: str) -> str:
    return glossary.wrap_terms(html, MATCHER)


def wrapped(html: str) -> list[str]:
    """The texts that were wrapped, in order."""
    return re.findall(r'<abbr class="glossary-term"[^>]*>([^<]*)</abbr>', wrap(html))


# --- the table --------------------------------------------------------------------------------------------------


def test_the_table_has_no_problems():
    assert table.check_terms() == []
    assert 50 <= len(table.TERMS) <= 80


def test_the_terms_an_exam_asks_for_are_there_with_their_english_names():
    english = {t.headword: t.english for t in table.TERMS}
    for headword in ("BERT", "GPT", "MLM", "NSP", "ドロップアウト", "ラベル平滑化", "自己回帰", "パディング"):
        assert headword in english, headword
    assert english["クエリ"] == "Query"
    assert english["残差接続"] == "residual connection"
    assert english["LayerNorm"] == "layer normalization"
    assert all(t.english and t.english.isascii() for t in table.TERMS)


def test_gelu_is_defined_by_the_normal_distribution_function():
    gelu = next(t for t in table.TERMS if t.headword == "GELU")
    assert "x·Φ(x)" in gelu.definition and "P(Z ≤ x)" in gelu.definition and "標準正規分布" in gelu.definition
    assert "正である" not in gelu.definition


def test_the_checks_name_what_is_wrong():
    bad = (
        Term("勾配", "コウバイ", "gradient", ("勾配",), "傾き。", "backprop/01-loss.md"),
        Term("損失", "", "loss", ("損失",), "外れ具合。", "backprop/01-loss.md"),
        Term("学習率", "がくしゅうりつ", "learning rate", ("勾配",), "0.001 くらいの倍率。", "chapter/07-training.md#"),
        Term("交差エントロピー", "こうさえんとろぴー", "", ("交差エントロピー",), "外れ具合。", "backprop/01-loss.md",
             not_in=("相互情報量",)),
    )  # fmt: skip
    problems = "\n".join(table.check_terms(bad))
    assert "'勾配': reading 'コウバイ' is not hiragana" in problems
    assert "'損失': a headword in Japanese needs a reading" in problems
    assert "'学習率': form '勾配' is also a form of '勾配'" in problems
    assert "'学習率': the definition quotes a number" in problems
    assert "'学習率': empty anchor" in problems
    assert "'交差エントロピー': no English name" in problems
    assert "'交差エントロピー': not_in phrase '相互情報量' contains none of its forms" in problems


def test_every_term_links_to_a_page_of_the_docs():
    for term in table.TERMS:
        path = term.taught_at.partition("#")[0]
        assert (DOCS / path).is_file(), f"{term.headword}: {term.taught_at} is not a page under docs/"


def test_order_is_latin_a_to_z_then_kana_in_gojuon_order():
    ordered = table.in_order()
    latin = [t for t in ordered if not t.reading]
    kana = [t for t in ordered if t.reading]
    assert ordered == (*latin, *kana)
    assert [t.headword.casefold() for t in latin] == sorted(t.headword.casefold() for t in latin)
    assert [t.reading for t in kana] == sorted(t.reading for t in kana)
    assert [t.headword for t in kana[:3]] == ["位置埋め込み", "位置エンコーディング", "意味の特徴"]


def test_keys_are_unique_and_usable_as_ids():
    keys = [t.key for t in table.TERMS]
    assert len(set(keys)) == len(keys)
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", k) for k in keys), keys


# --- wrapping ---------------------------------------------------------------------------------------------------


def test_only_the_first_occurrence_is_wrapped():
    html = "<p>GELU を使う。</p><p>もう一度 GELU。</p>"
    out = wrap(html)
    assert out.count("<abbr") == 1
    assert out.index("<abbr") < out.index("もう一度")


def test_the_longest_form_wins_and_its_part_is_not_wrapped_inside_it():
    assert wrapped("<p>残差接続があるので、残差接続の道は残る。</p>") == ["残差接続"]
    assert wrapped("<p>残差を足す。残差接続。</p>") == ["残差"]  # one term, two forms: the first one used


def test_a_term_between_japanese_characters_is_found():
    assert wrapped("<p>検出器が発火した。</p>") == ["発火"]
    assert wrapped("<p>ここでGELUを通す。</p>") == ["GELU"]


def test_latin_forms_match_whole_words_and_katakana_forms_whole_katakana_runs():
    assert wrapped("<p>GELUS と XGELU は別の語。</p>") == []
    assert wrapped("<p>マルチヘッドの話。</p>") == []
    assert wrapped("<p>各ヘッドの話。</p>") == ["ヘッド"]


def test_a_form_inside_a_longer_word_of_another_meaning_is_not_the_term():
    """「Tab キー」 is a key of the keyboard: the attention's キー is the next one written alone."""
    assert wrapped("<p>Tab キーで移る。</p>") == []
    assert wrapped("<p>Tab キーで移る。キーとクエリ。</p>") == ["キー"]


@pytest.mark.parametrize(
    "inside",
    [
        "<h2 id='x'>{}</h2>",
        "<h3>{} の話</h3>",
        "<code>{}</code>",
        "<pre><code>{}</code></pre>",
        '<span class="arithmatex">\\(\\mathrm{{{}}}\\)</span>',
        '<div class="arithmatex">\\[{}\\]</div>',
        '<a href="x.md">{}</a>',
        '<a href="x.md"><strong>{}</strong></a>',
        '<figure class="tf-figure"><figcaption>{}</figcaption></figure>',
        "<table><thead><tr><th>{}</th></tr></thead></table>",
        '<span class="checked-number" tabindex="0" data-label="{}">{}</span>',
        '<p class="admonition-title">{}</p>',
        "<details><summary>{}</summary></details>",
        '<div class="block-map"><span>{}</span></div>',
        "<svg><text>{}</text></svg>",
        "<abbr title='x'>{}</abbr>",
        "<template><p>{}</p></template>",
    ],
)
def test_never_inside_headings_code_math_links_figures_header_cells_or_checked_numbers(inside):
    html = inside.replace("{}", "GELU")
    assert wrap(html) == html
    # …and the first occurrence after it, in prose, is the one wrapped
    assert wrapped(html + "<p>本文の GELU。</p>") == ["GELU"]
    assert wrap(html + "<p>本文の GELU。</p>").startswith(html)


def test_nested_elements_of_the_skipped_name_do_not_end_the_skip_early():
    html = '<div class="block-map"><div>内</div>GELU</div><p>GELU</p>'
    out = wrap(html)
    assert out.startswith('<div class="block-map"><div>内</div>GELU</div>')
    assert out.count("<abbr") == 1


def test_tags_and_attributes_are_copied_unchanged():
    html = '<p title="GELU の説明" data-x="残差接続">表の <em>GELU</em> と<br>残差接続</p>'
    out = wrap(html)
    assert '<p title="GELU の説明" data-x="残差接続">' in out
    assert re.sub(r"<abbr[^>]*>|</abbr>", "", out) == html  # remove the wrapping: the page is what it was


def test_the_element_is_reachable_by_keyboard_and_carries_the_name_and_the_definition():
    """No title (the browser's own tooltip would repeat it): the page's tooltip reads data-name and data-def."""
    out = wrap("<p>発火する。</p>")
    assert out == (
        f'<p><abbr class="glossary-term" tabindex="0" data-term="{FIRING.key}" data-name="発火 (firing)" '
        f'data-def="出力がしきい値を超えること。 {glossary.TEXT["site_only"]}">発火</abbr>する。</p>'
    )
    other = wrap("<p>残差を足す。</p>")
    assert 'data-name="残差接続 (residual connection)"' in other  # another form: the headword leads
    assert 'data-name="GELU (Gaussian Error Linear Unit)"' in wrap("<p>GELU</p>")


def test_the_api_reference_and_the_glossary_itself_are_not_wrapped():
    assert glossary.wraps_terms_on("notes/03-attention.md") and glossary.wraps_terms_on("index.md")
    assert not glossary.wraps_terms_on("reference/api/transformer_math.md")
    assert not glossary.wraps_terms_on(glossary.GLOSSARY_PAGE)


def test_table_body_cells_and_list_items_are_prose():
    assert wrapped("<table><tbody><tr><td>GELU</td></tr></tbody></table>") == ["GELU"]
    assert wrapped("<ul><li>ヘッドごとに</li></ul>") == ["ヘッド"]


# --- the glossary page -----------------------------------------------------------------------------------------


def test_the_page_lists_every_term_in_order_with_its_link():
    text = glossary.glossary_markdown(glossary.GLOSSARY_PAGE, DOCS)
    ids = re.findall(r'<dt id="([^"]+)">', text)
    assert ids == [t.key for t in table.in_order()]
    for term in table.TERMS:
        link = glossary._relative(term.taught_at, glossary.GLOSSARY_PAGE)
        assert f"]({link})" in text, term.headword
    assert "](../notes/02-qkv.md#bond-3)" in text
    assert '<span class="glossary__english" lang="en">Query</span>' in text


def test_the_page_without_its_marker_is_reported():
    from transformer_site.failures import Failures

    failures = Failures()
    assert glossary.render_glossary_page("# 用語集\n", glossary.GLOSSARY_PAGE, DOCS, failures) == "# 用語集\n"
    (message,) = failures.reported()
    assert message == "docs/reference/glossary.md: the glossary page lost its marker <!-- glossary: terms -->"


def test_the_docs_page_carries_the_marker():
    assert glossary.MARKER in (DOCS / glossary.GLOSSARY_PAGE).read_text(encoding="utf-8")
