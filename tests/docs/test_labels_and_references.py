"""The site's own tokens: every checked number and claim has a Japanese label, and §10 is what the pages cite.

Unlike test_checked_numbers.py this reads this project's docs/ only (no CHECKED_NUMBERS_ROOT): the labels and the
references are data of this project's pages layer.
"""

from __future__ import annotations

from pathlib import Path

from docs_tokens import docs_tokens

from transformer_pages.notes.references import REFERENCES
from transformer_site.checked import references
from transformer_site.labels import label

ROOT = Path(__file__).resolve().parents[2]
TOKENS = docs_tokens(ROOT)


def test_the_site_has_checked_claims_and_citations():
    assert any(n.kind == "claim" for n in TOKENS) and any(n.kind == "cite" for n in TOKENS)


def test_every_checked_number_and_claim_has_a_label():
    """The tooltip leads with what the value is; a number whose expression has no label would show none."""
    unlabelled = [
        f"{n.location}: {n.expression}" for n in TOKENS if n.kind in ("number", "claim") and not label(n.expression)
    ]
    assert not unlabelled, "give these a label (LABELS of the page module, or transformer_site.labels):\n" + "\n".join(
        unlabelled
    )


def test_the_references_page_lists_every_entry_once_in_order():
    page = "docs/" + references.REFERENCES_PAGE
    entries = [n.literal for n in TOKENS if n.kind == "entry" and n.path.endswith(page)]
    problem = references.entry_order_problem(entries)
    assert problem is None, problem


def test_every_entry_of_the_references_is_cited_somewhere():
    """An entry no page cites is a source the site does not use; §10 lists only what the pages rest on."""
    cited = {n.literal for n in TOKENS if n.kind == "cite"}
    assert not [r.key for r in REFERENCES if r.key not in cited]


def test_a_backprop_page_module_labels_its_values_and_a_tuple_argument_reads_as_words():
    """``backprop.*`` is labelled by its page module's LABELS, as ``notes.*`` is; a tuple of words joins with ・,
    each word quoted (a token used as a word)."""
    assert label('backprop.attention.row_norms("X")[3]') == "∂L/∂X の T3 の行のノルム"
    assert label("len(backprop.sizes.steps())") == "T3 の行の連鎖律の段の数"
    assert label('backprop.lab.rows_on(("は", "です"))') == "学習後に「は」・「です」のどれかに最大の重みを置く行の数"
    assert label("backprop.no_such_page.value") is None


def test_labels_read_as_japanese_not_as_the_expression():
    """What the issue showed (「8 つの例文 の個数」, 「…の 0 でない成分の数[W_Q]」) and what a learner reads instead."""
    assert label("len(sentences)") == "例文の数"
    assert label('counting.nonzero_entries(W)["W_Q"]') == "W_Q の 0 でない成分の数"
    assert label("W.W_Q.shape[0]") == "W_Q の行の数" and label("s1.attn.shape[0]") == "文1 の attn のヘッドの数"
    assert label('notes.layernorm1.stat_range("std_out")[1]') == "8 文全体の「出力の標準偏差」の最大"
    assert label('chapter.add_norm.ln().activation_rms["pre"][0]').endswith("(Pre-LN) の最初の値")
    assert label("10**8") == "10⁸"


def test_no_label_of_a_number_in_the_text_reads_like_code():
    """The tooltip's first line: no call of a code name, no method, no string key, no keyword of Python (a
    function of mathematics, GELU(x) or max(a, b), is notation)."""
    import re

    code = re.compile(r"\b[a-z]+_\w*\(|\.[a-z_]{2,}\(|\[[\"']|\b(?:len|None|True|False|lambda)\b|==|\*\*")
    found = [
        f"{n.location}: {label(n.expression)}"
        for n in TOKENS
        if n.kind == "number" and not n.in_math and code.search(label(n.expression) or "")
    ]
    assert not found, "\n".join(found)
