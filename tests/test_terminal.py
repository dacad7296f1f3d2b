"""Tests of selector/terminal.py: control and bidirectional characters reach a terminal only as escapes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from selector import terminal


def test_escapes_bell_escape_and_line_breaks() -> None:
    assert terminal.printable("Evil \x1b]0;pwned\x07 NPU") == "Evil \\e]0;pwned\\x07 NPU"
    assert terminal.printable("a\r\nb\tc\x9bd\u202ee") == "a\\r\\nb\\tc\\x9bd\\u202ee"


def test_plain_text_and_chinese_are_unchanged() -> None:
    text = "NVIDIA Jetson Orin 边缘芯片 (172 TOPS, 60 W) - 1.0e+3 = ok"
    assert terminal.printable(text) == text


def test_lines_escape_each_row_so_no_row_can_be_forged() -> None:
    out = terminal.lines(["   1  real", "   2  fake\n   1  forged"])
    assert out.split("\n") == ["   1  real", "   2  fake\\n   1  forged"]


@given(st.text())
def test_no_control_character_survives(text: str) -> None:
    out = terminal.printable(text)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in out)
