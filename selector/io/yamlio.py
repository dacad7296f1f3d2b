"""Guarded YAML reading, and the writer whose text it reads back.

Safe loading with size, alias and depth caps; duplicate keys and YAML 1.1 traps refused.

Every problem is returned as an :class:`~selector.issues.Issue` carrying file and line, never raised half-way, so
that a user sees all that is wrong with a file at once.

Two event sources feed the same guarded composer: LibYAML's C parser when PyYAML was built with it (the scanner and
parser are most of the time spent loading the knowledge), else PyYAML's pure-Python one. Composition stays in Python
on purpose: the alias and depth guards live there, and LibYAML's own composer recurses in C, where a deeply nested
file would overflow the stack instead of raising. Every other guard works on the composed nodes, so both loaders
apply exactly the same rules (tests/io/test_yamlio.py runs every test on both).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any, Literal

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from selector.io import textpolicy
from selector.issues import Issue

MAX_BYTES = 2_000_000
MAX_ALIASES = 50
MAX_DEPTH = 24
MAX_NODES = 200_000  # after alias expansion; the bundled files have ~1,300 each

Loader = Literal["libyaml", "python"]

#: The loaders this installation has, fastest first; ``DEFAULT_LOADER`` is what :func:`parse_yaml` uses.
LOADERS: tuple[Loader, ...] = ("libyaml", "python") if yaml.__with_libyaml__ else ("python",)
DEFAULT_LOADER: Loader = LOADERS[0]

#: YAML 1.1's boolean words (yaml.org/type/bool.html), lower-cased, with the value each stands for. PyYAML reads all
#: but y and n as booleans; other YAML 1.1 readers read those too, so the record writer quotes every one.
YAML11_BOOLEANS: dict[str, bool] = {
    **dict.fromkeys(("y", "yes", "on", "true"), True),
    **dict.fromkeys(("n", "no", "off", "false"), False),
}
_BOOL_12 = re.compile(r"^(true|True|TRUE|false|False|FALSE)$")
_YAML12_FLOAT = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+$")
_NON_FINITE = re.compile(r"^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$")
# Numbers both YAML versions read alike: decimal integers without leading zeros, decimals with digits on the left.
_PLAIN_INT = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
_PLAIN_FLOAT = re.compile(r"^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+][0-9]+)?$")
# What YAML 1.2 (core schema) reads as a number but PyYAML's YAML 1.1 as text.
_YAML12_NUMBER = re.compile(
    r"^([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)$"
)
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map")
)  # timestamps, merge keys, !!binary, !!set, !!omap, ... are YAML 1.1 or build types no record holds
_CONSTRUCT = SafeConstructor()


class _Guards:
    """Composer hooks that count aliases and nesting while nodes are built, before anything is constructed."""

    alias_count: int
    depth: int
    max_nodes: int = MAX_NODES
    node_count: int = 0

    def compose_node(self, parent, index):  # noqa: ANN001, ANN201 - signature fixed by PyYAML
        # Values are counted as they are composed (a mapping's keys are not), so a file of a million tiny values
        # stops at the cap instead of being built whole first.
        if not (index is None and isinstance(parent, yaml.MappingNode)):
            self.node_count += 1
            if self.node_count > self.max_nodes:
                raise _TooManyNodes(self.peek_event().start_mark.line + 1)
        if self.check_event(yaml.AliasEvent):
            self.alias_count += 1
            if self.alias_count > MAX_ALIASES:
                raise yaml.composer.ComposerError(
                    None,
                    None,
                    f"more than {MAX_ALIASES} aliases (*name); expand them or split the file",
                    self.peek_event().start_mark,
                )
        event = self.peek_event()
        tag = getattr(event, "tag", None)
        if tag is not None:
            # Explicit tags are how YAML builds other types (!!binary, !!set, !!python/...) or forces a reading
            # (!!int '017'); no record needs one, and the bare `!` even reads differently in the two loaders.
            raise yaml.composer.ComposerError(None, None, _tag_message(tag), event.start_mark)
        # The composer recurses: refuse deep nesting here, before Python's recursion limit is reached.
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH + 1:
                raise yaml.composer.ComposerError(
                    None, None, f"nesting deeper than {MAX_DEPTH} levels", self.peek_event().start_mark
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _GuardedLoader(_Guards, yaml.SafeLoader):
    """PyYAML's pure-Python SafeLoader with the guards."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.alias_count = 0
        self.depth = 0


if yaml.__with_libyaml__:

    class _GuardedCLoader(_Guards, Composer, yaml.cyaml.CParser, SafeConstructor, Resolver):
        """LibYAML's C scanner and parser; composing (Python, guarded), constructing and resolving as SafeLoader."""

        def __init__(self, stream: str) -> None:
            yaml.cyaml.CParser.__init__(self, stream)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self.alias_count = 0
            self.depth = 0


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


def _walk(node: yaml.Node, path: tuple, depth: int, lines: dict, issues: list[str], max_nodes: int) -> None:
    line = node.start_mark.line + 1
    if len(lines) >= max_nodes:
        raise _TooManyNodes(line)
    lines[path] = line
    if depth > MAX_DEPTH:
        issues.append(f"line {line}: nesting deeper than {MAX_DEPTH} levels")
        return
    if node.tag not in _PLAIN_TAGS:
        issues.append(_tag_problem(node))
        return
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                kind = "list" if isinstance(key_node, yaml.SequenceNode) else "mapping"
                issues.append(
                    f"line {key_line}: a key must be text, not a {kind} (`? [a, b]` or `[a, b]: ...`); "
                    "write one plain word as the key"
                )
                continue
            if key_node.tag not in _PLAIN_TAGS:
                issues.append(_tag_problem(key_node))
            elif not _check_scalar(key_node, issues) and key_node.tag != "tag:yaml.org,2002:str":
                issues.append(
                    f"line {key_line}: the key `{_clip(key_node.value)}` is read as "
                    f"{key_node.tag.rpartition(':')[2]}, not text; quote it ('{_clip(key_node.value)}') or use a word"
                )
            key = key_node.value
            if key in seen:
                issues.append(
                    f"line {key_line}: duplicate key `{_clip(key)}` (first at line {seen[key]}); "
                    "YAML would silently keep only the last one"
                )
            seen[key] = key_line
            _walk(value_node, (*path, key), depth + 1, lines, issues, max_nodes)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), depth + 1, lines, issues, max_nodes)
    elif isinstance(node, yaml.ScalarNode):
        _check_scalar(node, issues)


def _clip(text: str) -> str:
    """A user's text quoted in a message: cut short, hidden characters made visible (a message reaches terminals)."""
    return textpolicy.shown(text if len(text) <= 40 else text[:37] + "...")


def _tag_problem(node: yaml.Node) -> str:
    line = node.start_mark.line + 1
    tag = _shown_tag(node.tag)
    if tag == "!!timestamp":
        return (
            f"line {line}: `{node.value}` is read by YAML 1.1 as a date, by YAML 1.2 as text; quote it ('{node.value}')"
        )
    if tag == "!!merge":
        return f"line {line}: the merge key `<<` exists only in YAML 1.1; write the keys out"
    if tag == "!!value":
        return f"line {line}: `=` is a YAML 1.1 value key; quote it ('=') for text"
    return f"line {line}: {_tag_message(node.tag)}"


def _shown_tag(tag: str) -> str:
    """A tag as the file wrote it: ``!!`` for YAML's own, and a shorthand tag cut at the first flow indicator.

    A shorthand tag cannot hold ``, [ ] { }`` (YAML 1.2, ns-tag-char); LibYAML reads `[!,` as the tag ``!,``
    where PyYAML reads ``!``, so both loaders' messages name the tag as the specification reads it.
    """
    shown = tag.replace("tag:yaml.org,2002:", "!!")
    return re.split(r"[,\[\]{}]", shown, maxsplit=1)[0] if shown.startswith("!") else shown


def _tag_message(tag: str) -> str:
    shown = _shown_tag(tag)
    return f"the tag `{_clip(shown)}` is not allowed; write plain text, numbers, true/false, lists and mappings"


def _number_problem(node: yaml.ScalarNode) -> str | None:
    """Why an int or float scalar is read differently by YAML 1.1 and 1.2 (or by people), or None."""
    text = node.value.strip()
    is_int = node.tag.endswith(":int")
    if (_PLAIN_INT if is_int else _PLAIN_FLOAT).match(text) or (not is_int and _NON_FINITE.match(text)):
        return None
    try:
        value = _CONSTRUCT.construct_yaml_int(node) if is_int else _CONSTRUCT.construct_yaml_float(node)
    except (ValueError, OverflowError):
        value = None
    digits = text.lstrip("+-")
    if "_" in text:
        form, yaml12 = "a number with `_` separators", "text"
    elif ":" in text:
        form, yaml12 = "a base-60 (sexagesimal) number", "text"
    elif digits[:2] in ("0b", "0B"):
        form, yaml12 = "a binary number", "text"
    elif digits[:2] in ("0x", "0X"):
        form, yaml12 = "a hexadecimal number", "the same number, but other tools read text"
    elif is_int:
        form, yaml12 = "an octal number (leading zero)", f"the decimal {int(text) if text.isdigit() else text}"
    else:
        form, yaml12 = "a number", "a number"
    reading = f" {value}" if value is not None else ""
    return (
        f"`{text}` is read by YAML 1.1 as {form}{reading} and by YAML 1.2 as {yaml12}; "
        f"write the number in plain decimal ({value if value is not None else 'digits only'}) "
        f"or quote it ('{text}') for text"
    )


def _check_scalar(node: yaml.Node, issues: list[str]) -> bool:
    """Append what is wrong with one scalar (key or value); whether anything was."""
    before = len(issues)
    line = node.start_mark.line + 1
    text = node.value
    if node.style == '"':
        # Double-quoted text may spell hidden characters as escapes (\u202e, \0) that the file itself does not hold.
        problem = textpolicy.first_hidden(text)
        if problem is not None:
            issues.append(f"line {line}: the escaped text {problem}")
            return True
    tag = node.tag.rpartition(":")[2]
    if tag == "bool" and not _BOOL_12.match(text):
        issues.append(
            f"line {line}: `{_clip(text)}` is read by YAML 1.1 as the boolean {YAML11_BOOLEANS[text.lower()]}; "
            f"write true/false for a boolean or quote it ('{_clip(text)}') for text"
        )
    elif tag in ("int", "float"):
        problem = _number_problem(node)
        if problem is not None:
            issues.append(f"line {line}: {problem}")
        elif tag == "float" and _NON_FINITE.match(text):
            issues.append(f"line {line}: `{text}` is not a finite number; give a real value")
    elif tag == "str" and not node.style:  # plain: None from PyYAML, "" from LibYAML
        if _YAML12_FLOAT.match(text):
            issues.append(
                f"line {line}: `{text}` is read by YAML 1.1 as text, not a number; "
                "write it with a decimal point and a signed exponent (1.0e+3) or as a plain number (1000)"
            )
        elif _YAML12_NUMBER.match(text):
            issues.append(
                f"line {line}: `{text}` is read by YAML 1.1 as text but by YAML 1.2 as a number; "
                f"quote it ('{text}') for text, or write the number in plain decimal"
            )
    return len(issues) > before


def parse_yaml(
    raw: bytes, name: str, max_bytes: int = MAX_BYTES, loader: Loader | None = None, max_nodes: int = MAX_NODES
) -> tuple[Parsed | None, list[Issue]]:
    """Parse YAML bytes safely; returns the data with its line map, or None and the issues that stopped it.

    Parameters
    ----------
    raw
        The file's bytes (UTF-8).
    name
        The file name used in issues.
    max_bytes
        Size cap.
    loader
        ``libyaml`` or ``python`` (default ``DEFAULT_LOADER``, the fastest available); both apply the same guards.
    max_nodes
        Cap on the values (mapping keys not counted), checked while composing and again once aliases are expanded.
    """

    def fail(message: str, line: int | None = None) -> tuple[None, list[Issue]]:
        return None, [Issue("ERROR", name, line, None, message)]

    if len(raw) > max_bytes:
        return fail(f"file is {len(raw):,} bytes; the limit is {max_bytes:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return fail(f"not UTF-8 text (byte {exc.start}); save the file as UTF-8", line)
    found = textpolicy.hidden(text)
    if found:
        return None, [Issue("ERROR", name, h.line, None, h.message) for h in found]
    chosen = loader or DEFAULT_LOADER
    if chosen not in LOADERS:
        raise ValueError(f"YAML loader `{chosen}` is not available here; choose one of {', '.join(LOADERS)}")
    loader = (_GuardedCLoader if chosen == "libyaml" else _GuardedLoader)(text)
    loader.max_nodes = max_nodes
    too_many = f"the data holds more than {max_nodes:,} values"
    try:
        try:
            node = loader.get_single_node()
        except _TooManyNodes as exc:
            return fail(f"{too_many}; split it into smaller files", exc.line)
        if node is None:
            return fail("file is empty; it should be a mapping such as `claims: [...]`")
        walk_problems: list[str] = []
        lines: dict[tuple, int] = {}
        try:
            _walk(node, (), 0, lines, walk_problems, max_nodes)
        except _TooManyNodes as exc:
            return fail(f"{too_many} once its aliases are expanded; write it out plainly", exc.line)
        if not text.endswith("\n"):
            # LibYAML reads a missing final line break as present, so an empty value at the very end (`key:` or a
            # bare `---`) lands one line past the file; no value lies past the last line.
            last = text.count("\n") + 1
            lines = {path: min(line, last) for path, line in lines.items()}
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
        if "maximum nesting depth" in str(getattr(exc, "problem", "")):
            # LibYAML's scanner stops at 1,000 levels, before the composer's own guard sees them.
            return fail(f"nesting deeper than {MAX_DEPTH} levels", line)
        if isinstance(exc, yaml.composer.ComposerError) and exc.context is None:
            return fail(str(exc.problem), line)  # the guards' own refusals say what to do already
        return fail(f"not valid YAML: {exc}".replace("\n", " "), line)
    finally:
        loader.dispose()
    return Parsed(data, lines), []


# ----------------------------------------------------------------------------------------------------------
# Writing


class _QuotingDumper(yaml.SafeDumper):
    """SafeDumper that quotes strings the guarded reader would take for YAML 1.1 numbers, and keeps text blocks."""


# Characters PyYAML may write raw (with allow_unicode) but a reader takes as line breaks or refuses: escape them.
_NEEDS_ESCAPE = re.compile("[^\t\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if _NEEDS_ESCAPE.search(value):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    if re.match(r"^[-+.\d]", value):
        # "1e3" is text to YAML 1.1 but a number to a reader (selector.io.yamlio refuses it unquoted).
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="'")
    return dumper.represent_str(value)


_QuotingDumper.add_representer(str, _represent_str)
# LibYAML's emitter (C) writes the same text as the Python one, and a converted CSV of the largest size spends most
# of its conversion emitting. Profiles keep the Python emitter (their text is compared byte for byte across versions).
_FastQuotingDumper = _QuotingDumper
if yaml.__with_libyaml__:

    class _FastQuotingDumper(yaml.CSafeDumper):  # type: ignore[no-redef]
        """_QuotingDumper's representers on LibYAML's emitter."""

    _FastQuotingDumper.add_representer(str, _represent_str)


class _RecordDumper(yaml.SafeDumper):
    """The record layout (see :func:`dump_yaml`): a list indented under its key, one key of a record per line."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # PyYAML writes a list under a key at the key's own indent ("claims:\n- id:"); records sit one step in.
        return super().increase_indent(flow, False)


class _Flow(dict):
    """A mapping written on one line ({a: 1, b: x})."""


class _FlowList(list):
    """A list written on one line ([a, b])."""


# A string the record layout writes bare: a lower-case word that every YAML reader takes for the same text.
_BARE_WORD = re.compile(r"^[a-z][a-z0-9_\-]*$")
_RESOLVER = Resolver()


def _represent_record_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    bare = (
        _BARE_WORD.match(value)
        and value not in YAML11_BOOLEANS
        and _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) == "tag:yaml.org,2002:str"
    )
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=None if bare else '"')


_RecordDumper.add_representer(str, _represent_record_str)
_RecordDumper.add_representer(_Flow, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v, flow_style=True))
_RecordDumper.add_representer(_FlowList, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))


def _on_one_line(data: Any, depth: int) -> Any:  # noqa: ANN401
    """DATA with every mapping and list from DEPTH levels down marked to be written on one line."""
    if isinstance(data, dict):
        items = {k: _on_one_line(v, depth - 1) for k, v in data.items()}
        return _Flow(items) if depth <= 0 else items
    if isinstance(data, list | tuple):
        items = [_on_one_line(v, depth - 1) for v in data]
        return _FlowList(items) if depth <= 0 else items
    return data


def dump_yaml(
    data: Any,  # noqa: ANN401
    sort_keys: bool = False,
    fast: bool = False,
    layout: Literal["block", "records"] = "block",
) -> str:
    """YAML text that :func:`selector.io.yamlio.parse_yaml` reads back unchanged (stable floats, quoted look-alikes).

    Parameters
    ----------
    data
        Plain data: dicts, lists, str, int, finite float, bool, None.
    sort_keys
        Sort mapping keys (stable output for files compared byte by byte).
    fast
        Write with LibYAML's emitter where PyYAML has it (a converted CSV upload); the default Python emitter's text
        is what profiles compare byte for byte. Not with the records layout (LibYAML cannot indent a list).
    layout
        ``block`` (the default) writes every mapping and list in block style. ``records`` is the layout of the
        generated imports (knowledge/imports/): DATA maps keys to lists of records; each record is written one key
        per line, a value that is itself a mapping or list on that same line in flow style, and every string that
        is not a lower-case word (``a-z``, digits, ``_``, ``-``; no YAML 1.1 boolean or null) in double quotes,
        so that each value reads the same in YAML 1.1 and 1.2 and a diff shows one changed value per line.
    """
    if layout == "records":
        if fast:
            raise ValueError("the records layout has no LibYAML emitter; leave fast off")
        return yaml.dump(
            _on_one_line(data, 3), Dumper=_RecordDumper, sort_keys=sort_keys, allow_unicode=True, width=sys.maxsize
        )
    dumper = _FastQuotingDumper if fast else _QuotingDumper
    return yaml.dump(data, Dumper=dumper, sort_keys=sort_keys, allow_unicode=True, width=120)
