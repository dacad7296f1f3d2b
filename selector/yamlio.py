"""Guarded YAML reading: safe loading with size, alias and depth caps, duplicate keys and YAML 1.1 traps refused.

Every problem is returned as a :class:`Issue` carrying file and line, never raised half-way, so that a user sees
all that is wrong with a file at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import yaml

MAX_BYTES = 2_000_000
MAX_ALIASES = 50
MAX_DEPTH = 24
MAX_NODES = 200_000  # after alias expansion; the bundled files have ~1,300 each

Level = Literal["ERROR", "WARNING"]

_BOOL_WORDS = re.compile(r"^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$")
_YAML12_FLOAT = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+$")
_NON_FINITE = re.compile(r"^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$")


@dataclass(frozen=True)
class Issue:
    """One problem found in the knowledge: where it is and what to do about it."""

    level: Level
    file: str
    line: int | None
    record: str | None
    message: str

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        who = f" record `{self.record}`" if self.record else ""
        return f"{self.level} {where}{who}: {self.message}"


class _GuardedLoader(yaml.SafeLoader):
    """SafeLoader that counts aliases; the counting guards against alias bombs before anything is constructed."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.alias_count = 0
        self.depth = 0

    def compose_node(self, parent, index):  # noqa: ANN001, ANN201 - signature fixed by PyYAML
        if self.check_event(yaml.AliasEvent):
            self.alias_count += 1
            if self.alias_count > MAX_ALIASES:
                raise yaml.composer.ComposerError(
                    None,
                    None,
                    f"more than {MAX_ALIASES} aliases (*name); expand them or split the file",
                    self.peek_event().start_mark,
                )
        # PyYAML composes recursively: refuse deep nesting here, before Python's recursion limit is reached.
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH + 1:
                raise yaml.composer.ComposerError(
                    None, None, f"nesting deeper than {MAX_DEPTH} levels", self.peek_event().start_mark
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


@dataclass(frozen=True)
class Parsed:
    """A parsed YAML document and the line of each path inside it (path = tuple of keys and list indexes)."""

    data: Any
    lines: dict[tuple, int]

    def line_of(self, path: tuple) -> int | None:
        """The line of the deepest known node on `path`."""
        for cut in range(len(path), -1, -1):
            line = self.lines.get(tuple(path[:cut]))
            if line is not None:
                return line
        return None


class _TooManyNodes(Exception):
    """A few aliases can expand a small file into millions of nodes; the walk stops counting at MAX_NODES."""

    def __init__(self, line: int) -> None:
        self.line = line


def _walk(node: yaml.Node, path: tuple, depth: int, lines: dict, issues: list[str]) -> None:
    line = node.start_mark.line + 1
    if len(lines) >= MAX_NODES:
        raise _TooManyNodes(line)
    lines[path] = line
    if depth > MAX_DEPTH:
        issues.append(f"line {line}: nesting deeper than {MAX_DEPTH} levels")
        return
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:
                issues.append(
                    f"line {key_node.start_mark.line + 1}: duplicate key `{key}` (first at line {seen[key]}); "
                    "YAML would silently keep only the last one"
                )
            seen[key] = key_node.start_mark.line + 1
            _check_scalar(key_node, issues)
            _walk(value_node, (*path, key), depth + 1, lines, issues)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), depth + 1, lines, issues)
    elif isinstance(node, yaml.ScalarNode):
        _check_scalar(node, issues)


def _check_scalar(node: yaml.Node, issues: list[str]) -> None:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.ScalarNode) and node.style is None:
        text = node.value
        if node.tag.endswith(":bool") and _BOOL_WORDS.match(text):
            issues.append(
                f"line {line}: `{text}` is read by YAML 1.1 as the boolean {text.lower() in ('y', 'yes', 'on')}; "
                f"write true/false for a boolean or quote it ('{text}') for text"
            )
        elif node.tag.endswith(":str") and _YAML12_FLOAT.match(text):
            issues.append(
                f"line {line}: `{text}` is read by YAML 1.1 as text, not a number; "
                "write it with a decimal point and a signed exponent (1.0e+3) or as a plain number (1000)"
            )
        elif node.tag.endswith(":float") and _NON_FINITE.match(text):
            issues.append(f"line {line}: `{text}` is not a finite number; give a real value")


def parse_yaml(raw: bytes, name: str, max_bytes: int = MAX_BYTES) -> tuple[Parsed | None, list[Issue]]:
    """Parse YAML bytes safely; returns the data with its line map, or None and the issues that stopped it."""

    def fail(message: str, line: int | None = None) -> tuple[None, list[Issue]]:
        return None, [Issue("ERROR", name, line, None, message)]

    if len(raw) > max_bytes:
        return fail(f"file is {len(raw):,} bytes; the limit is {max_bytes:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return fail(f"not UTF-8 text (byte {exc.start}); save the file as UTF-8", line)
    loader = _GuardedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return fail("file is empty; it should be a mapping such as `claims: [...]`")
        walk_problems: list[str] = []
        lines: dict[tuple, int] = {}
        try:
            _walk(node, (), 0, lines, walk_problems)
        except _TooManyNodes as exc:
            return fail(
                f"the data expands to more than {MAX_NODES:,} values (aliases?); write it out plainly", exc.line
            )
        if walk_problems:
            issues = []
            for problem in walk_problems:
                line_text, _, message = problem.partition(": ")
                issues.append(Issue("ERROR", name, int(line_text.removeprefix("line ")), None, message))
            return None, issues
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        return fail(f"not valid YAML: {exc}".replace("\n", " "), line)
    finally:
        loader.dispose()
    return Parsed(data, lines), []
