"""Bundled raw snapshots: reading their rows, the documented unit conversions, and resolving a claim's locator.

A ``benchmarked`` or ``reference`` claim stores a converted number and a :class:`~selector.knowledge.sources.Locator`
saying
where the raw number lies. The importers (``selector.knowledge.importers``) and the validator both go through
:func:`convert`, so the number stored and the number checked are computed by the same code.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from selector.errors import SelectorError
from selector.i18n import N_
from selector.io import fileio, numbers, rawtext
from selector.knowledge import releases, resolved

# Bundled raw files live here, one folder per dataset id, beside the licence files they came with.
RAW_DIR = "imports/raw"
# Conversions round to this many decimals: enough for every unit used (TFLOPS, GB, TB/s, tokens/s, USD), and
# the rounding makes "stored value == converted raw value" an exact comparison.
DECIMALS = 6

# Raw snapshots are trusted files bundled with the project, but a locator may name any file under the raw
# folder: cap what is read so a stray large file cannot stall validation.
MAX_RAW_BYTES = 8_000_000


class RawError(SelectorError, ValueError):
    """A raw snapshot cannot be read or a row/column/unit in it is not what the reader needs."""


def _number(raw: Any, where: str) -> float:
    """A raw cell as a finite number: JSON numbers as they are, text through the one number parser.

    Commas are read as thousands separators only in groups of three (``1,234,567``): ``700,5`` is refused, not
    read as 7005.
    """
    try:
        if isinstance(raw, str):
            return numbers.parse_number(raw, thousands=True)
        return numbers.json_number(raw)
    except numbers.NumberRefused as exc:
        raise RawError(f"{where}: {exc}") from None


def _scaled(factor: float) -> Callable[[Mapping[str, Any], str, str], float]:
    def convert(row: Mapping[str, Any], column: str, where: str) -> float:
        return _number(lookup(row, column, where), where) / factor

    return convert


def _per_accelerator(row: Mapping[str, Any], column: str, where: str) -> float:
    """A system's result divided by (accelerators per node x nodes): MLPerf's ``a#`` and ``Nodes`` fields."""
    total = _number(lookup(row, column, where), where)
    per_node = _number(lookup(row, "a#", where), where + " `a#`")
    nodes = _number(lookup(row, "Nodes", where), where + " `Nodes`")
    if per_node <= 0 or nodes <= 0:
        raise RawError(f"{where}: accelerator count a# x Nodes must be positive, found {per_node:g} x {nodes:g}")
    return total / (per_node * nodes)


def _release_figure(
    figure: Callable[[Mapping[str, Any], str], float],
) -> Callable[[Mapping[str, Any], str, str], float]:
    """A figure of a package-index project's release history (:mod:`selector.knowledge.releases`); `column` holds its
    files."""

    def convert(row: Mapping[str, Any], column: str, where: str) -> float:
        lookup(row, column, where)
        try:
            return figure(row, where)
        except releases.ReleaseError as exc:
            raise RawError(str(exc)) from None

    return convert


# conversion id -> (how the raw number becomes the stored one, what that means in words)
CONVERSIONS: dict[str, tuple[Callable[[Mapping[str, Any], str, str], float], str]] = {
    "none": (_scaled(1.0), N_("the raw number unchanged")),
    "flops_to_tflops": (_scaled(1e12), N_("FLOP/s (or OP/s) / 10^12 = TFLOPS (TOPS)")),
    "bytes_to_gb": (_scaled(1e9), N_("bytes / 10^9 = GB")),
    "gib_to_gb": (_scaled(1e9 / 2**30), N_("GiB x 2^30 / 10^9 = GB (a figure labelled GB that is binary GiB)")),
    "bytes_per_s_to_tb_per_s": (_scaled(1e12), N_("bytes/s / 10^12 = TB/s")),
    "sparse_to_dense": (
        _scaled(2.0),
        N_("a peak rated with 2:4 structured sparsity / 2 = the dense peak (the sparse rate is defined as twice it)"),
    ),
    "per_accelerator": (
        _per_accelerator,
        N_("system result / (accelerators per node `a#` x `Nodes`): a derived per-accelerator figure"),
    ),
    "pypi_releases_12m": (
        _release_figure(releases.releases_in_window),
        N_("final releases (no pre-release, not yanked) first uploaded in the 365 days up to the fetch date"),
    ),
    "pypi_days_since_release": (
        _release_figure(releases.days_since_release),
        N_("days from the newest final release's first upload to the fetch date, inclusive (never 0)"),
    ),
    "pypi_os_count": (
        _release_figure(releases.os_count),
        N_("operating systems the newest release with platform wheels has wheels for"),
    ),
    "pypi_arch_count": (
        _release_figure(releases.arch_count),
        N_("CPU architectures the newest release with platform wheels has wheels for"),
    ),
}


_SELECT = re.compile(r"^(?P<name>[^\[\]]+)\[(?P<key>[^=\]]+)=(?P<value>[^\]]+)\]$")


def _step(value: Any, part: str, column: str, where: str) -> Any:  # noqa: ANN401
    """One step of a dotted column: a key, or ``name[key=value]`` picking the list item whose `key` is `value`."""
    match = _SELECT.match(part)
    name = match["name"] if match else part
    if not isinstance(value, Mapping) or name not in value:
        raise RawError(f"{where}: no column `{column}`")
    value = value[name]
    if match is None:
        return value
    if not isinstance(value, list):
        raise RawError(f"{where}: `{name}` in column `{column}` is not a list")
    hits = [item for item in value if isinstance(item, Mapping) and str(item.get(match["key"])) == match["value"]]
    if len(hits) != 1:
        raise RawError(f"{where}: {len(hits)} items of `{name}` have {match['key']} = {match['value']} (need one)")
    return hits[0]


def lookup(row: Mapping[str, Any], column: str, where: str) -> Any:  # noqa: ANN401
    """The value of `column` in `row`.

    A dotted column walks into nested JSON objects, and ``name[key=value]`` picks the one list item whose `key`
    is `value` (e.g. ``metrics.offline.results_by_concurrency[client_concurrency=128].throughput``).

    Raises
    ------
    RawError
        When the column is absent or empty.
    """
    if column in row:
        value = row[column]
    else:
        value: Any = row
        for part in column.split("."):
            value = _step(value, part, column, where)
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RawError(f"{where}: column `{column}` is empty")
    return value


def convert(row: Mapping[str, Any], column: str, conversion: str, where: str) -> float:
    """The stored value for `row`'s `column` under `conversion`, rounded to :data:`DECIMALS` decimals.

    Raises
    ------
    RawError
        When the column is missing or empty, not a number, or the conversion is unknown.
    """
    if conversion not in CONVERSIONS:
        raise RawError(f"{where}: unknown conversion `{conversion}` (known: {', '.join(CONVERSIONS)})")
    exact = CONVERSIONS[conversion][0](row, column, where)
    stored = round(exact, DECIMALS)
    if stored == 0 and exact != 0:
        # e.g. a memory size already in GB where bytes belong: 80 / 10^9 would be stored as 0.0 without a word
        raise RawError(
            f"{where}: column `{column}` converts ({CONVERSIONS[conversion][1]}) to {exact:.3g}, which rounds to 0 "
            f"at {DECIMALS} decimals; is the raw value in the unit the conversion expects?"
        )
    return stored


@dataclass(frozen=True)
class RawTable:
    """A raw file's rows, each a mapping, with the 1-based line (CSV) or index (JSON) of each for messages."""

    path: str
    rows: tuple[Mapping[str, Any], ...]
    positions: tuple[str, ...]


ENTRY_KEY = "@key"


def read_table(path: Path, label: str | None = None, key_of_entries: bool = False) -> RawTable:
    """Read a bundled raw CSV or JSON file into rows.

    A JSON list is a table of objects; a JSON object is one row (AccelMark keeps one submission per file), or
    with `key_of_entries` a table whose rows are its members, each keyed by its name under ``@key``.

    Raises
    ------
    RawError
        When the file cannot be read or parsed, or is not a table.
    """
    label = label or str(path)
    data, problem = fileio.read_bytes(path, MAX_RAW_BYTES, label)
    if problem is not None:
        raise RawError(f"{label}: {problem.message}")
    suffix = path.suffix
    key = (label, suffix, key_of_entries, hashlib.sha256(data).digest())
    found = _PARSED.get(key)
    if found is None:
        try:
            found = _parse_table(label, suffix, data, key_of_entries)
        except RawError as exc:
            found = exc
        if len(_PARSED) >= _PARSED_KEPT:
            _PARSED.clear()
        _PARSED[key] = found
    if isinstance(found, RawError):
        raise RawError(str(found))
    return found


# The parse of each raw file's bytes, kept per label, kind and SHA-256 of the bytes: every knowledge load reads the
# same snapshots again (the cross-checks resolve each claim's locator), and parsing them (the JSON depth guard, every
# number checked, the PyPI files' rows) was most of a load. The same bytes give the same table, so an edited file is
# parsed afresh; rows are shared between loads and never written to. tests/knowledge/test_locators.py holds the kept
# table
# equal to a fresh parse.
_PARSED: dict[tuple[str, str, bool, bytes], RawTable | RawError] = {}
_PARSED_KEPT = 256


def _parse_table(label: str, suffix: str, data: bytes, key_of_entries: bool) -> RawTable:
    """:func:`read_table` of `data`, already read, without the cache."""
    try:
        text = rawtext.decode(label, data)
        if suffix.lower() == ".csv":
            return _csv_table(label, text)
        if suffix.lower() == ".json":
            parsed = rawtext.load_json(label, text)
    except rawtext.RawTextError as exc:
        issue = exc.issues[0]
        raise RawError(f"{label}" + (f", line {issue.line}" if issue.line else "") + f": {issue.message}") from None
    if suffix.lower() == ".json":
        return _json_table(label, parsed, key_of_entries)
    raise RawError(f"{label}: unknown raw file type `{suffix}` (CSV or JSON)")


def _json_table(label: str, parsed: object, key_of_entries: bool) -> RawTable:
    """The rows of a parsed raw JSON file (see :func:`read_table`)."""
    if isinstance(parsed, dict) and key_of_entries:
        # An object of records (AccelMark's cloud_pricing.json): each member is a row, its key under `@key`.
        items = [(k, v) for k, v in parsed.items() if isinstance(v, dict)]
        rows = tuple({**v, ENTRY_KEY: k} for k, v in items)
        return RawTable(label, rows, tuple(f"entry {k!r}" for k, _ in items))
    if key_of_entries:
        # the reader names each row by its member's key: a list (or anything else) has none to give
        raise RawError(f"{label}: JSON must be an object whose members are records (name -> record)")
    if isinstance(parsed, dict):
        return RawTable(label, (parsed,), ("object",))
    if isinstance(parsed, list) and all(isinstance(item, dict) for item in parsed):
        return RawTable(label, tuple(parsed), tuple(f"item {i}" for i in range(len(parsed))))
    raise RawError(f"{label}: JSON must be an object or a list of objects")


def _csv_table(label: str, text: str) -> RawTable:
    """The rows of a raw CSV as mappings of header -> cell, with the line each starts on."""
    records = rawtext.csv_rows(label, text)
    header = next(records, None)
    if header is None or not any(cell.strip() for cell in header[1]):
        raise RawError(f"{label}: empty CSV (no header row)")
    columns = header[1]
    rows, positions = [], []
    for line, cells in records:
        if not cells:
            continue  # a blank line, as csv.DictReader skips it
        if len(cells) > len(columns):
            raise RawError(f"{label}, row {line}: more cells than the header has columns")
        rows.append(dict(zip(columns, cells + [None] * (len(columns) - len(cells)), strict=True)))
        positions.append(f"row {line}")
    return RawTable(label, tuple(rows), tuple(positions))


def row_key(row: Mapping[str, Any], key_columns: tuple[str, ...]) -> str:
    """The key a locator names a row by: the key columns' values joined with `` | `` (outer blanks stripped,
    as every loaded record's text is)."""
    return " | ".join(str(row.get(column, "")).strip() for column in key_columns).strip()


class Snapshots:
    """The raw files under one knowledge directory's ``imports/raw/``, each read once and indexed by row key."""

    def __init__(self, knowledge_dir: Path) -> None:
        self.root = Path(knowledge_dir) / RAW_DIR
        self._tables: dict[str, RawTable | RawError] = {}
        self._indexes: dict[tuple[str, tuple[str, ...]], dict[str, list[int]]] = {}
        self._kept: dict[str, resolved.Kept | None] = {}

    def table(self, file: str, key_of_entries: bool = False) -> RawTable:
        """The rows of bundled raw `file` (a path relative to ``imports/raw/``).

        Raises
        ------
        RawError
            When the file is missing, outside the raw folder or unreadable.
        """
        if file not in self._tables:
            path = self._path(file)
            if path is None:
                self._tables[file] = RawError(f"{file}: outside {RAW_DIR}/")
            else:
                try:
                    self._tables[file] = read_table(path, f"{RAW_DIR}/{file}", key_of_entries)
                except RawError as exc:
                    self._tables[file] = exc
        found = self._tables[file]
        if isinstance(found, RawError):
            raise found
        return found

    def _path(self, file: str) -> Path | None:
        """`file` under the raw folder, or None when it lies outside."""
        path = (self.root / file).resolve()
        try:
            path.relative_to(self.root.resolve())
        except ValueError:
            return None
        return path

    def resolve(self, file: str, key: str, key_columns: tuple[str, ...], column: str, conversion: str) -> float:
        """:func:`convert` of `column` in the row of `file` whose key is `key`: the value a locator names.

        The answer (or the refusal) is kept per snapshot content (:mod:`selector.knowledge.resolved`), so a later
        process reads it back instead of parsing the snapshot; :meth:`save` writes what was resolved afresh.

        Raises
        ------
        RawError
            As :meth:`row` and :func:`convert` do.
        """
        kept = self._kept_for(file)
        name = resolved.entry(key, key_columns, column, conversion)
        answer = None if kept is None else kept.get(name)
        if answer is None:
            try:
                answer = convert(self.row(file, key, key_columns), column, conversion, f"{file} row {key!r}")
            except RawError as exc:
                if kept is None:
                    raise
                answer = str(exc)
            if kept is not None:
                kept.put(name, answer)
        if isinstance(answer, str):
            raise RawError(answer)
        return answer

    def _kept_for(self, file: str) -> resolved.Kept | None:
        """The kept answers for `file`'s bytes; None when it cannot be read (then nothing is kept for it)."""
        if file not in self._kept:
            path = self._path(file)
            data = None
            if path is not None:
                data, problem = fileio.read_bytes(path, MAX_RAW_BYTES, f"{RAW_DIR}/{file}")
                data = None if problem is not None else data
            self._kept[file] = None if data is None else resolved.Kept(f"{RAW_DIR}/{file}", data)
        return self._kept[file]

    def save(self) -> None:
        """Keep what :meth:`resolve` found afresh for the next process."""
        for kept in self._kept.values():
            if kept is not None:
                kept.save()

    def row(self, file: str, key: str, key_columns: tuple[str, ...]) -> Mapping[str, Any]:
        """The one row of `file` whose key is `key` (a single-object file is its own one row).

        Raises
        ------
        RawError
            When no row or more than one row has that key.
        """
        table = self.table(file, key_columns == (ENTRY_KEY,))
        if not key_columns:
            if len(table.rows) != 1:
                raise RawError(f"{table.path}: {len(table.rows)} rows, so the dataset must name its key columns")
            return table.rows[0]
        index = self._indexes.get((file, key_columns))
        if index is None:
            index = {}
            for i, row in enumerate(table.rows):
                index.setdefault(row_key(row, key_columns), []).append(i)
            self._indexes[(file, key_columns)] = index
        hits = index.get(key, [])
        if not hits:
            raise RawError(f"{table.path}: no row with {' | '.join(key_columns)} = {key!r}")
        if len(hits) > 1:
            raise RawError(f"{table.path}: {len(hits)} rows with {' | '.join(key_columns)} = {key!r}; key not unique")
        return table.rows[hits[0]]
