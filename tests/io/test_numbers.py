"""The one number parser: what a file writes as a figure becomes a finite float in range, or a refusal saying why."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.io.numbers import MAX_CHARS, NumberRefused, in_range, json_count, json_number, parse_number


@pytest.mark.parametrize(
    ("text", "value"),
    [("92.1544", 92.1544), ("1.29477e+08", 1.29477e8), (" 275 ", 275.0), (".5", 0.5), ("-3", -3.0), ("5.", 5.0)],
)
def test_numbers_as_benchmark_tools_write_them_are_read(text: str, value: float) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1e", "is not a number"),
        (".", "is not a number"),
        ("abc", "is not a number"),
        ("null", "is not a number"),
        ("", "empty"),
        ("nan", "not a finite number"),
        ("-Infinity", "not a finite number"),
        ("1e400", "not a finite number"),
        ("9" * 400, "characters"),
        ("9" * 5000, "characters"),
        ("700,5", "decimal comma"),
        ("0x10", "is not a number"),
        ("1_000", "is not a number"),
    ],
)
def test_what_is_not_a_finite_number_is_refused_with_the_reason(text: str, fragment: str) -> None:
    with pytest.raises(NumberRefused, match=fragment):
        parse_number(text)


def test_a_comma_is_a_thousands_separator_only_in_groups_of_three() -> None:
    assert parse_number("1,234,567.5", thousands=True) == 1234567.5
    for text in ("700,5", "1,23", "12,3456", "1,234,5"):
        with pytest.raises(NumberRefused, match="comma"):
            parse_number(text, thousands=True)


def test_the_range_is_inclusive_and_compared_as_written() -> None:
    assert parse_number("700", high=700) == 700
    with pytest.raises(NumberRefused, match="out of range"):
        parse_number("700.0000001", high=700)
    with pytest.raises(NumberRefused, match="out of range"):
        parse_number("-0.1", low=0)
    with pytest.raises(NumberRefused):
        in_range(math.nan, "nan")


@pytest.mark.parametrize(
    ("value", "fragment"),
    [(True, "a boolean"), (None, "null"), ("12", "a string"), ([1], "a list"), ({"a": 1}, "an object")],
)
def test_a_json_value_must_be_a_number_not_true_or_text(value: object, fragment: str) -> None:
    with pytest.raises(NumberRefused, match=fragment):
        json_number(value)


def test_a_huge_json_integer_is_refused_without_converting_it_to_text() -> None:
    with pytest.raises(NumberRefused, match="digits is out of range"):
        json_number(10**5000)  # str() of it would raise: Python limits int-to-text conversion to 4,300 digits
    with pytest.raises(NumberRefused, match="out of range"):
        json_number(10**400)


def test_counts_are_whole_and_not_negative() -> None:
    assert json_count(512) == 512 and json_count(512.0) == 512
    for bad in (-1, 1.5, True, "512"):
        with pytest.raises(NumberRefused):
            json_count(bad)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e20, max_value=1e20))
def test_every_finite_float_written_by_repr_reads_back_exactly(value: float) -> None:
    text = repr(value)
    if len(text) <= MAX_CHARS:
        assert parse_number(text) == value


@given(st.text(max_size=60))
def test_any_text_is_a_finite_number_or_a_refusal(text: str) -> None:
    try:
        value = parse_number(text)
    except NumberRefused as exc:
        assert str(exc)
    else:
        assert math.isfinite(value) and abs(value) <= 1e21
