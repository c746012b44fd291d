"""A checked number's literal fixes its own format; the live value is written in that format.

The literal forms (see the reference page ``docs/reference/citable.md``):

==================  =====================================================================
``3.526``           fixed decimals: as many decimals as written
``+3.526``          an explicit ``+`` on non-negative values
``-0.170 / −0.170`` the minus the literal uses (ASCII ``-`` or U+2212 ``−``); a literal
                    without a minus writes a negative live value with ASCII ``-``
``15 %``            a percentage: the value is a fraction (0.15); the text between the
                    number and ``%`` is kept (``15%``, ``15 %``, in math ``15\\,\\%``)
``109,482,240``     thousands separators (``109{,}482{,}240`` inside math)
``3.1e6``           e-notation: the exponent keeps the literal's ``e``/``E``, an explicit
                    ``+`` and zero padding (``1e-09``)
``3.1 × 10^6``      scientific form; in math also ``3.1 \\times 10^{6}``
==================  =====================================================================

Rounding is the exact decimal rounding of the *binary* value, half to even on exact ties
(Python's ``format``; we go through ``decimal.Decimal`` so that ``%`` scaling adds no second
rounding). A value that rounds to zero has no sign: ``-0.0001`` at 3 decimals is ``0.000``.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass
from decimal import Decimal

_LITERAL = re.compile(
    r"""
    (?P<sign>[+\-−])?
    (?P<int>\d{1,3}(?:(?P<group>,|\{,\})\d{3})+|\d+)
    (?:\.(?P<frac>\d+))?
    (?:
        (?P<e>[eE])(?P<esign>[+\-−])?(?P<edigits>\d+)
      | (?P<times>\s*(?:×|\\times)\s*)10\^
        (?:\{(?P<bsign>[+\-−])?(?P<bdigits>\d+)\}|(?P<usign>[+\-−])?(?P<udigits>\d+))
    )?
    (?P<pct>(?:\s|\\,|\\[ ]|\u202f)?\\?%)?
    """,
    re.VERBOSE,
)


class LiteralError(ValueError):
    """The text written as a checked number's literal is not one of the supported forms."""


@dataclass(frozen=True)
class NumberFormat:
    """Everything the literal says about how to write a number."""

    plus: bool  # an explicit "+" on non-negative values
    minus: str  # "-" or "−"
    decimals: int
    group: str | None  # thousands separator as written: "," or "{,}"
    kind: str  # "fixed", "e" or "times"
    exp_char: str = "e"  # "e" or "E" (kind "e")
    exp_plus: bool = False  # "1e+06"
    exp_minus: str = "-"
    exp_width: int = 1  # zero padding of the exponent ("1e-09" → 2)
    times: str = " × "  # the text between mantissa and "10^" (kind "times")
    braces: bool = False  # "10^{6}" rather than "10^6"
    percent: str | None = None  # "%", " %", "\\%", "\\,\\%" …

    def format(self, value: int | float) -> str:
        """Write ``value`` (a fraction when ``percent``) exactly as this literal writes numbers."""
        exact = Decimal(value)  # exact for int and for the binary float
        if self.percent is not None:
            exact *= 100
        if self.kind == "fixed":
            digits = format(abs(exact), f"{',' if self.group else ''}.{self.decimals}f")
            body = digits.replace(",", self.group) if self.group else digits
        else:
            digits, _, exponent = format(abs(exact), f".{self.decimals}e").partition("e")
            body = digits + self._exponent(int(exponent))
        rounds_to_zero = not any(ch in "123456789" for ch in digits)  # no "-0.000"
        if exact < 0 and not rounds_to_zero:
            sign = self.minus
        else:
            sign = "+" if self.plus else ""
        return sign + body + (self.percent or "")

    def _exponent(self, exponent: int) -> str:
        digits = str(abs(exponent)).rjust(self.exp_width, "0")
        if exponent < 0:
            digits = self.exp_minus + digits
        elif self.exp_plus:
            digits = "+" + digits
        if self.kind == "e":
            return self.exp_char + digits
        return f"{self.times}10^{{{digits}}}" if self.braces else f"{self.times}10^{digits}"


def parse_literal(literal: str) -> NumberFormat:
    """Read the format a literal is written in; ``LiteralError`` when it is not a number form."""
    m = _LITERAL.fullmatch(literal)
    if m is None:
        raise LiteralError(
            f"{literal!r} is not a number literal (forms: 3.526, +3.526, −0.170, 15 %, 109,482,240, 3.1e6, 3.1 × 10^6)"
        )
    sign = m["sign"] or ""
    fmt = dict(
        plus=sign == "+",
        minus=sign if sign in ("-", "−") else "-",
        decimals=len(m["frac"] or ""),
        group=m["group"],
        kind="fixed",
        percent=m["pct"],
    )
    if m["e"] or m["times"]:
        if m["group"]:
            raise LiteralError(f"{literal!r}: thousands separators cannot be combined with an exponent")
        if m["pct"]:
            raise LiteralError(f"{literal!r}: a percentage cannot be combined with an exponent")
        esign = m["esign"] or m["bsign"] or m["usign"] or ""
        edigits = m["edigits"] or m["bdigits"] or m["udigits"]
        fmt.update(
            kind="e" if m["e"] else "times",
            exp_char=m["e"] or "e",
            exp_plus=esign == "+",
            exp_minus=esign if esign in ("-", "−") else "-",
            exp_width=len(edigits) if edigits.startswith("0") else 1,
            times=m["times"] or " × ",
            braces=m["bdigits"] is not None,
        )
        if len(m["int"]) != 1:
            raise LiteralError(f"{literal!r}: write the mantissa with one digit before the point (e.g. 3.1e6)")
    return NumberFormat(**fmt)


def literal_value(literal: str) -> float:
    """The number a literal denotes (a fraction for percentages); used by tests and ``list``."""
    m = _LITERAL.fullmatch(literal)
    if m is None:
        raise LiteralError(f"{literal!r} is not a number literal")
    text = m["int"].replace("{,}", "").replace(",", "") + ("." + m["frac"] if m["frac"] else "")
    exact = Decimal(text)
    exponent = m["edigits"] or m["bdigits"] or m["udigits"]
    if exponent is not None:
        esign = m["esign"] or m["bsign"] or m["usign"] or ""
        exact = exact.scaleb(-int(exponent) if esign in ("-", "−") else int(exponent))
    if m["pct"]:
        exact = exact.scaleb(-2)
    value = float(exact)
    return -value if m["sign"] in ("-", "−") else value


class NotANumber(TypeError):
    """An expression's result is not a single real number."""


def as_number(value: object) -> int | float:
    """A plain ``int`` or finite ``float`` from a number, numpy scalar or 0-d array."""
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(value, "item"):
        if shape != ():
            raise NotANumber(f"an array of shape {tuple(shape)}, not a number (index it down to one element)")
        value = value.item()
    if isinstance(value, bool):
        raise NotANumber(f"a truth value ({value}), not a number")
    if isinstance(value, int):
        return value
    if isinstance(value, numbers.Real):
        result = float(value)
        if not math.isfinite(result):
            raise NotANumber(f"{result} (not finite)")
        return result
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise NotANumber(f"a {type(value).__name__} ({shown}), not a number")


def short_value(value: int | float) -> str:
    """Seven significant digits and an ellipsis when that is not the whole value: ``3.523981…``."""
    if isinstance(value, int):
        return str(value)
    short = format(value, ".7g")
    return short if float(short) == value else short + "…"


def full_value(value: int | float) -> str:
    """The shortest text that reads back as exactly this value (for the hover tooltip)."""
    return str(value) if isinstance(value, int) else repr(float(value))
