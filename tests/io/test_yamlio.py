"""Unit tests of selector/io/yamlio.py: safe parsing, line numbers and every guard (size, encoding, aliases, traps)."""

from __future__ import annotations

import string

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from selector.io import yamlio
from selector.io.yamlio import LOADERS, MAX_ALIASES, MAX_BYTES, MAX_DEPTH, parse_yaml
from selector.issues import Issue
from tests.examples import examples


@pytest.fixture(autouse=True, params=["libyaml", "python"])
def loader(request, monkeypatch) -> str:
    """Every test runs on both loaders: LibYAML's C parser and PyYAML's pure-Python one apply the same guards."""
    if request.param not in LOADERS:
        pytest.skip(f"PyYAML was built without {request.param}")
    monkeypatch.setattr(yamlio, "DEFAULT_LOADER", request.param)
    return request.param


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
    parsed, issues = parse("a: 1\nb: 1.5\nc: '000'\nd: true\ne: 1.0e+3\nf: '2024-01-01'\ng: ~\n")
    assert issues == []
    assert parsed.data["a"] == 1
    assert parsed.data["b"] == 1.5
    assert parsed.data["c"] == "000"
    assert parsed.data["d"] is True
    assert parsed.data["e"] == 1000.0
    assert parsed.data["f"] == "2024-01-01"
    assert parsed.data["g"] is None


def test_no_python_objects_are_built() -> None:
    issue = only_issue("a: !!python/object/apply:os.system ['echo hacked']\n")
    assert "the tag `!!python/object/apply:os.system` is not allowed" in issue.message
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


# YAML 1.1 integer and float forms that YAML 1.2 reads differently (or as text): (as written, what 1.1 reads).
YAML11_NUMBERS = [
    ("017", 15),
    ("-017", -15),
    ("00", 0),
    ("0x1F", 31),
    ("-0x1f", -31),
    ("0b101", 5),
    ("1_000", 1000),
    ("1:20", 80),
    ("-1:20:30", -4830),
    ("1_000.5", 1000.5),
    ("1:20.5", 80.5),
]


@pytest.mark.parametrize(("text", "reading"), YAML11_NUMBERS)
def test_yaml11_number_forms_are_refused_with_what_to_write(text: str, reading: float) -> None:
    assert yaml.safe_load(f"v: {text}")["v"] == reading, "premise: YAML 1.1 reads it as this number"
    issue = only_issue(f"a: 1\nvalue: {text}\n")
    assert issue.line == 2
    assert f"`{text}` is read by YAML 1.1 as" in issue.message
    assert f"plain decimal ({reading})" in issue.message, issue.message
    assert f"quote it ('{text}')" in issue.message


@pytest.mark.parametrize(("text", "reading"), YAML11_NUMBERS)
def test_yaml11_number_forms_as_keys_are_refused(text: str, reading: float) -> None:
    issue = only_issue(f"weights:\n  {text}: 1\n")
    assert issue.line == 2
    assert f"`{text}` is read by YAML 1.1 as" in issue.message


def test_an_octal_says_both_readings() -> None:
    message = only_issue("v: 017\n").message
    assert "octal number (leading zero) 15" in message and "YAML 1.2 as the decimal 17" in message


@pytest.mark.parametrize("text", ["0o17", "-.5", "+.5", "+12e3"])
def test_numbers_yaml12_reads_but_yaml11_takes_for_text_are_refused(text: str) -> None:
    assert isinstance(yaml.safe_load(f"v: {text}")["v"], str), "premise: PyYAML reads it as text"
    assert f"`{text}` is read by YAML 1.1 as text" in only_issue(f"v: {text}\n").message


@pytest.mark.parametrize(
    ("text", "tag"), [("!!int '017'", "!!int"), ("!!str 017", "!!str"), ("! x", "!"), ("!e x", "!e")]
)
def test_explicit_tags_are_refused_so_no_reading_can_be_forced(text: str, tag: str) -> None:
    issue = only_issue(f"a: 1\nv: {text}\n")
    assert issue.message.startswith(f"the tag `{tag}` is not allowed"), issue.message
    assert issue.line == 2


@pytest.mark.parametrize("text", ["0", "-0", "17", "+17", "1.5", ".5", "1.", "-2.0e-3", "'017'", "'0x1F'"])
def test_plain_decimal_numbers_and_quoted_forms_are_fine(text: str) -> None:
    parsed, issues = parse(f"v: {text}\n")
    assert issues == [], [str(i) for i in issues]
    assert parsed is not None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("? [a, b]\n: 1\n", "a key must be text, not a list"),
        ("[a, b]: 1\n", "a key must be text, not a list"),
        ("? {a: 1}\n: 1\n", "a key must be text, not a mapping"),
        ("1: a\n", "the key `1` is read as int, not text"),
        ("1.5: a\n", "the key `1.5` is read as float, not text"),
        ("true: a\n", "the key `true` is read as bool, not text"),
        ("~: a\n", "the key `~` is read as null, not text"),
    ],
)
def test_complex_and_non_text_keys_are_refused(text: str, fragment: str) -> None:
    issue = only_issue(text)
    assert fragment in issue.message, issue.message
    assert issue.line == 1


def test_a_complex_key_inside_a_record_has_its_line() -> None:
    issue = only_issue("claims:\n  - id: a\n    ? [x, y]\n    : 3\n")
    assert issue.line == 3
    assert "a key must be text" in issue.message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("d: 2024-01-01\n", "`2024-01-01` is read by YAML 1.1 as a date"),
        ("base: {a: 1}\nuse:\n  <<: {b: 2}\n", "merge key `<<` exists only in YAML 1.1"),
        ("v: !!binary aGVsbG8=\n", "the tag `!!binary` is not allowed"),
        ("v: !!set {a, b}\n", "the tag `!!set` is not allowed"),
        ("v: !!omap [{a: 1}]\n", "the tag `!!omap` is not allowed"),
        ("v: !custom x\n", "the tag `!custom` is not allowed"),
    ],
)
def test_yaml11_types_and_tags_are_refused(text: str, fragment: str) -> None:
    assert fragment in only_issue(text).message


@pytest.mark.parametrize(
    ("char", "name"),
    [
        *[("\x00", "U+0000"), ("\x1b", "U+001B"), ("\x7f", "U+007F"), ("\x85", "U+0085"), ("\u202e", "U+202E")],
        *[("\u2066", "U+2066"), ("\u200b", "U+200B"), ("\u200d", "U+200D"), ("\u2028", "U+2028"), ("\ufeff", "U+FEFF")],
    ],
)
def test_control_bidi_and_zero_width_characters_are_refused_with_line_and_column(char: str, name: str) -> None:
    issue = only_issue(f"a: 1\nname: Jetson{char} Orin\n")
    assert issue.line == 2
    assert issue.message.startswith(f"column 13: {name}"), issue.message


@pytest.mark.parametrize("where", ["# comment \u202e\n", "'\u200bkey': 1\n", "k: 'quoted \x00'\n"])
def test_hidden_characters_are_refused_in_comments_keys_and_quoted_text(where: str) -> None:
    assert "delete it" in only_issue("a: 1\n" + where).message


@pytest.mark.parametrize("escape", ["\\u202e", "\\0", "\\x1b", "\\u200b", "\\U000E0041"])
def test_hidden_characters_spelled_as_escapes_are_refused(escape: str) -> None:
    issue = only_issue(f'a: 1\nname: "Jetson{escape} Orin"\n')
    assert issue.line == 2
    assert issue.message.startswith("the escaped text U+"), issue.message


def test_a_leading_bom_is_accepted() -> None:
    parsed, issues = parse_yaml("\ufeffa: 1\n".encode(), "t.yaml")
    assert issues == [] and parsed.data == {"a": 1}


def test_a_binary_file_is_refused_at_its_first_control_bytes() -> None:
    parsed, issues = parse_yaml(b"a: 1\n" + bytes(range(32)) * 4, "t.yaml")
    assert parsed is None
    assert issues[0].line == 2 and "U+0000" in issues[0].message


def test_an_unknown_loader_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="not available"):
        parse_yaml(b"a: 1", "t.yaml", loader="rust")


def test_this_installation_has_the_c_loader_and_uses_it_by_default() -> None:
    # requirements.txt pins a PyYAML wheel built with LibYAML; without it loading is ~10x slower (benchmarks/).
    assert yaml.__with_libyaml__
    assert LOADERS[0] == "libyaml"


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


@settings(max_examples=examples(150), deadline=None)
@given(st.dictionaries(_TEXT, st.one_of(_VALUE, st.lists(_VALUE, max_size=4)), min_size=1, max_size=6))
def test_whatever_pyyaml_dumps_parses_back_unchanged(data: dict) -> None:
    # safe_dump quotes whatever a YAML 1.1 reader would misread, so nothing it writes should trip a guard.
    parsed, issues = parse(yaml.safe_dump(data, allow_unicode=True))
    assert issues == []
    assert parsed.data == data


_YAMLISH = st.text(alphabet="ab01:-_.x[]{},&*!?'\"#|>~ \n\t\u202e\x00", max_size=60)


@settings(max_examples=examples(150), deadline=None)
@given(_YAMLISH)
@example("---").via("an empty document without a final line break: LibYAML put its value on line 2")
@example("a:").via("an empty value without a final line break")
@example("[!,").via("a tag before a flow indicator: LibYAML read the tag as `!,`, PyYAML as `!`")
def test_both_loaders_agree(text: str) -> None:
    # The parsers differ on a few syntax corners (LibYAML accepts a tab after a plain scalar, PyYAML does not), so
    # a syntax error may be one loader's alone; past syntax, both must give the same data, lines and refusals.
    if len(LOADERS) < 2:
        pytest.skip("only one loader here")
    (fast, fast_issues), (slow, slow_issues) = (parse_yaml(text.encode(), "t.yaml", loader=n) for n in LOADERS)
    if any(i.message.startswith("not valid YAML") for i in (*fast_issues, *slow_issues)):
        return
    assert [i.message for i in fast_issues] == [i.message for i in slow_issues], text
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert fast.data == slow.data
        assert fast.lines == slow.lines


def test_a_key_spelled_with_an_escape_is_quoted_without_the_hidden_character() -> None:
    parsed, issues = parse('"k\\e[2J": 1\n"k\\e[2J": 2\n')
    assert parsed is None
    assert issues and all("\x1b" not in i.message for i in issues)
    assert any("duplicate key `k\ufffd[2J`" in i.message for i in issues), [i.message for i in issues]


# ----------------------------------------------------------------------------------------------------------
# Writing: the records layout (the generated imports)


def test_yaml11_boolean_words_are_pyyamls_own_plus_y_and_n() -> None:
    # PyYAML's resolver and constructor are the reference: every word it reads as a boolean is listed with the value
    # it gives, in each of the three spellings YAML 1.1 allows; y and n are the YAML 1.1 words PyYAML leaves as text.
    resolver, constructor = yaml.resolver.Resolver(), yaml.constructor.SafeConstructor()
    read_as_bool = set()
    for word, value in yamlio.YAML11_BOOLEANS.items():
        for spelling in (word, word.capitalize(), word.upper()):
            node = yaml.ScalarNode(resolver.resolve(yaml.ScalarNode, spelling, (True, False)), spelling)
            if node.tag == "tag:yaml.org,2002:bool":
                read_as_bool.add(word)
                assert constructor.construct_yaml_bool(node) is value, spelling
    assert set(yamlio.YAML11_BOOLEANS) - read_as_bool == {"y", "n"}
    assert set(constructor.bool_values) <= set(yamlio.YAML11_BOOLEANS)


def test_the_records_layout_writes_one_key_per_line_and_nested_values_on_it() -> None:
    data = {"claims": [{"id": "c-1", "about": ["a100", "h100"], "value": 3.5, "ok": True, "where": {"row": "r 1"}}]}
    assert yamlio.dump_yaml(data, layout="records") == (
        'claims:\n  - id: c-1\n    about: [a100, h100]\n    value: 3.5\n    ok: true\n    where: {row: "r 1"}\n'
    )


@pytest.mark.parametrize(
    "text", ["y", "n", "yes", "off", "true", "null", "1e3", "0x1f", "Upper", "two words", "a:b", "#", "", "é", "-x"]
)
def test_the_records_layout_quotes_every_string_but_plain_lower_case_words(text: str) -> None:
    written = yamlio.dump_yaml({"records": [{"name": text, "list": [text]}]}, layout="records")
    quoted = '"' + text + '"'
    assert f"name: {quoted}\n" in written and f"list: [{quoted}]" in written
    parsed, issues = parse(written)
    assert issues == [] and parsed.data == {"records": [{"name": text, "list": [text]}]}


@pytest.mark.parametrize("text", ["a", "word", "snake_case", "kebab-case", "h100", "tokens_per_s"])
def test_the_records_layout_writes_lower_case_words_bare(text: str) -> None:
    assert yamlio.dump_yaml({"r": [{"k": text}]}, layout="records") == f"r:\n  - k: {text}\n"


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["id", "text", "value", "about", "where"]),
            st.one_of(
                st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), max_size=12),
                st.integers(-(10**6), 10**6),
                st.floats(allow_nan=False, allow_infinity=False, width=32),
                st.booleans(),
                st.lists(st.text(string.ascii_letters + " :#-", max_size=6), max_size=3),
                st.dictionaries(st.sampled_from(["row", "file"]), st.text(string.printable.strip(), max_size=8)),
            ),
            max_size=5,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_the_records_layout_reads_back_unchanged(records: list[dict]) -> None:
    parsed, issues = parse(yamlio.dump_yaml({"claims": records}, layout="records"))
    assert issues == [], [str(i) for i in issues]
    assert parsed.data == {"claims": records}


def test_the_records_layout_has_no_fast_emitter() -> None:
    with pytest.raises(ValueError, match="records layout has no LibYAML emitter"):
        yamlio.dump_yaml({"r": []}, fast=True, layout="records")
