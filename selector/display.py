"""Numbers for people: thousands separators, a few significant digits, units; one writer for pages, files and reports.

:mod:`selector.io.numbers` reads numbers from outside files; this module writes them for a reader. The rules:

- at most :data:`DIGITS` significant digits after the decimal point, never fewer integer digits than the number has
  (``12,934`` stays ``12,934``: rounding a count to ``12,930`` would print a figure nobody measured);
- a comma between groups of three integer digits, no trailing zeros (``2.5``, not ``2.500``), ``-0`` written ``0``;
- scientific notation only outside ``[1e-6, 1e15)``, as ``1.2e-7`` (no ``+`` and no leading zero in the exponent);
- ``-`` for a missing or infinite value.

Machine-readable files (CSV, the decision record) keep full precision; the workbook keeps full-precision cells and
shows them through :func:`excel_format`, which writes the same digits as :func:`number`.
"""

from __future__ import annotations

import math

#: Significant digits of a written number (a measurement rarely carries more).
DIGITS = 4
_SMALLEST = 1e-6
_LARGEST = 1e15
MISSING = "-"


def _decimals(value: float, digits: int) -> int:
    """Decimal places that keep `digits` significant digits of `value` (0 for numbers with that many integer digits)."""
    magnitude = math.floor(math.log10(abs(value)))
    return max(digits - 1 - magnitude, 0)


def _scientific(value: float, digits: int) -> str:
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def number(value: float | int | None, digits: int = DIGITS) -> str:
    """`value` as a reader expects it: ``12,934``, ``2.5``, ``0.001235``, ``3.2e-7``; ``-`` when unknown.

    Parameters
    ----------
    value
        The number (None, NaN and infinities are written ``-``).
    digits
        Significant digits kept after the decimal point (at least 1).

    Returns
    -------
    str
        The text; ``float(text.replace(",", ""))`` is within half a unit of the last digit written.
    """
    if value is None or isinstance(value, bool) or not math.isfinite(value):
        return MISSING
    digits = max(int(digits), 1)
    if value == 0:
        return "0"
    if not _SMALLEST <= abs(value) < _LARGEST:
        return _scientific(float(value), digits)
    decimals = _decimals(value, digits)
    text = f"{value:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def quantity(value: float | int | None, unit: str, digits: int = DIGITS) -> str:
    """``3,200 img/s``; ``4 (rating 1-5)`` for a unit that is a description rather than a symbol; no unit: the
    number alone."""
    text = number(value, digits)
    if not unit or text == MISSING:
        return text
    return f"{text} {unit}" if " " not in unit else f"{text} ({unit})"


def percent(share: float | None, digits: int = 0) -> str:
    """A share (0-1) as a percentage with `digits` decimals (``56.4%``); ``-`` when unknown."""
    if share is None or not math.isfinite(share):
        return MISSING
    return f"{100 * share:,.{digits}f}%"


def span(low: float, high: float, digits: int = DIGITS) -> str:
    """A range as ``0-2,000`` (``-5 to 10`` when a bound is negative, where a dash would read as a minus)."""
    sep = " to " if low < 0 or high < 0 else "-"
    return f"{number(low, digits)}{sep}{number(high, digits)}"


def excel_format(value: float | int | None, digits: int = DIGITS) -> str:
    """The spreadsheet number format that shows `value` as :func:`number` writes it (``#,##0.00`` for ``2.25``).

    Scientific values get ``0.###E+0``; a missing value ``General``.
    """
    if value is None or isinstance(value, bool) or not math.isfinite(value):
        return "General"
    if value != 0 and not _SMALLEST <= abs(value) < _LARGEST:
        return "0." + "#" * (max(int(digits), 1) - 1) + "E+0"
    written = number(value, digits)
    decimals = len(written.split(".")[1]) if "." in written else 0
    return "#,##0" + ("." + "0" * decimals if decimals else "")
