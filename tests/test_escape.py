"""Every escaper: Markdown, plotly hover labels, spreadsheet cells and terminal output show text as itself."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

from selector.escape import (
    WORD_JOINER,
    hover_text,
    md_escape,
    neutralise,
    printable,
    printable_lines,
    safe_frame,
    streamlit_label,
    streamlit_md,
    streamlit_table,
)
from tests.examples import examples

EVIL = "<img src=x onerror=alert(1)>"


# ----------------------------------------------------------------------------------------------------------
# CommonMark


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 .<>&|*_[]()#!`~\\-+=:\n\t中\u00a0\"'")), max_size=30))
def test_md_escape_renders_as_the_text_itself(text):
    shown = " ".join(text.split())
    expected = f"<p>{escapeHtml(shown)}</p>\n" if shown else ""
    assert _md().render(md_escape(text)) == expected
    # In a table cell the text stays in its cell (extra cells would be dropped silently, so compare the content).
    table = _md().render(f"| h |\n| --- |\n| {md_escape(text)} |\n")
    assert f"<td>{escapeHtml(shown)}</td>" in table


# ----------------------------------------------------------------------------------------------------------
# Streamlit Markdown


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 .<>&|*_[]()#!`~\\-+=:$中\"'")), min_size=1, max_size=30))
def test_streamlit_md_renders_as_the_text_itself(text):
    # Streamlit renders CommonMark; every character that could start markup, HTML or one of Streamlit's
    # directives (:red[...], :material/icon:, $math$) arrives escaped, so the text is shown as typed.
    shown = text.strip(" ")
    expected = f"<p>{escapeHtml(shown)}</p>\n" if shown else ""
    assert _md().render(streamlit_md(text)).replace(WORD_JOINER, "") == expected
    assert ":" not in streamlit_md(text).replace("\\:", "")


# What Streamlit 1.67's Markdown element finds in text after parsing (copied from its bundled JavaScript, which
# test_the_patterns_are_those_streamlit_ships checks): GFM autolink literals, emoji shortcodes (:material_x: is one,
# after the element rewrote `:material/` before parsing).
_AUTOLINK_URL = re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE)
_AUTOLINK_EMAIL = re.compile(r"(?:^|(?<=[\s\W]))([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)", re.ASCII)
_SHORTCODE = re.compile(r":\+1:|:-1:|:[\w-]+:", re.ASCII)


def _streamlit_text(markdown: str) -> str:
    """The text nodes Streamlit's renderer sees: `:material/` rewritten first, then CommonMark's escapes resolved."""
    rewritten = markdown.replace(":material/", ":material_")
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", rewritten)


@pytest.mark.parametrize(
    "name",
    [
        "www.evil.example",
        "WwW.Evil.example",
        "see https://evil.example/x",
        "http://a.b",
        "mail bob@evil.example",
        ":material/home: chip",
        ":smile: :+1: :fire:",
        "ratio 3:1:2 x:y:",
    ],
)
@pytest.mark.parametrize("escaper", [streamlit_md, streamlit_label])
def test_user_names_never_become_links_icons_or_emoji(name, escaper):
    seen = _streamlit_text(escaper(name))
    assert not _AUTOLINK_URL.search(seen) and not _AUTOLINK_EMAIL.search(seen) and not _SHORTCODE.search(seen)
    assert seen.replace(WORD_JOINER, "").replace(":material_", ":material/") == " ".join(name.split())


def test_the_patterns_are_those_streamlit_ships():
    import streamlit

    bundle = Path(streamlit.__file__).parent / "static" / "static" / "js"
    text = "".join(p.read_text(encoding="utf-8", errors="replace") for p in bundle.glob("*.js"))
    assert r"/(https?:\/\/|www(?=\.))([-.\w]+)([^ \t\r\n]*)/gi" in text
    assert r"([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)/gu" in text
    assert r"/:\+1:|:-1:|:[\w-]+:/g" in text
    assert "replaceAll(`:material/`,`:material_`)" in text


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aw.:/@hpts+-_1 ")), min_size=1, max_size=30))
def test_no_text_escaped_for_streamlit_holds_a_link_or_shortcode(text):
    for escaper in (streamlit_md, streamlit_label):
        seen = _streamlit_text(escaper(text))
        assert not _AUTOLINK_URL.search(seen) and not _AUTOLINK_EMAIL.search(seen) and not _SHORTCODE.search(seen)


def test_streamlit_md_keeps_line_breaks_as_hard_breaks():
    assert _md().render(streamlit_md("a\nb")) == "<p>a<br />\nb</p>\n"


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from(list("ab1 .<>&|*_[]()#!`~\\-+=:$中\n")), max_size=12), min_size=1, max_size=4
    )
)
def test_streamlit_table_keeps_every_cell_in_its_cell_as_written(texts):
    frame = pd.DataFrame({"name": texts, "score": [0.5] * len(texts)})
    rendered = _md().render(streamlit_table(frame, {"score": ".2f"})).replace(WORD_JOINER, "")
    assert rendered.count("<tr>") == len(texts) + 1  # a header row and one row per record: no cell ended a row
    for text in texts:
        assert f"<td>{escapeHtml(' '.join(text.split()))}</td>" in rendered
    assert rendered.count('<td style="text-align:right">0.50</td>') == len(texts)


def test_streamlit_table_leaves_missing_values_empty_and_formats_only_what_it_is_told():
    frame = pd.DataFrame({"a": ["x", None], "n": [1.23456, float("nan")], "k": [3, 4]})
    rendered = _md().render(streamlit_table(frame, {"n": ".2f"}))
    assert "<td>x</td>" in rendered and "<td></td>" in rendered
    assert ">1.23<" in rendered and ">3<" in rendered and "nan" not in rendered
    # a mapping of columns draws the same table as the frame
    assert streamlit_table(frame.to_dict("list"), {"n": ".2f"}) == streamlit_table(frame, {"n": ".2f"})
    # a column of numbers is right-aligned, a column of text or of booleans is not
    assert streamlit_table({"t": ["a"], "b": [True], "x": [1.5]}).splitlines()[1] == "|---|---|---:|"


# ----------------------------------------------------------------------------------------------------------
# Plotly hover labels


def test_hover_text_escapes_markup_and_keeps_lines():
    text = hover_text(f"first line\n{EVIL}", width=200)
    assert "<img" not in text
    assert "&lt;img" in text
    assert text.count("<br>") == 1


def test_hover_text_breaks_long_chinese_runs():
    text = hover_text("能" * 100, width=30)
    assert text.count("<br>") == 3
    assert hover_text(None) == ""


# ----------------------------------------------------------------------------------------------------------
# Spreadsheet cells


@pytest.mark.parametrize("value", ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx", '=HYPERLINK("http://x")'])
def test_formula_prefixes_are_quoted(value):
    assert neutralise(value) == "'" + value


@pytest.mark.parametrize("value", ["H200", "", " =not first", "a=b", "'=already", 3, -1.5, None, True])
def test_other_values_are_unchanged(value):
    assert neutralise(value) is value or neutralise(value) == value


def test_safe_frame_neutralises_text_cells_and_labels_only():
    df = pd.DataFrame({"=name": ["=cmd", "ok"], "score": [-0.5, 1.0]}, index=["@a", "b"])
    df.index.name = "+idx"
    out = safe_frame(df)
    assert out["'=name"].tolist() == ["'=cmd", "ok"]
    assert out["score"].tolist() == [-0.5, 1.0]
    assert out.index.tolist() == ["'@a", "b"] and out.index.name == "'+idx"
    assert df.columns.tolist() == ["=name", "score"] and df["=name"].tolist() == ["=cmd", "ok"]  # input untouched


# ----------------------------------------------------------------------------------------------------------
# Terminal output


def test_escapes_bell_escape_and_line_breaks() -> None:
    assert printable("Evil \x1b]0;pwned\x07 NPU") == "Evil \\e]0;pwned\\x07 NPU"
    assert printable("a\r\nb\tc\x9bd\u202ee") == "a\\r\\nb\\tc\\x9bd\\u202ee"


def test_plain_text_and_chinese_are_unchanged() -> None:
    text = "NVIDIA Jetson Orin 边缘芯片 (172 TOPS, 60 W) - 1.0e+3 = ok"
    assert printable(text) == text


def test_lines_escape_each_row_so_no_row_can_be_forged() -> None:
    out = printable_lines(["   1  real", "   2  fake\n   1  forged"])
    assert out.split("\n") == ["   1  real", "   2  fake\\n   1  forged"]


@given(st.text())
def test_no_control_character_survives(text: str) -> None:
    out = printable(text)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in out)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Vendor lock-in (assessed): relative weight → 20% of Risk", None),
        ("Do the models use dynamic graphs (control flow)? 模型是否使用动态图？", None),
        ("a *b* _c_ `d` [e](f) <g> $h$ ~i~", r"a \*b\* \_c\_ \`d\` \[e\](f) \<g\> \$h\$ \~i\~"),
        # a word joiner after the colon of an icon (Streamlit rewrites `:material/` before it parses, so a
        # backslash alone does not stop it); the directive is stopped by its backslash
        (":red[x] :material/home: note: fine", "\\:red\\[x\\] :\u2060material/home: note: fine"),
        ("# title", r"\# title"),
        ("1. first", r"1\. first"),
        ("- item", r"\- item"),
    ],
)
def test_streamlit_labels_escape_only_what_markdown_would_act_on(text, shown):
    """A widget's aria-label is its label as given: plain names stay free of escapes a screen reader would read."""
    assert streamlit_label(text) == (text if shown is None else shown)
