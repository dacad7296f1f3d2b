"""Unit tests of selector/yamlio.py: safe parsing, line numbers and every guard (size, encoding, aliases, traps)."""

from __future__ import annotations

import string

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from selector.yamlio import MAX_ALIASES, MAX_BYTES, MAX_DEPTH, Issue, parse_yaml


def parse(text: str, **kwargs):
    return parse_yaml(text.encode("utf-8"), "t.yaml", **kwargs)


def only_issue(text: str, **kwargs) -> Issue:
    parsed, issues = parse(text, **kwargs)
    assert parsed is None
    assert len(issues) == 1, [str(i) for i in issues]
    assert issues[0].level == "ERROR"
    assert issues[0].file == "t.yaml"
    return issues[0]


def test_parses_data_and_records_the_line_of_every_node() -> None:
    parsed, issues = parse("# comment\nclaims:\n  - id: a\n    value: 3\n  - id: b\n    about: [x, y]\n")
    assert issues == []
    assert parsed.data == {"claims": [{"id": "a", "value": 3}, {"id": "b", "about": ["x", "y"]}]}
    assert parsed.lines[()] == 2
    assert parsed.lines[("claims",)] == 3
    assert parsed.lines[("claims", 0)] == 3
    assert parsed.lines[("claims", 0, "value")] == 4
    assert parsed.lines[("claims", 1, "about", 1)] == 6


def test_line_of_falls_back_to_the_deepest_known_node() -> None:
    parsed, _ = parse("claims:\n  - id: a\n    value: 3\n")
    assert parsed.line_of(("claims", 0, "value")) == 3
    # A key the file does not have (as in "missing required key") points at the record that lacks it.
    assert parsed.line_of(("claims", 0, "unit")) == 2
    assert parsed.line_of(("claims", 5, "unit")) == 1 + 1  # the list under `claims` starts on line 2
    assert parsed.line_of(("nothing",)) == 1


def test_values_keep_their_yaml_types() -> None:
    parsed, issues = parse("a: 1\nb: 1.5\nc: '000'\nd: true\ne: 1.0e+3\nf: 2024-01-01\ng: ~\n")
    assert issues == []
    assert parsed.data["a"] == 1
    assert parsed.data["b"] == 1.5
    assert parsed.data["c"] == "000"
    assert parsed.data["d"] is True
    assert parsed.data["e"] == 1000.0
    assert parsed.data["g"] is None


def test_no_python_objects_are_built() -> None:
    issue = only_issue("a: !!python/object/apply:os.system ['echo hacked']\n")
    assert "not valid YAML" in issue.message
    assert issue.line == 1


def test_syntax_error_has_its_line() -> None:
    issue = only_issue("a: 1\nb: [1, 2\nc: 3\n")
    assert "not valid YAML" in issue.message
    assert issue.line is not None and issue.line >= 2
    assert "\n" not in issue.message


def test_empty_file_is_refused() -> None:
    assert "file is empty" in only_issue("").message
    assert "file is empty" in only_issue("# only a comment\n").message


def test_size_cap() -> None:
    assert "the limit is 10 bytes" in only_issue("a: 12345678901\n", max_bytes=10).message
    parsed, issues = parse("a: 1\n", max_bytes=5)
    assert parsed is not None and issues == []
    assert MAX_BYTES == 2_000_000


def test_non_utf8_is_refused_with_the_line_of_the_bad_byte() -> None:
    parsed, issues = parse_yaml(b"a: 1\nb: 2\nc: caf\xe9\n", "t.yaml")
    assert parsed is None
    [issue] = issues
    assert "not UTF-8" in issue.message
    assert issue.line == 3


def test_duplicate_keys_are_refused_with_both_lines() -> None:
    issue = only_issue("a: 1\nb: 2\na: 3\n")
    assert issue.line == 3
    assert "duplicate key `a` (first at line 1)" in issue.message


def test_duplicate_keys_in_nested_mappings_are_refused() -> None:
    issue = only_issue("claims:\n  - id: a\n    unit: x\n    unit: y\n")
    assert issue.line == 4
    assert "duplicate key `unit`" in issue.message


def test_same_key_in_sibling_mappings_is_fine() -> None:
    parsed, issues = parse("- id: a\n- id: b\n")
    assert issues == [] and parsed.data == [{"id": "a"}, {"id": "b"}]


@pytest.mark.parametrize(
    ("word", "reading"),
    [
        *[(word, "False") for word in ("no", "No", "NO", "off", "Off", "OFF")],
        *[(word, "True") for word in ("yes", "Yes", "on", "On", "ON")],
    ],
)
def test_yaml11_boolean_words_are_refused(word: str, reading: str) -> None:
    issue = only_issue(f"a: x\nanswer: {word}\n")
    assert issue.line == 2
    assert f"`{word}` is read by YAML 1.1 as the boolean {reading}" in issue.message
    assert "quote it" in issue.message


@pytest.mark.parametrize("text", ["'no'", '"on"', "true", "false", "y", "n", "nope", "online"])
def test_real_booleans_and_quoted_or_ordinary_words_are_fine(text: str) -> None:
    parsed, issues = parse(f"a: {text}\n")
    assert issues == []
    assert parsed is not None


def test_yaml11_boolean_as_a_key_is_refused() -> None:
    # `{on: push}` is the famous GitHub Actions surprise: the key becomes True.
    assert "`on` is read by YAML 1.1" in only_issue("on: push\n").message


# YAML 1.1 (PyYAML) reads an exponent as a float only with a decimal point AND a signed exponent: 1.0e+3.
@pytest.mark.parametrize("text", ["1e3", "1E3", "-2e-5", "+3e+2", "1.e3", "1.0e3", "1e+3"])
def test_exponent_numbers_that_yaml11_reads_as_text_are_refused(text: str) -> None:
    assert isinstance(yaml.safe_load(f"v: {text}")["v"], str), "premise: PyYAML reads it as text"
    issue = only_issue(f"value: {text}\n")
    assert f"`{text}` is read by YAML 1.1 as text, not a number" in issue.message


def test_exponent_advice_suggests_a_spelling_yaml11_reads_as_a_number() -> None:
    issue = only_issue("value: 2e3\n")
    assert "1.0e+3" in issue.message, issue.message
    assert "1.0e3)" not in issue.message, "1.0e3 is itself read as text"


@pytest.mark.parametrize("text", ["1.0e+3", "1000", "'1e3'", "0.5", "-1.5e-3"])
def test_numbers_yaml11_reads_as_numbers_and_quoted_text_are_fine(text: str) -> None:
    _, issues = parse(f"value: {text}\n")
    assert issues == [], [str(i) for i in issues]


@pytest.mark.parametrize("text", [".nan", ".NaN", ".inf", "-.inf", "+.Inf", ".INF"])
def test_non_finite_numbers_are_refused(text: str) -> None:
    issue = only_issue(f"a: 1\nvalue: {text}\n")
    assert issue.line == 2
    assert f"`{text}` is not a finite number" in issue.message


def test_aliases_up_to_the_cap_are_fine() -> None:
    text = "base: &b [1]\nuses: [" + ", ".join(["*b"] * MAX_ALIASES) + "]\n"
    parsed, issues = parse(text)
    assert issues == []
    assert len(parsed.data["uses"]) == MAX_ALIASES


def test_aliases_over_the_cap_are_refused_at_the_line_of_the_first_one_too_many() -> None:
    uses = "\n".join("  - *b" for _ in range(MAX_ALIASES + 1))
    issue = only_issue(f"base: &b [1]\nuses:\n{uses}\n")
    assert f"more than {MAX_ALIASES} aliases" in issue.message
    assert issue.line == 3 + MAX_ALIASES, issue


def test_nesting_up_to_the_cap_is_fine() -> None:
    parsed, issues = parse("[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH)
    assert issues == []
    assert parsed is not None


def test_nesting_over_the_cap_is_refused() -> None:
    issue = only_issue("a: 1\nb: " + "[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1))
    assert f"nesting deeper than {MAX_DEPTH} levels" in issue.message
    assert issue.line == 2


def test_nesting_past_pythons_recursion_limit_is_an_issue_not_a_crash() -> None:
    # PyYAML composes recursively: 3000 levels in a 6 kB upload would raise RecursionError out of the loader.
    issue = only_issue("a: " + "[" * 3000 + "1" + "]" * 3000)
    assert "nesting deeper than" in issue.message


def test_several_problems_are_reported_together() -> None:
    parsed, issues = parse("a: no\nb: 1e3\nc: .nan\na: 2\n")
    assert parsed is None
    assert sorted(i.line for i in issues) == [1, 2, 3, 4]


def test_issue_text_says_level_file_line_and_record() -> None:
    assert str(Issue("ERROR", "k/c.yaml", 7, "c1", "bad")) == "ERROR k/c.yaml:7 record `c1`: bad"
    assert str(Issue("WARNING", "k/c.yaml", None, None, "odd")) == "WARNING k/c.yaml: odd"


_TEXT = st.text(alphabet=string.ascii_letters + "中文，：（）- _", min_size=1, max_size=20)
_VALUE = st.one_of(st.integers(-(10**9), 10**9), st.floats(allow_nan=False, allow_infinity=False), _TEXT)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_TEXT, st.one_of(_VALUE, st.lists(_VALUE, max_size=4)), min_size=1, max_size=6))
def test_whatever_pyyaml_dumps_parses_back_unchanged(data: dict) -> None:
    # safe_dump quotes whatever a YAML 1.1 reader would misread, so nothing it writes should trip a guard.
    parsed, issues = parse(yaml.safe_dump(data, allow_unicode=True))
    assert issues == []
    assert parsed.data == data
