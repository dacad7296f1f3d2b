"""The one parser of numbers written in outside files: a finite number within range, or a refusal saying why.

Benchmark outputs, raw dataset snapshots and uploads write numbers as text (``92.1544``, ``1.29477e+08``) or as
JSON numbers. ``float()`` alone accepts what is not a figure (``nan``, ``inf``, ``1e400`` as infinity, a
5,000-digit integer after seconds of work, ``True`` as 1) and Python's ``int`` refuses a long integer with a
traceback; a comma is a decimal comma in half the world and a thousands separator in the other, so ``700,5`` is
refused rather than guessed. Every refusal is a :class:`NumberRefused` whose message says what was expected.
"""

from __future__ import annotations

import math
import re

from selector.errors import SelectorError
from selector.i18n import N_, Phrase

#: Characters a number may be written in (sign, digits, point, exponent): more is not a measurement.
MAX_CHARS = 40
#: Largest magnitude accepted anywhere (raw FLOP/s of a whole system stay far below it); readers narrow it.
MAX_MAGNITUDE = 1e21

_PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# Groups of three after a comma: 1,234,567.5 is a thousands-separated number; 700,5 is not.
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")


class NumberRefused(SelectorError, ValueError):
    """A value that is not a finite number in range; the message quotes it (shortened) and says what is expected."""


def _quoted(text: str) -> str:
    shown = text if len(text) <= 40 else text[:37] + "..."
    return f"`{shown}`"


def parse_number(
    text: str, *, thousands: bool = False, low: float = -MAX_MAGNITUDE, high: float = MAX_MAGNITUDE
) -> float:
    """`text` as a finite float in [`low`, `high`].

    Parameters
    ----------
    text
        The number as written (surrounding blanks ignored).
    thousands
        Accept commas as thousands separators in groups of three (``1,234.5``); a comma anywhere else is refused.
    low, high
        The accepted range, inclusive.

    Raises
    ------
    NumberRefused
        For an empty value, words (``nan``, ``inf``, ``null``, ``abc``), a lone point or exponent (``.``, ``1e``),
        a decimal comma, more than ``MAX_CHARS`` characters, or a value outside [`low`, `high`].
    """
    if not isinstance(text, str):
        raise NumberRefused(Phrase(N_("expected a number written as text, got {kind}"), kind=type(text).__name__))
    stripped = text.strip()
    if not stripped:
        raise NumberRefused(Phrase(N_("expected a number, found an empty value")))
    if len(stripped) > MAX_CHARS:
        raise NumberRefused(
            Phrase(
                N_("a number of {count} characters; a figure has at most {most}"),
                count=f"{len(stripped):,}",
                most=str(MAX_CHARS),
            )
        )
    if thousands and _THOUSANDS.fullmatch(stripped):
        stripped = stripped.replace(",", "")
    elif not _PLAIN.fullmatch(stripped):
        if "," in stripped:
            template = (
                N_(
                    "{value} has a comma; write a decimal point (700.5), no decimal comma (thousands separators go "
                    "in groups of three: 1,234.5)"
                )
                if thousands
                else N_("{value} has a comma; write a decimal point (700.5), no decimal comma")
            )
            raise NumberRefused(Phrase(template, value=_quoted(stripped)))
        if stripped.lstrip("+-").lower() in ("nan", "inf", "infinity"):
            raise NumberRefused(
                Phrase(N_("{value} is not a finite number; expected a measured value"), value=_quoted(stripped))
            )
        raise NumberRefused(
            Phrase(
                N_("{value} is not a number; expected a number in digits, e.g. 275, 2.5, 1.2e+08"),
                value=_quoted(stripped),
            )
        )
    return in_range(float(stripped), stripped, low, high)


def in_range(value: float, shown: str, low: float = -MAX_MAGNITUDE, high: float = MAX_MAGNITUDE) -> float:
    """`value` when finite and in [`low`, `high`]; `shown` is how a refusal quotes it.

    Raises
    ------
    NumberRefused
        For NaN, an infinity (``1e400`` overflows to one) or a value out of range.
    """
    if not math.isfinite(value):
        raise NumberRefused(Phrase(N_("{value} is not a finite number"), value=_quoted(shown)))
    if value < low or value > high:
        raise NumberRefused(
            Phrase(
                N_("{value} is out of range; expected a number from {low} to {high}"),
                value=_quoted(shown),
                low=f"{low:g}",
                high=f"{high:g}",
            )
        )
    return value


def json_number(value: object, *, low: float = -MAX_MAGNITUDE, high: float = MAX_MAGNITUDE) -> float:
    """A JSON value that must be a number: ``true``, ``null``, a string, a list or an object is refused.

    Raises
    ------
    NumberRefused
        When `value` is not an int or float (bool is not a number here), or is not finite or out of range.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        kind = {bool: "a boolean", type(None): "null", str: "a string", list: "a list", dict: "an object"}
        shown = f"{kind.get(type(value), type(value).__name__)} ({_quoted(str(value))})"
        raise NumberRefused(f"expected a number, found {shown}")
    if isinstance(value, int):
        if abs(value) > MAX_MAGNITUDE:
            # bit_length, not str(): a 5,000-digit integer cannot be turned into text (Python's digit limit)
            digits = int(value.bit_length() * math.log10(2)) + 1
            raise NumberRefused(f"an integer of about {digits:,} digits is out of range")
        return in_range(float(value), str(value), low, high)
    return in_range(value, repr(value), low, high)


def json_count(value: object, *, high: int = 10**9) -> int:
    """A JSON value that must be a whole count from 0 to `high` (tokens, threads, batch).

    Raises
    ------
    NumberRefused
        For anything but an int (or an integral float) in [0, `high`].
    """
    number = json_number(value, low=0, high=high)
    if number != int(number):
        raise NumberRefused(f"expected a whole number, found {value!r}")
    return int(number)
