"""Tests of selector/io/textpolicy.py: which characters are refused, and where they are reported."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from selector.io.textpolicy import first_hidden, hidden, shown
from tests.examples import examples


def _refused_by_category(char: str) -> bool:
    category = unicodedata.category(char)
    return category in ("Cf", "Zl", "Zp") or (category == "Cc" and char not in "\t\n\r")


# Egyptian hieroglyph format controls that Unicode 15 added to Cf; refused already so a newer Python changes nothing.
_CF_SINCE_UNICODE_15 = {f"U+{cp:04X}" for cp in range(0x13439, 0x13440)}


def test_the_written_out_class_is_exactly_the_refused_unicode_categories() -> None:
    # every code point on a line of its own (hidden() reports one per line), a leading BOM not skipped
    chars = [chr(cp) for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp <= 0xDFFF]
    found = {h.char for h in hidden("\n".join(chars), limit=len(chars), skip_bom=False)}
    missing, extra = [], []
    for char in chars:
        refused, expected = char in found, _refused_by_category(char)
        if expected and not refused:
            missing.append(f"U+{ord(char):04X}")
        elif refused and not expected:
            extra.append(f"U+{ord(char):04X}")
    assert missing == [], f"unicodedata {unicodedata.unidata_version} has refused characters the class lacks"
    assert set(extra) <= _CF_SINCE_UNICODE_15, extra


@pytest.mark.parametrize(
    ("char", "kind"),
    [
        ("\u202e", "bidirectional control"),
        ("\u2066", "bidirectional control"),
        ("\u200f", "bidirectional control"),
        ("\u200b", "zero-width"),
        ("\u200d", "zero-width"),
        ("\u2060", "zero-width"),
        ("\x00", "control character"),
        ("\x1b", "control character"),
        ("\x85", "control character"),
        ("\U000e0041", "invisible formatting character"),
        ("\xad", "invisible formatting character"),
    ],
)
def test_each_kind_is_named_with_its_code_point_and_what_to_do(char: str, kind: str) -> None:
    [found] = hidden(f"name: ok\nname: Jet{char}son\n")
    assert (found.line, found.column) == (2, 10)
    assert kind in found.message
    assert f"U+{ord(char):04X}" in found.message
    assert "delete it" in found.message


@pytest.mark.parametrize(
    "text", ["plain ASCII", "中文，：（）", "tab\tand\r\nlines", "Ελληνικά", "emoji 🚀", "\ufeffBOM first"]
)
def test_ordinary_text_passes(text: str) -> None:
    assert hidden(text) == []


def test_a_bom_is_accepted_only_as_the_first_character() -> None:
    assert hidden("\ufeffa") == []
    assert [h.column for h in hidden("a\ufeffb")] == [2]
    assert first_hidden("\ufeffa") is not None, "inside a value a BOM is a zero-width no-break space"


def test_one_report_per_line_and_at_most_the_limit() -> None:
    text = "a\x00\x00\x00\n" * 50
    found = hidden(text, limit=5)
    assert [h.line for h in found] == [1, 2, 3, 4, 5]
    assert all(h.column == 2 for h in found)


def test_first_hidden_is_none_for_clean_text() -> None:
    assert first_hidden("clean") is None
    assert "U+202E" in first_hidden("ab\u202ec")


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.text(max_size=30), max_size=8))
def test_lines_and_columns_point_at_the_character(lines: list[str]) -> None:
    text = "\n".join(lines)
    for found in hidden(text, limit=1000):
        assert text.split("\n")[found.line - 1][found.column - 1] == found.char


def test_shown_makes_every_refused_character_visible_and_keeps_the_rest() -> None:
    assert shown("a\x1b[2Jb\u202ec\u200bd\ufeff") == "a\ufffd[2Jb\ufffdc\ufffdd\ufffd"
    assert shown("中文 tab\tline\n") == "中文 tab\tline\n"
    assert not hidden(shown("".join(map(chr, range(0x20)))), skip_bom=False)
