"""Each literal form: the live value written the literal's way equals the literal (an f-string of the
directly computed value is the independent route), and a literal one digit off fails with the message."""

from __future__ import annotations

from math import sqrt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from transformer_math import preset, preset_trace
from transformer_math.configs import BERT_BASE, TRANSFORMER_BASE
from transformer_math.counting import bert_params, transformer_params
from transformer_math.masking import MLM_SELECT_RATE
from transformer_site.checked import check, find_checked_numbers, parse_literal
from transformer_site.page.formats import literal_value

S1 = preset_trace(1)
BERT = bert_params(BERT_BASE).total
TRANSFORMER = transformer_params(TRANSFORMER_BASE).total


def _sci(value: float, digits: int) -> tuple[str, int]:
    mantissa, exponent = f"{value:.{digits}e}".split("e")
    return mantissa, int(exponent)


# (literal as the page writes it, expression, independent rendering of the directly computed value)
CASES = [
    ("3.526", "s1.scores[0, 2, 3]", f"{S1.scores[0, 2, 3]:.3f}"),
    ("+3.526", "s1.scores[0, 2, 3]", f"{S1.scores[0, 2, 3]:+.3f}"),
    ("−0.170", "s1.ffn_out[0, 3]", f"{S1.ffn_out[0, 3]:.3f}".replace("-", "−")),
    ("-0.170", "s1.ffn_out[0, 3]", f"{S1.ffn_out[0, 3]:.3f}"),
    ("1.00", "s1.attn[0, 2].sum()", f"{S1.attn[0, 2].sum():.2f}"),
    ("15 %", "masking.MLM_SELECT_RATE", f"{MLM_SELECT_RATE * 100:.0f} %"),
    ("15%", "masking.MLM_SELECT_RATE", f"{MLM_SELECT_RATE * 100:.0f}%"),
    ("109,482,240", "counting.bert_params(configs.BERT_BASE).total", f"{BERT:,}"),
    ("16", "preset.D_MODEL", str(preset.D_MODEL)),
    ("1.1e8", "counting.bert_params(configs.BERT_BASE).total", "{}e{}".format(*_sci(BERT, 1))),
    ("6.3 × 10^7", "counting.transformer_params(configs.TRANSFORMER_BASE).total",
     "{} × 10^{}".format(*_sci(TRANSFORMER, 1))),
    ("1e-5", "preset.EPS", f"{float(_sci(preset.EPS, 0)[0]):.0f}e{_sci(preset.EPS, 0)[1]}"),
]  # fmt: skip

IN_CONTEXT = [
    ("| 美しい → 花 | {{ +3.526 = s1.scores[0, 2, 3] }} |", f"{S1.scores[0, 2, 3]:+.3f}", False),
    ("$\\sqrt{d_k} = {{ 2.828 = sqrt(preset.D_K) }}$", f"{sqrt(preset.D_K):.3f}", True),
    ("$$\nN = {{ 1.1 \\times 10^{8} = counting.bert_params(configs.BERT_BASE).total }}\n$$",
     "{} \\times 10^{{{}}}".format(*_sci(BERT, 1)), True),
    ("$$\nN = {{ 109{,}482{,}240 = counting.bert_params(configs.BERT_BASE).total }}\n$$",
     f"{BERT:,}".replace(",", "{,}"), True),
    ("$p = {{ 15\\,\\% = masking.MLM_SELECT_RATE }}$", f"{MLM_SELECT_RATE * 100:.0f}\\,\\%", True),
    ("!!! note\n    重み {{ 0.912 = s1.attn[0, 0, 3] }}", f"{S1.attn[0, 0, 3]:.3f}", False),
    ('=== "タブ"\n    値 {{ 0.834 = s1.attn[0, 2, 3] }}', f"{S1.attn[0, 2, 3]:.3f}", False),
]  # fmt: skip


def _one(text: str):
    (number,) = find_checked_numbers(text, "docs/page.md")
    return number


def _off_by_one(literal: str) -> str:
    """The literal with its last digit changed: a stale quote of the same form."""
    last = max(i for i, ch in enumerate(literal) if ch.isdigit())
    return literal[:last] + str((int(literal[last]) + 1) % 10) + literal[last + 1 :]


@pytest.mark.parametrize(("literal", "expression", "independent"), CASES, ids=[c[0] for c in CASES])
def test_each_form_matches_the_independent_rendering(literal, expression, independent):
    assert independent == literal  # the quoted literal is what an f-string of the value gives
    outcome = check(_one(f"値は {{{{ {literal} = {expression} }}}} です。"))
    assert outcome.ok, outcome.message
    assert outcome.live == literal


@pytest.mark.parametrize(("literal", "expression", "independent"), CASES, ids=[c[0] for c in CASES])
def test_each_form_fails_one_digit_off(literal, expression, independent):
    wrong = _off_by_one(literal)
    outcome = check(_one(f"\n\n値は {{{{ {wrong} = {expression} }}}} です。"))
    assert not outcome.ok
    assert outcome.message.startswith(f"docs/page.md:3: quoted {wrong}, live {independent} ({expression} = ")


@pytest.mark.parametrize(("text", "independent", "in_math"), IN_CONTEXT, ids=lambda x: str(x)[:24])
def test_tables_math_admonitions_and_tabs(text, independent, in_math):
    number = _one(text)
    outcome = check(number)
    assert outcome.ok, outcome.message
    assert (number.literal, number.in_math) == (independent, in_math)


def test_rounding_is_on_the_binary_value_half_to_even():
    # 0.125 is exact in binary: a true tie, so half-to-even; 2.675 is stored just below 2.675.
    assert parse_literal("0.12").format(0.125) == "0.12"
    assert parse_literal("0.38").format(0.375) == "0.38"
    assert parse_literal("2.67").format(2.675) == "2.67"
    assert parse_literal("12 %").format(0.125) == "12 %"  # 12.5 % exactly: a tie, to even
    assert parse_literal("0.000").format(-0.0001) == "0.000"  # no "-0.000"


@given(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False), st.integers(0, 6))
def test_fixed_decimals_agree_with_python_format(value, decimals):
    expected = format(value, f".{decimals}f")
    if float(expected) == 0:
        expected = expected.lstrip("-")
    assert parse_literal("1" + ("." + "0" * decimals if decimals else "")).format(value) == expected


LITERALS = ["3.526", "+3.526", "−0.170", "15 %", "109,482,240", "3.1e6", "1e-09", "3.1 × 10^6", "2.5 \\times 10^{-3}"]


@pytest.mark.parametrize("literal", LITERALS)
def test_a_literal_reproduces_itself(literal):
    assert parse_literal(literal).format(literal_value(literal)) == literal


@given(st.floats(min_value=1e-12, max_value=1e12), st.sampled_from(LITERALS))
def test_formatting_is_a_fixed_point(value, literal):
    """Writing a value, reading the text back and writing it again changes nothing."""
    fmt = parse_literal(literal)
    text = fmt.format(value)
    assert fmt.format(literal_value(text)) == text


@pytest.mark.parametrize("bad", ["3.5.1", "abc", "1,23", "31.0e6", "1,000e3", "5 % %"])
def test_malformed_literals_are_rejected(bad):
    number = _one(f"x {{{{ {bad} = 1 }}}}" if bad[0].isdigit() else f"x {{{{ 1{bad} = 1 }}}}")
    outcome = check(number)
    assert not outcome.ok
    assert outcome.message.startswith("docs/page.md:1: ")
