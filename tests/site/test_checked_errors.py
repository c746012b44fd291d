"""Unknown names, bad indices, non-numbers and expressions with side effects: each a clear page.md:line error."""

from __future__ import annotations

import pytest

from transformer_site.checked import check, find_checked_numbers
from transformer_site.checked.evaluation import ExpressionError, evaluate


def _message(expression: str, literal: str = "1.0") -> str:
    text = f"# 見出し\n\n本文 {{{{ {literal} = {expression} }}}} です。\n"
    (number,) = find_checked_numbers(text, "docs/notes/99-test.md")
    outcome = check(number)
    assert not outcome.ok
    assert not outcome.stale  # refresh must not "fix" these
    assert outcome.message.startswith("docs/notes/99-test.md:3: ")
    return outcome.message


def test_unknown_name_lists_the_citable_names():
    message = _message("s9.scores[0, 0, 0]")
    assert "unknown name 's9'" in message
    assert "s1, s2" in message and "docs/reference/citable.md" in message


def test_unknown_attribute():
    assert "AttributeError" in _message("s1.no_such_array[0]")


def test_index_out_of_range():
    message = _message("s1.scores[0, 9, 9]")
    assert "index out of range in s1.scores[0, 9, 9]" in message
    assert "size" in message  # numpy's own explanation of which axis


@pytest.mark.parametrize(
    ("expression", "says"),
    [
        ("s1.scores", "s1.scores is an array of shape (2, 5, 5), not a number (index it down to one element)"),
        ("s1.tokens[0:2]", "is an array of shape (2,), not a number"),
        ("sentences[0].text", "is a str ("),
        ("s1.scores.any()", "is a truth value (True), not a number"),
        ("s1.scores[0, 0, 0] * 0 + (1 > 0)", "a comparison (write it as a checked claim"),
    ],
)
def test_non_numeric_results(expression, says):
    assert says in _message(expression)


@pytest.mark.parametrize(
    ("expression", "says"),
    [
        ("(x := 1)", "an assignment (:=)"),
        ("(lambda: 1)()", "a lambda"),
        ("sum([t for t in s1.tokens])", "a comprehension"),
        ("sum(t for t in s1.tokens)", "a generator expression"),
        ("s1.__class__", "the private name '__class__'"),
        ("s1._private", "the private name '_private'"),
        ("sorted(*s1.tokens)", "a starred argument"),
        ("f'{s1}'", "an f-string"),
        ("{1: 2}[1]", "a dict display"),
        ("__import__('os').getpid()", "the private name '__import__'"),
    ],
)
def test_side_effects_and_dunders_are_rejected(expression, says):
    message = _message(expression)
    assert f"{says} is not allowed in a checked number" in message


def test_syntax_error_in_expression():
    assert "cannot parse expression" in _message("s1.scores[0, 2")


def test_evaluation_sees_only_the_namespace():
    with pytest.raises(ExpressionError, match="unknown name 'open'"):
        evaluate("open('x')")
    assert evaluate("a * 2 + b", {"a": 3, "b": 1}) == 7


def test_a_marker_is_checked_against_its_source_and_unchecked_is_gone():
    (number,) = find_checked_numbers("β2 = {{ 0.999 reported @kingma2015, Algorithm 1 }}", "docs/p.md")
    assert check(number).ok and number.expression is None and number.marker == "reported"
    (wrong,) = find_checked_numbers("β2 = {{ 0.998 reported @kingma2015, Algorithm 1 }}", "docs/p.md")
    assert "records no figure 0.998 at Algorithm 1" in check(wrong).message
    (bad,) = find_checked_numbers("{{ 0.98 0.99 reported @kingma2015, Algorithm 1 }}", "docs/p.md")
    assert "is not a number literal" in check(bad).message
    (old,) = find_checked_numbers("β2 = {{ 0.98 unchecked }}", "docs/p.md")
    assert "'unchecked' is not an exemption any more" in check(old).message


def test_malformed_token():
    (number,) = find_checked_numbers("x {{ 0.5 s1.attn[0, 0, 0] }}", "docs/p.md")
    assert check(number).message.startswith("docs/p.md:1: malformed checked number {{ 0.5 s1.attn[0, 0, 0] }}")


def test_tex_forms_outside_math_and_bare_percent_inside():
    (prose,) = find_checked_numbers("x {{ 1.1 \\times 10^{8} = 1.1e8 }}", "docs/p.md")
    assert "belong inside math" in check(prose).message
    (math,) = find_checked_numbers("$x = {{ 15 % = masking.MLM_SELECT_RATE }}$", "docs/p.md")
    assert "write the percent sign as \\%" in check(math).message


def test_token_without_a_number_literal_is_an_error_but_tex_braces_are_not_tokens():
    (number,) = find_checked_numbers("x {{ .5 = s1.attn[0, 0, 0] }}", "docs/p.md")
    assert check(number).message.startswith("docs/p.md:1: '.5' is not a number literal")
    assert find_checked_numbers("$x^{{a}} + {{b}}_c$", "docs/p.md") == []
