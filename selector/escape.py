"""Every escaper: text from the knowledge or a user's file shown as itself, never as markup, formula or control.

- CommonMark (the Markdown report): :func:`md_escape`, :class:`MdSafe`;
- Streamlit Markdown (``st.markdown``, ``st.caption``, labels and help texts in the app): :func:`streamlit_md`,
  :func:`streamlit_table`;
- plotly hover labels and trace names (a small HTML subset): :func:`hover_text`, :func:`hover_labels`;
- XML text (the report's SVG charts): :func:`xml_text`;
- spreadsheet cells (CSV/formula injection): :func:`neutralise`, :func:`safe_frame`;
- a terminal (control and bidirectional characters): :func:`printable`, :func:`printable_lines`.
"""

from __future__ import annotations

import functools
import html
import math
import numbers
import re
import string
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# ----------------------------------------------------------------------------------------------------------
# CommonMark


class MdSafe(str):
    """Markdown already built from escaped parts: the Markdown environment writes it unchanged."""

    __slots__ = ()


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]#!|~])")
# What would start a list, a heading underline or an ordered list when a value opens a line.
_MD_BLOCK_START = re.compile(r"^(\d*)([-+=.)])(?=\s|[-+=]|$)")


def md_escape(value: object) -> MdSafe:
    """`value` as literal Markdown text that renders as itself and never as markup.

    Whitespace runs (newlines included) become one space, so a value cannot end a table row or start a block;
    ``&``, ``<`` and ``>`` become entities, so no HTML passes through a Markdown renderer; Markdown's inline
    specials (backslash, backtick, ``* _ { } [ ] # ! | ~``) are backslash-escaped, and a leading ``-``, ``+``,
    ``=`` or ``1.`` cannot start a list or a heading.

    Parameters
    ----------
    value
        Anything; it is shown as ``str(value)``. An :class:`MdSafe` value is returned unchanged.

    Returns
    -------
    MdSafe
        Text that is safe in a paragraph, a list item, a heading or a table cell.
    """
    if isinstance(value, MdSafe):
        return value
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    text = _MD_BLOCK_START.sub(r"\1\\\2", text)
    return MdSafe(text)


# ----------------------------------------------------------------------------------------------------------
# Streamlit Markdown

# Markdown and Streamlit's own directives (:red[...], :material/icon:) are neutralised by escaping every
# ASCII punctuation character that could start them; CommonMark shows an escaped character literally.
# A translation table rather than a regular expression: every page escapes hundreds of short texts per run.
#
# Escaping is not enough for what Streamlit finds in the text after parsing, or before it: its Markdown element
# rewrites `:material/` before parsing (so an escaped `\:material/home\:` still becomes an icon), turns `:smile:`
# into an emoji and makes links of `www.`, `http(s)://` and `user@host.tld` found in plain text (the GFM
# autolink-literal regular expressions, applied to text nodes). A WORD JOINER (U+2060, invisible, never a line
# break) is put where one of those patterns matches, and only there: after the colon of `http(s):` and of an
# opening `:shortcode:`, between `www` and its dot, before the `@` of an address.
WORD_JOINER = "\u2060"
_STREAMLIT_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()#+-.!|<>~$:&="} | {"\n": "  \n"})
# Supersets of Streamlit 1.67's patterns (tests/test_escape.py checks them against its bundle): a match here that
# Streamlit would not make only costs an invisible character.
_URL_START = re.compile(r"(?i)(?<=http:|ttps:)(?=//)|(?<=www)(?=\.)")
_ADDRESS_AT = re.compile(r"(?<=[-.\w+])(?=@[-\w]+(?:\.[-\w]+)+)")
_SHORTCODE = re.compile(r":(?=(?:[\w-]+|\+1|-1):)|:(?=material/)")


def _unlinked(text: str) -> str:
    """`text` with a WORD JOINER where Streamlit would find a link, an address, an icon or an emoji shortcode."""
    if "ww" in text.lower() or "http" in text.lower():
        text = _URL_START.sub(WORD_JOINER, text)
    if "@" in text:
        text = _ADDRESS_AT.sub(WORD_JOINER, text)
    if ":" in text:
        # the match is the colon alone (the rest is look-ahead), so in `:a:b:` both `:a:` and `:b:` are broken
        text = _SHORTCODE.sub(":" + WORD_JOINER, text)
    return text


def streamlit_md(text: object) -> str:
    """`text` escaped for Streamlit's Markdown (``st.markdown``, ``st.caption``, widget labels and help): knowledge
    and upload text is shown, never interpreted; a line break stays a line break."""
    return _escaped(str(text))


@functools.lru_cache(maxsize=4096)
def _escaped(text: str) -> str:
    # kept: a page escapes the same names and labels on every run, and a lookup costs a tenth of a translation
    return _unlinked(text).translate(_STREAMLIT_SPECIAL)


def streamlit_table(table: Any, formats: Mapping[str, str] | None = None) -> str:
    """`table` as a Markdown table for ``st.markdown``: a pandas DataFrame (its index is not shown) or a mapping
    of column name to its values.

    Static Markdown rather than a data grid for the small tables the pages redraw often: a grid mounts a canvas
    component (its cost on a page switch: benchmarks/bench_browser.py) where a Markdown table
    is plain HTML. Every cell is shown as written: escaped as :func:`streamlit_md` escapes, on one line (a line
    break would end the row). Missing values are empty cells, booleans "yes"/"no"; numbers follow `formats`
    (column -> format spec, e.g. ``".4f"``; ``"g"`` otherwise) and a column of numbers is right-aligned.
    """
    formats = dict(formats or {})
    columns = {str(name): list(table[name]) for name in table}

    def cell(value: Any, column: str) -> str:
        if _missing(value):
            return ""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, numbers.Number):
            return streamlit_md(format(value, formats.get(column, "g")))
        return streamlit_md(" ".join(str(value).split()))

    def numeric(values: list) -> bool:
        present = [v for v in values if not _missing(v)]
        return bool(present) and all(isinstance(v, numbers.Number) and not isinstance(v, bool) for v in present)

    lines = [
        "| " + " | ".join(streamlit_md(name) for name in columns) + " |",
        "|" + "|".join("---:" if numeric(values) else "---" for values in columns.values()) + "|",
    ]
    for row in zip(*columns.values(), strict=True):
        lines.append("| " + " | ".join(cell(v, c) for v, c in zip(row, columns, strict=True)) + " |")
    return "\n".join(lines)


def _missing(value: Any) -> bool:
    # None, NaN, and pandas' NA/NaT (by type name: this module does not import pandas)
    return (
        value is None
        or (isinstance(value, float) and math.isnan(value))
        or type(value).__name__ in ("NAType", "NaTType")
    )


# A widget's label is Markdown on screen but its aria-label is the string as given, so a screen reader would read
# every escape out: only what could start Markdown or a directive on one line is escaped ("lock-in" and
# "(stars)" stay as they are).
_LABEL_SPECIAL = re.compile(r"([\\`*_~\[\]<>$]|:(?=[A-Za-z/])|&(?=#?\w+;)|^\s*[#>+\-=|]|^\s*\d+[.)])")
_PUNCTUATION = frozenset(string.punctuation)


def streamlit_label(text: object) -> str:
    """`text` for a Streamlit widget label or option, on one line: shown literally, with no escape where none is
    needed, so that its aria-label reads as the text itself."""
    one_line = " ".join(str(text).split())
    return _LABEL_SPECIAL.sub(
        lambda m: "".join(f"\\{c}" if c in _PUNCTUATION else c for c in m.group(1)), _unlinked(one_line)
    )


# ----------------------------------------------------------------------------------------------------------
# Plotly hover labels


def hover_text(text: str | None, width: int = 48) -> str:
    """Text made safe for a plotly hover label: markup escaped, wrapped with ``<br>`` every `width` characters.

    Plotly renders a small HTML subset in labels, so anything from the knowledge (or a user's upload) is
    escaped before the line breaks are added. Newlines are kept; Chinese text has no spaces, so long runs are
    broken at `width`.
    """
    if not text:
        return ""
    lines = []
    for paragraph in str(text).split("\n"):
        lines.extend(textwrap.wrap(paragraph, width=width, break_long_words=True) or [""])
    return "<br>".join(html.escape(line) for line in lines)


def hover_labels(values: Sequence) -> list[str]:
    """Each value as text safe in a plotly label or trace name (markup escaped, no wrapping)."""
    return [html.escape(str(v)) for v in values]


# ----------------------------------------------------------------------------------------------------------
# XML (the report's SVG charts)

# What XML 1.0 does not allow in a document at all, even escaped: C0 controls other than tab, line feed and
# carriage return, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: object) -> str:
    """`value` as XML character data or an attribute value: markup and quotes escaped, characters that XML forbids
    replaced by U+FFFD, so a drawing stays well-formed whatever the text holds."""
    return html.escape(_NOT_XML.sub("\ufffd", str(value)), quote=True)


# ----------------------------------------------------------------------------------------------------------
# Spreadsheet cells
#
# A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return can be run as a formula when the
# file is opened in a spreadsheet; OWASP's advice is to prefix such cells with a single quote so they are shown as
# text. Only strings are changed: numbers (a negative score) are written as numbers.

#: First characters that make a spreadsheet treat a cell as a formula.
FORMULA_PREFIXES: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> Any:
    """Return ``value`` with a leading single quote if it is a string a spreadsheet would run as a formula.

    Parameters
    ----------
    value : Any
        A cell value; anything that is not a ``str`` is returned unchanged.

    Returns
    -------
    Any
        ``"'" + value`` for a dangerous string, otherwise ``value`` itself.
    """
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def safe_frame(df: Any) -> Any:
    """Return a copy of a pandas DataFrame whose text cells, column labels and index labels are neutralised.

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    pandas.DataFrame
        A new frame; numeric columns are left as they are, ``df`` is not modified.
    """
    import pandas as pd

    out = df.copy()
    for column in out.columns:
        if not pd.api.types.is_numeric_dtype(out[column]) and not pd.api.types.is_bool_dtype(out[column]):
            out[column] = out[column].map(neutralise)
    out.columns = out.columns.map(neutralise)
    out.index = out.index.map(neutralise)
    out.index.name = neutralise(df.index.name)
    return out


# ----------------------------------------------------------------------------------------------------------
# Terminal output
#
# An escape sequence (ESC), a bell (BEL), a carriage return or a line break inside a name or a sentence would let data
# colour the terminal, set its window title, or forge a line of a table. The knowledge refuses them in names; output
# that shows user text escapes them here as well, so no path from a file to the terminal sends one raw.


# C0 and C1 controls, DEL, and the bidirectional controls that reorder what a terminal shows.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\x1b": "\\e"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """`text` as one line a terminal shows literally: control and bidirectional characters become escapes.

    Parameters
    ----------
    text
        Anything; it is converted with ``str``.

    Returns
    -------
    str
        The text with ``\\t``, ``\\n``, ``\\r``, ``\\e`` (ESC) and ``\\xNN``/``\\uNNNN`` in place of such characters.
    """
    return _UNPRINTABLE.sub(_escape, str(text))


def printable_lines(rows: Iterable[object]) -> str:
    """The rows of a table or report joined by line breaks, each row made :func:`printable` first."""
    return "\n".join(printable(row) for row in rows)
