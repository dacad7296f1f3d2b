"""Which characters a reader refuses in what a user or the knowledge gives: controls and invisible format characters.

Control characters (NUL, escape, ...) are how binary or mis-encoded files show up, and terminal escapes can rewrite a
terminal. Bidirectional controls (U+202E and the isolates), zero-width characters and the other Unicode *format*
characters (category Cf) are invisible: they make a name display as another or hide text in plain sight
("Trojan Source", tag-character smuggling). None of them is needed in an id, a name or a text here, so every reader
refuses them with the line and column, instead of silently stripping them (a user must see what was in the file).
Emoji joined by a zero-width joiner are refused too: they are not worth the spoofing they allow.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Unicode categories Cc (except tab, line feed, carriage return), Cf, Zl and Zp, written out: building the class from
# unicodedata at import would walk 1.1 million code points. tests/io/test_textpolicy.py checks it against unicodedata.
_HIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")
_NAMES = {0: "NUL", 0x1B: "ESC", 0x7F: "DEL", 0x0B: "VT", 0x0C: "FF", 0x85: "NEL"}


@dataclass(frozen=True)
class Hidden:
    """One refused character: where it is (1-based line and column) and what it is."""

    line: int
    column: int
    char: str

    @property
    def code(self) -> str:
        """``U+202E (RIGHT-TO-LEFT OVERRIDE)``."""
        name = unicodedata.name(self.char, "") or _NAMES.get(ord(self.char), "control character")
        return f"U+{ord(self.char):04X} ({name})"

    @property
    def message(self) -> str:
        """What the character is, why it is refused and what to write instead."""
        if self.char in _BIDI:
            why = "a bidirectional control: it makes text display in another order than it is read"
        elif self.char in _ZERO_WIDTH:
            why = "an invisible zero-width character: it makes a name look like another"
        elif unicodedata.category(self.char) == "Cc":
            why = "a control character (is the file binary, or saved as UTF-16? save it as UTF-8 text)"
        else:
            why = "an invisible formatting character"
        return f"column {self.column}: {self.code} is {why}; delete it (retype the text around it if unsure)"


def hidden(text: str, limit: int = 10, skip_bom: bool = True) -> list[Hidden]:
    """The refused characters in `text`, at most one per line and `limit` in all, in file order.

    Parameters
    ----------
    text
        Decoded text (a whole file or one value).
    limit
        Stop after this many lines with a refused character (a binary file would otherwise give thousands).
    skip_bom
        Accept a byte order mark as the very first character (editors write one; readers skip it).
    """
    found: list[Hidden] = []
    line, line_start, counted_to = 1, 0, 0
    start = 1 if skip_bom and text.startswith("\ufeff") else 0
    while len(found) < limit:
        match = _HIDDEN.search(text, start)
        if match is None:
            break
        at = match.start()
        newlines = text.count("\n", counted_to, at)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", counted_to, at) + 1
        found.append(Hidden(line, at - line_start + 1, match.group()))
        end = text.find("\n", at)
        if end < 0:
            break
        counted_to = start = end  # the rest of this line is skipped: one report per line
    return found


def shown(text: str) -> str:
    """`text` with every refused character replaced by U+FFFD: safe to quote in a message or print to a terminal."""
    return _HIDDEN.sub("\ufffd", text)


def first_hidden(text: str) -> str | None:
    """The message for the first refused character of a one-line value (no line number), or None."""
    found = hidden(text, limit=1, skip_bom=False)
    if not found:
        return None
    return found[0].message.partition(": ")[2]
