"""Text for a terminal: every control character a line of output holds is shown as an escape, never sent raw.

An escape sequence (ESC), a bell (BEL), a carriage return or a line break inside a name or a sentence would let data
colour the terminal, set its window title, or forge a line of a table. The knowledge refuses them in names; output
that shows user text escapes them here as well, so no path from a file to the terminal sends one raw.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

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


def lines(rows: Iterable[object]) -> str:
    """The rows of a table or report joined by line breaks, each row made :func:`printable` first."""
    return "\n".join(printable(row) for row in rows)
