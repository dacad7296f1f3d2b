"""selector.knowledge.fields: each field type carries its rule (ids, numbers, names, titles, upstreams, dates, raw
paths),
and the base record refuses unknown keys, changes and non-finite numbers."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from selector.knowledge.fields import (
    ID_PATTERN,
    SMALLEST_NORMAL,
    Count,
    Id,
    IsoDate,
    Name,
    Number,
    RawPath,
    Record,
    Title,
    Upstream,
)

SHA = "0123456789abcdef0123456789abcdef01234567"


class Sample(Record):
    """One field of each type, all optional, so a test sets just the one it checks."""

    id: Id | None = None
    number: Number | None = None
    count: Count | None = None
    name: Name | None = None
    title: Title | None = None
    upstream: Upstream | None = None
    date: IsoDate | None = None
    raw: RawPath | None = None


def refusal(**fields: object) -> str:
    """The message of the one error a Sample with `fields` raises."""
    with pytest.raises(ValidationError) as caught:
        Sample(**fields)
    errors = caught.value.errors()
    assert len(errors) == 1, errors
    assert errors[0]["loc"][0] == next(iter(fields))  # the error names the field it concerns
    return errors[0]["msg"]


def test_smallest_normal_is_the_smallest_positive_normal_double():
    assert SMALLEST_NORMAL == 2.0**-1022
    assert SMALLEST_NORMAL / 2 > 0  # below it numbers still exist, but only as subnormals


@pytest.mark.parametrize("value", ["a", "trt-8.6", "mlperf_v4.0", "0abc", "a" * 80])
def test_an_id_is_lower_case_letters_digits_and_separators(value):
    assert Sample(id=value).id == value


@pytest.mark.parametrize("value", ["", "Upper", "-lead", ".lead", "with space", "ü", "a/b", "a" * 81])
def test_an_id_out_of_the_pattern_or_too_long_is_refused(value):
    message = refusal(id=value)
    assert "pattern" in message or "at most 80" in message
    if len(value) <= 80:
        assert ID_PATTERN in message  # the user sees the rule broken


def test_a_number_accepts_ints_and_floats():
    assert Sample(number=40).number == 40.0
    assert Sample(number=0.5).number == 0.5
    assert Sample(count=3).count == 3


@pytest.mark.parametrize("field", ["number", "count"])
@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_is_not_a_number(field, value):
    message = refusal(**{field: value})
    assert f"`{str(value).lower()}` is a boolean, not a number" in message


@pytest.mark.parametrize("field", ["number", "count"])
def test_quoted_digits_are_text_not_a_number(field):
    message = refusal(**{field: "40"})
    assert "'40' is text, not a number" in message
    assert "without quotes" in message


def test_long_text_in_a_number_is_shortened_in_the_message():
    text = "x" * 30
    message = refusal(number=text)
    assert f"'{'x' * 17}...' is text" in message
    assert text not in message


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 1.0e400])
def test_a_record_refuses_infinite_and_nan_numbers(value):
    refusal(number=value)


def test_a_record_refuses_unknown_keys_and_changes_and_strips_text():
    with pytest.raises(ValidationError) as caught:
        Sample(wieght=1)
    assert caught.value.errors()[0]["type"] == "extra_forbidden"
    assert caught.value.errors()[0]["loc"] == ("wieght",)
    record = Sample(name="  Orin  ")
    assert record.name == "Orin"
    with pytest.raises(ValidationError):
        record.name = "Thor"


@pytest.mark.parametrize(("value", "code"), [("Orin\nNX", 0x0A), ("a\tb", 0x09), ("a\x1bb", 0x1B), ("a\x85b", 0x85)])
def test_a_name_with_a_control_character_is_refused_naming_it(value, code):
    message = refusal(name=value)
    assert "one line of plain text" in message
    assert f"U+{code:04X}" in message


@pytest.mark.parametrize("first", ["=", "+", "-", "@"])
def test_a_name_starting_like_a_formula_is_refused(first):
    message = refusal(name=f"{first}SUM(A1)")
    assert f"must not start with `{first}`" in message
    assert "formula" in message


@pytest.mark.parametrize("value", ["<b>Orin</b>", "a > b", "JavaScript:alert(1)"])
def test_a_name_with_markup_is_refused(value):
    assert "must be plain text" in refusal(name=value)


def test_a_name_may_hold_inner_signs_and_other_scripts():
    for value in ("TensorRT-LLM", "C++ runtime", "a@b", "昇腾 910B", "x = y"):
        assert Sample(name=value).name == value


def test_a_name_is_at_most_200_characters_and_a_title_4000():
    assert Sample(name="n" * 200).name == "n" * 200
    assert "at most 200" in refusal(name="n" * 201)
    assert Sample(title="t" * 4000).title == "t" * 4000
    assert "at most 4000" in refusal(title="t" * 4001)


def test_a_title_follows_the_name_rule():
    assert "must not start with `=`" in refusal(title="=HYPERLINK()")
    assert "U+000A" in refusal(title="line\nbreak")
    assert "must be plain text" in refusal(title="<script>")


def test_an_upstream_is_owner_name_at_a_full_commit_and_a_path():
    value = f"mlcommons/inference_results_v4.0@{SHA}:closed/NVIDIA/results.csv"
    assert Sample(upstream=value).upstream == value


def test_an_upstream_service_is_an_https_address_pinned_to_the_day_fetched():
    value = "https://pypi.org/simple/@2026-12-01"
    assert Sample(upstream=value).upstream == value
    for undated in (
        "https://pypi.org/simple/",
        "http://pypi.org/simple/@2026-12-01",
        "https://pypi.org/simple/@2026-12",
    ):
        assert "pattern" in refusal(upstream=undated)


@pytest.mark.parametrize(
    "value",
    [
        f"mlcommons@{SHA}:a.csv",  # no repository name
        "mlcommons/inference@0123abc:a.csv",  # a short commit can name another commit later
        f"mlcommons/inference@{SHA.upper()}:a.csv",
        f"mlcommons/inference@{SHA}",  # no path
        f"mlcommons/inference@{SHA}:a b.csv",
    ],
)
def test_an_upstream_without_a_pinned_commit_and_path_is_refused(value):
    assert "pattern" in refusal(upstream=value)


def test_a_date_is_year_month_day():
    assert Sample(date="2025-04-21").date == "2025-04-21"
    for value in ("21.04.2025", "2025-4-21", "2025/04/21"):
        assert "pattern" in refusal(date=value)


@pytest.mark.parametrize("value", ["mlperf/v4.0/results.csv", "_x", "epoch.csv"])
def test_a_raw_path_is_relative_inside_the_raw_folder(value):
    assert Sample(raw=value).raw == value


@pytest.mark.parametrize("value", ["../secret", "a/../../b", "/etc/passwd", "a\\b", "a//b", ".hidden", "a/"])
def test_a_raw_path_that_could_leave_the_raw_folder_is_refused(value):
    assert "pattern" in refusal(raw=value)
