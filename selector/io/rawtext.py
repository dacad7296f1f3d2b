"""Outside files as text, JSON or CSV rows: decoded, nested and sized within limits, every refusal with a line.

The front door shared by the benchmark-output readers and the dataset importers (the knowledge YAML has its own,
:mod:`selector.io.yamlio`). Python's own parsers fail with a traceback, or with minutes of work, on inputs a file can
hold: ``json.loads`` recurses once per nesting level (a few thousand ``[`` raise ``RecursionError``), turns a
5,000-digit integer into a ``ValueError`` and a 400-digit one into an int that ``float()`` cannot convert;
``csv`` raises on a field over 128 kB. Here the nesting is counted in one linear pass before parsing, numbers are
checked as they are parsed (:mod:`selector.io.numbers`), and every refusal is a :class:`RawTextError` with file and
line.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator

from selector.errors import SelectorError
from selector.io.numbers import MAX_CHARS, NumberRefused, parse_number
from selector.issues import Issue

#: Nesting a JSON document may have (llama-bench and LoadGen need 2; MLPerf's and AccelMark's JSON fewer than 10).
MAX_JSON_DEPTH = 64
#: Characters a CSV field may hold (Python's csv module refuses more than its own 128 kB limit with a traceback).
MAX_CSV_FIELD = 100_000


class RawTextError(SelectorError, ValueError):
    """An outside file that cannot be read as text, JSON or CSV; ``issues`` say which file, which line, and why."""

    def __init__(self, issue: Issue) -> None:
        self.issues = (issue,)
        super().__init__(str(issue))


def refuse(name: str, line: int | None, message: str) -> RawTextError:
    """A :class:`RawTextError` with one ERROR issue."""
    return RawTextError(Issue("ERROR", name, line, None, message))


def decode(name: str, data: bytes) -> str:
    """`data` as UTF-8 text (a byte-order mark dropped); a NUL byte or invalid UTF-8 is refused with its line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise refuse(name, line, "not UTF-8 text; give the tool's output as it wrote it (UTF-8)") from None
    nul = text.find("\0")
    if nul >= 0:
        raise refuse(name, text.count("\n", 0, nul) + 1, "holds a NUL byte: a binary file, not a text output")
    return text


def line_at(text: str, index: int) -> int:
    """The 1-based line of character `index` of `text`."""
    return text.count("\n", 0, max(index, 0)) + 1


# A JSON string (skipped whole) or one bracket: one regular-expression pass over the text, no Python loop per character.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def json_depth_problem(text: str, limit: int = MAX_JSON_DEPTH) -> tuple[int, int] | None:
    """(line, depth) where `text` nests deeper than `limit` arrays/objects, or None; one pass, strings skipped."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        char = match.group()[0]
        if char in "[{":
            depth += 1
            if depth > limit:
                return line_at(text, match.start()), depth
        elif char in "]}":
            depth -= 1
    return None


def entry_lines(text: str) -> list[int]:
    """The line of each item of a top-level JSON array (where its ``{`` or ``[`` opens), in one linear pass.

    A reader names an entry's line in a refusal; counting from the start of the file for each entry made a
    file of n entries cost n passes.
    """
    lines: list[int] = []
    depth, line, position = 0, 1, 0
    for match in _STRING_OR_BRACKET.finditer(text):
        char = match.group()[0]
        if char in "[{":
            depth += 1
            if depth == 2:
                line += text.count("\n", position, match.start())
                position = match.start()
                lines.append(line)
        elif char in "]}":
            depth -= 1
    return lines


def load_json(name: str, text: str, max_depth: int = MAX_JSON_DEPTH, hint: str = "") -> object:
    """`text` parsed as JSON with its nesting and every number checked.

    Numbers are parsed by :func:`selector.io.numbers.parse_number` (at most ``MAX_CHARS`` characters, finite, in
    range); ``NaN`` and ``Infinity`` are refused.

    Raises
    ------
    RawTextError
        For malformed JSON (with its line), nesting deeper than `max_depth`, or a number out of bounds (with the
        line where it is first written).
    """
    deep = json_depth_problem(text, max_depth)
    if deep is not None:
        raise refuse(name, deep[0], f"JSON nested more than {max_depth} levels deep; not a benchmark or dataset file")

    def number(literal: str) -> float | int:
        try:
            value = parse_number(literal)
        except NumberRefused as exc:
            raise _NumberAt(literal, str(exc)) from None
        return int(literal) if literal.lstrip("+-").isdigit() else value

    def constant(literal: str) -> float:
        raise _NumberAt(literal, f"`{literal}` is not a finite number")

    def stated_once(pairs: list[tuple[str, object]]) -> dict:
        # json.loads keeps the last of a key written twice in one object: which figure was meant is unknown
        found: dict = {}
        for key, value in pairs:
            if key in found and found[key] != value:
                raise _DuplicateKey(key)
            found[key] = value
        return found

    try:
        return json.loads(
            text, parse_int=number, parse_float=number, parse_constant=constant, object_pairs_hook=stated_once
        )
    except json.JSONDecodeError as exc:
        raise refuse(name, exc.lineno, f"not valid JSON ({exc.msg}){hint}") from None
    except _NumberAt as exc:
        found = text.find(exc.literal[: MAX_CHARS + 1])
        raise refuse(name, line_at(text, found) if found >= 0 else None, exc.message) from None
    except _DuplicateKey as exc:
        quoted = json.dumps(exc.key)
        first = text.find(quoted)
        second = text.find(quoted, first + 1) if first >= 0 else -1
        message = f"key {quoted[:42]} is stated twice in one object with different values; which one is meant?"
        raise refuse(name, line_at(text, second) if second >= 0 else None, message) from None


class _DuplicateKey(Exception):
    """A key written twice in one JSON object with different values."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(key)


class _NumberAt(Exception):
    """A number refused while JSON was parsed (json.loads knows no position to give its hooks)."""

    def __init__(self, literal: str, message: str) -> None:
        self.literal, self.message = literal, message
        super().__init__(message)


def csv_rows(name: str, text: str, delimiter: str = ",") -> Iterator[tuple[int, list[str]]]:
    """(first line, cells) of every CSV record of `text`; a field over ``MAX_CSV_FIELD`` characters is refused.

    Raises
    ------
    RawTextError
        For a malformed record or an oversized field, with the line where the record starts.
    """
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if "field larger than field limit" in str(exc):
                # the csv module's own limit (process-wide, so left alone) stops a longer field before ours
                limit = csv.field_size_limit()
                message = f"a CSV field of over {limit:,} characters; a field holds at most {MAX_CSV_FIELD:,}"
                raise refuse(name, start, message) from None
            raise refuse(name, start, f"not readable as CSV ({exc}); save the file as plain CSV") from None
        long = next((c for c in cells if len(c) > MAX_CSV_FIELD), None)
        if long is not None:
            message = f"a CSV field of {len(long):,} characters; a field holds at most {MAX_CSV_FIELD:,}"
            raise refuse(name, start, message)
        yield start, cells
        start = reader.line_num + 1
