"""The front door for outside text: JSON nesting and numbers checked, CSV fields capped, every refusal with a line."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.io import rawtext


def refusal(call, *args):  # noqa: ANN001, ANN202
    with pytest.raises(rawtext.RawTextError) as caught:
        call(*args)
    return caught.value.issues[0]


def test_json_nested_thousands_deep_is_refused_at_its_line_not_with_a_recursion_error() -> None:
    text = "[\n" + "[" * 5000 + "]" * 5000 + "\n]"
    issue = refusal(rawtext.load_json, "deep.json", text)
    assert (issue.file, issue.line) == ("deep.json", 2) and "nested more than 64" in issue.message


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"model": "[" * 500 + '\\"{' * 100})
    assert rawtext.load_json("s.json", text) == json.loads(text)


@pytest.mark.parametrize(
    ("number", "fragment"),
    [("9" * 5000, "5,000 characters"), ("9" * 400, "400 characters"), ("1e400", "not a finite"), ("NaN", "finite")],
)
def test_json_numbers_out_of_bounds_are_refused_at_their_line(number: str, fragment: str) -> None:
    text = '[\n  {"a": 1},\n  {"avg_ts": ' + number + "}\n]"
    issue = refusal(rawtext.load_json, "n.json", text)
    assert issue.line == 3 and fragment in issue.message


def test_malformed_json_names_its_line_and_the_hint() -> None:
    issue = refusal(rawtext.load_json, "t.json", '[\n{"a": 1},\n{"a": ', 64, " (truncated?)")
    assert issue.line == 3 and issue.message.endswith("(truncated?)")


def test_entry_lines_are_found_in_one_pass() -> None:
    entries = [{"name": f"e{i}", "text": "{[\n]}"} for i in range(5)]
    text = json.dumps(entries, indent=2)
    opening = [i + 1 for i, line in enumerate(text.split("\n")) if line == "  {"]
    assert rawtext.entry_lines(text) == opening

    def cost(n: int) -> float:
        big = json.dumps([{"avg_ts": 1.5, "n": i} for i in range(n)], indent=1)

        def once() -> float:
            start = time.perf_counter()
            assert len(rawtext.entry_lines(big)) == n
            return time.perf_counter() - start

        # the best of three: a pause of this process (other tests on the same cores) only ever adds time
        return min(once() for _ in range(3))

    cost(1000)  # warm
    # linear: ten times the entries costs about ten times as long (the quadratic lookup cost a hundred times)
    assert cost(40_000) < 30 * max(cost(4_000), 1e-3)


def test_a_nul_byte_or_invalid_utf8_is_refused_with_its_line() -> None:
    assert refusal(rawtext.decode, "b.txt", b"ok\nbad\xff\n").line == 2
    assert "NUL" in refusal(rawtext.decode, "b.txt", b"ok\n\nx\0y").message
    assert rawtext.decode("bom.txt", b"\xef\xbb\xbfhello") == "hello"


def test_a_csv_field_over_the_cap_is_refused_with_the_line_of_its_record() -> None:
    text = "a,b\n1,2\n3," + "x" * 200_000 + "\n"
    issue = refusal(lambda: list(rawtext.csv_rows("big.csv", text)))
    assert issue.line == 3
    text = "a,b\n1,2\n3," + "x" * (rawtext.MAX_CSV_FIELD + 1) + "\n"
    assert "at most 100,000" in refusal(lambda: list(rawtext.csv_rows("big.csv", text))).message


def test_csv_records_keep_the_line_they_start_on() -> None:
    text = 'a,b\n1,"two\nlines"\n3,4\n'
    assert list(rawtext.csv_rows("c.csv", text)) == [(1, ["a", "b"]), (2, ["1", "two\nlines"]), (4, ["3", "4"])]


@given(st.recursive(st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(), lambda c: st.lists(c)))
def test_any_shallow_json_reads_back_as_json_reads_it(value: object) -> None:
    text = json.dumps(value)
    assert rawtext.load_json("p.json", text) == json.loads(text)
