"""selector.report.formats: how the report writes scalers, numbers, amounts, shares, scores and Kendall's tau."""

from __future__ import annotations

import math

import pytest

from selector.report import formats


@pytest.mark.parametrize(
    ("scaler", "words"), [("none", "no scaling"), ("sum", "sum scaling"), ("vector", "vector scaling")]
)
def test_scaling_names_the_scaler(scaler, words):
    assert formats.scaling(scaler) == words


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3200, "3,200"),
        (3200.0, "3,200"),
        (0.5, "0.5"),
        (1.23456, "1.235"),
        (12345, "12,345"),
        (12934.4, "12,934"),
        (0, "0"),
        (-2.5, "-2.5"),
    ],
)
def test_a_number_has_separators_no_trailing_zeros_and_no_exponent_for_everyday_sizes(value, text):
    assert formats.number(value) == text


@pytest.mark.parametrize("value", [None, math.nan, math.inf, -math.inf])
def test_an_unknown_or_infinite_number_is_a_dash(value):
    assert formats.number(value) == "-"


def test_an_amount_puts_a_symbol_after_the_number_and_a_description_in_brackets():
    assert formats.amount(3200, "img/s") == "3,200 img/s"
    assert formats.amount(4, "rating 1-5") == "4 (rating 1-5)"
    assert formats.amount(math.nan, "img/s") == "-"


@pytest.mark.parametrize(
    ("share", "digits", "text"),
    [(0.5, 0, "50%"), (0.123, 1, "12.3%"), (1, 0, "100%"), (0.0049, 0, "0%"), (None, 0, "-")],
)
def test_a_share_is_a_percentage(share, digits, text):
    assert formats.percent(share, digits) == text


def test_an_infinite_share_is_a_dash():
    assert formats.percent(math.nan) == "-"


def test_a_score_has_three_decimals():
    assert formats.score(0.12345) == "0.123"
    assert formats.score(1) == "1.000"
    assert formats.score(math.nan) == "-"


def test_tau_has_two_decimals_and_a_dash_when_undefined():
    assert formats.tau(-0.333) == "-0.33"
    assert formats.tau(1.0) == "1.00"
    assert formats.tau(None) == "-"
    assert formats.tau(math.nan) == "-"
