"""selector.display: numbers for people (separators, significant digits, units) checked by properties."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector import display

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)
_GROUPED = re.compile(r"^-?\d{1,3}(,\d{3})*(\.\d+)?$")


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (12934, "12,934"),
        (12934.567, "12,935"),
        (1_293_000.0, "1,293,000"),
        (1.23456, "1.235"),
        (2.5, "2.5"),
        (2.0, "2"),
        (0, "0"),
        (-0.0, "0"),
        (-2.5, "-2.5"),
        (0.0012345, "0.001234"),
        (999.96, "1,000"),
        (3.2e-7, "3.2e-7"),
        (1e16, "1e16"),
    ],
)
def test_worked_examples(value, text):
    assert display.number(value) == text


@pytest.mark.parametrize("value", [None, math.nan, math.inf, -math.inf])
def test_unknown_or_infinite_is_a_dash(value):
    assert display.number(value) == "-"


@given(finite)
def test_round_trip_within_the_stated_digits(value):
    text = display.number(value)
    back = float(text.replace(",", ""))
    if value == 0:
        assert back == 0
        return
    # half a unit of the last significant digit kept (4), relative to the value; integer digits are never dropped
    assert abs(back - value) <= 0.5 * 10 ** (math.floor(math.log10(abs(value))) - 3) * (1 + 1e-9)


@given(st.floats(min_value=-1e14, max_value=1e14, allow_nan=False))
def test_no_scientific_notation_in_the_everyday_range_and_groups_of_three(value):
    text = display.number(value)
    if value != 0 and abs(value) < 1e-6:
        return
    assert "e" not in text
    assert _GROUPED.match(text), text


@given(st.floats(min_value=1e-6, max_value=1e14))
def test_never_trailing_zeros_after_the_point(value):
    text = display.number(value)
    assert not (("." in text) and text.endswith("0"))
    assert not text.endswith(".")


def test_quantity_puts_symbols_after_and_descriptions_in_brackets():
    assert display.quantity(3200, "img/s") == "3,200 img/s"
    assert display.quantity(4, "rating 1-5") == "4 (rating 1-5)"
    assert display.quantity(None, "W") == "-"
    assert display.quantity(7, "") == "7"


def test_percent_and_span():
    assert display.percent(0.5642, 1) == "56.4%"
    assert display.percent(None) == "-"
    assert display.span(0, 2000) == "0-2,000"
    assert display.span(-5, 10) == "-5 to 10"


@given(st.floats(min_value=-1e14, max_value=1e14, allow_nan=False))
def test_excel_format_shows_the_digits_number_writes(value):
    """The workbook's format string has as many decimals as :func:`display.number` writes, so both agree."""
    fmt = display.excel_format(value)
    text = display.number(value)
    if "E" in fmt:
        assert "e" in text
        return
    decimals = len(text.split(".")[1]) if "." in text else 0
    assert fmt == "#,##0" + ("." + "0" * decimals if decimals else "")
