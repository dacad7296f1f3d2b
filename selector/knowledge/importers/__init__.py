"""Importers: bundled raw snapshots of public datasets -> knowledge YAML, deterministically.

Each dataset has one module here defining ``DATASET`` (its id in ``knowledge/datasets.yaml``) and
``build(raws, aliases) -> Imported``. They share the alias table (``knowledge/imports/aliases.csv``: upstream
name -> entity id, or an explicit exclusion with its reason), the unit conversions of :mod:`selector.knowledge.locators`
and :mod:`selector.io.yamlio`'s writer (its records layout), so the same raw input always gives the same bytes.
"""

from __future__ import annotations

import csv
import importlib
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from selector.errors import SelectorError
from selector.io.yamlio import dump_yaml
from selector.knowledge import vocabulary
from selector.knowledge.locators import RAW_DIR, RawError, RawTable, convert, read_table

ALIASES_FILE = "imports/aliases.csv"
ALIAS_COLUMNS = ("dataset", "upstream_name", "entity", "note")
MODULES = {
    "epoch-ml-hardware": "epoch",
    "mlperf-inference-v5.1": "mlperf",
    "fsdl-cloud-gpus": "fsdl",
    "accelmark": "accelmark",
    "pypi-simple": "pypi",
    "repo-history": "repo_history",
    "vendor-datasheets": "datasheets",
}
# Where each bundled import is written, relative to knowledge/ (the regeneration test compares these bytes), and
# the bundled raw files it is made from (relative to knowledge/imports/raw/; a folder means every result.json in it).
OUTPUTS = {dataset: f"imports/{dataset}.yaml" for dataset in MODULES}
RAWS = {
    "epoch-ml-hardware": ("epoch-ml-hardware/ml_hardware.csv",),
    "mlperf-inference-v5.1": ("mlperf-inference-v5.1/summary_results.json",),
    "fsdl-cloud-gpus": ("fsdl-cloud-gpus/cloud-gpus.csv", "fsdl-cloud-gpus/row-dates.csv"),
    "accelmark": ("accelmark/results", "accelmark/schema/cloud_pricing.json"),
    "pypi-simple": ("pypi-simple/projects.json",),
    "repo-history": ("repo-history/history.csv",),
    "vendor-datasheets": ("vendor-datasheets/datasheets.csv",),
}


class ImportFailure(SelectorError, ValueError):
    """The raw input cannot be imported; the message names the file and row. Nothing is written."""


@dataclass(frozen=True)
class Alias:
    """One line of the alias table: an upstream name mapped to an entity, or excluded (``entity`` empty)."""

    dataset: str
    upstream_name: str
    entity: str
    note: str


@dataclass
class Imported:
    """What an importer produced: claim records (plain dicts, in output order) and the names it could not map."""

    claims: list[dict] = field(default_factory=list)
    unknown: dict[str, int] = field(default_factory=dict)  # upstream name -> rows skipped
    excluded: dict[str, str] = field(default_factory=dict)  # upstream name -> why

    def skip_unknown(self, name: str) -> None:
        self.unknown[name] = self.unknown.get(name, 0) + 1

    def entity(self, aliases: Mapping[str, Alias], name: str) -> str | None:
        """The entity NAME maps to, or None after recording it as unknown or excluded (with the table's reason)."""
        alias = aliases.get(name)
        if alias is None:
            self.skip_unknown(name)
            return None
        if not alias.entity:
            self.excluded[name] = alias.note
            return None
        return alias.entity


def read_own_table(path: Path, columns: Sequence[str], what: str) -> csv.DictReader:
    """The rows of one of the importers' own CSV tables (aliases, audit flags), with every column of `columns`.

    Raises
    ------
    ImportFailure
        When the file is unreadable or lacks a column.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ImportFailure(f"{path}: cannot read {what} ({exc})") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in columns if c not in (reader.fieldnames or ())]
    if missing:
        raise ImportFailure(f"{path}: missing column(s) {', '.join(missing)} (header: {', '.join(columns)})")
    return reader


def read_aliases(path: Path) -> list[Alias]:
    """Read the alias table.

    Raises
    ------
    ImportFailure
        When the file is unreadable, lacks a column, or maps one upstream name twice.
    """
    reader = read_own_table(path, ALIAS_COLUMNS, "the alias table")
    aliases: list[Alias] = []
    seen: dict[tuple[str, str], int] = {}
    for row in reader:
        alias = Alias(*(str(row[c] or "").strip() for c in ALIAS_COLUMNS))
        key = (alias.dataset, alias.upstream_name)
        if not alias.dataset or not alias.upstream_name:
            raise ImportFailure(f"{path}, row {reader.line_num}: `dataset` and `upstream_name` are required")
        if key in seen:
            raise ImportFailure(f"{path}, row {reader.line_num}: {key[1]!r} is mapped twice (first at row {seen[key]})")
        if not alias.entity and not alias.note:
            raise ImportFailure(
                f"{path}, row {reader.line_num}: an exclusion (empty `entity`) needs a `note` saying why"
            )
        seen[key] = reader.line_num
        aliases.append(alias)
    return aliases


def alias_map(aliases: Sequence[Alias], dataset: str) -> dict[str, Alias]:
    """upstream name -> alias line, for one dataset."""
    return {a.upstream_name: a for a in aliases if a.dataset == dataset}


def check_aliases(aliases: Sequence[Alias], entity_ids: set[str]) -> list[str]:
    """Problems with the alias table against the knowledge: entity ids that do not exist, unknown datasets."""
    problems = []
    for alias in aliases:
        if alias.dataset not in MODULES:
            problems.append(f"alias {alias.upstream_name!r}: unknown dataset `{alias.dataset}`")
        if alias.entity and alias.entity not in entity_ids:
            problems.append(f"alias {alias.upstream_name!r} ({alias.dataset}): entity `{alias.entity}` is not defined")
    return problems


def require_columns(table: RawTable, columns: Sequence[str]) -> None:
    """Every row of `table` has each column (CSV headers, JSON keys).

    Raises
    ------
    ImportFailure
        Naming the file and the first row lacking a column.
    """
    for row, position in zip(table.rows, table.positions, strict=True):
        for column in columns:
            if column not in row:
                raise ImportFailure(f"{table.path}, {position}: missing column `{column}`")


def value(row: Mapping[str, Any], column: str, conversion: str, table: RawTable, position: str) -> float:
    """The converted value of a raw cell, as :func:`selector.knowledge.locators.convert` computes it for validation.

    Raises
    ------
    ImportFailure
        Naming file and row when the cell is missing, empty or not a number.
    """
    try:
        return convert(row, column, conversion, f"{table.path}, {position}")
    except RawError as exc:
        raise ImportFailure(str(exc)) from None


def load_table(path: Path, knowledge_dir: Path) -> tuple[RawTable, str]:
    """Read a raw file and give its path relative to ``knowledge/imports/raw/`` (what locators name).

    Raises
    ------
    ImportFailure
        When the file is unreadable, or lies outside the bundled raw folder.
    """
    root = (Path(knowledge_dir) / RAW_DIR).resolve()
    try:
        relative = Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        raise ImportFailure(f"{path}: raw files are read from {root} (bundle the snapshot there first)") from None
    try:
        return read_table(Path(path), str(path)), relative
    except RawError as exc:
        raise ImportFailure(str(exc)) from None


#: A row of a table keyed by name, mapped to its entity: (entity, upstream name, row, position in the file).
NamedRow = tuple[str, str, Mapping[str, Any], str]


@dataclass(frozen=True)
class NamedTable:
    """How an importer's one raw file reads: a table with one row per upstream name.

    Attributes
    ----------
    dataset, file_name : str
        The dataset's id and its raw file's name, for the messages.
    name_column : str
        The column holding each row's upstream name (mapped to an entity by the alias table).
    columns : tuple of str
        The other columns every row must have.
    listed_as : str or None
        What a row names, for the message on a name given twice ("repository"); None says "duplicate `<column>`".
    check : callable or None
        Refuses a row (row, name, and where it is: "<file>, <row>") by raising :class:`ImportFailure`.
    """

    dataset: str
    file_name: str
    name_column: str
    columns: tuple[str, ...]
    listed_as: str | None = None
    check: Callable[[Mapping[str, Any], str, str], None] | None = None


def named_rows(
    spec: NamedTable, raws: Sequence[Path], knowledge_dir: Path, imported: Imported, aliases: Mapping[str, Alias]
) -> tuple[RawTable, str, list[NamedRow]]:
    """The opening of an importer whose one raw file is a table with one row per upstream name (`spec`).

    Reads the one raw file, requires the columns in every row, refuses a name given twice, runs the spec's check on
    each row and maps each name to its entity (a name the alias table does not map is recorded in `imported` and
    left out).

    Returns
    -------
    tuple
        The table, its path relative to the raw folder, and the mapped rows in the file's order.

    Raises
    ------
    ImportFailure
        Not exactly one raw file, an unreadable file, a missing column, a name given twice, or what the check refuses.
    """
    if len(raws) != 1:
        raise ImportFailure(f"{spec.dataset} takes one raw file ({spec.file_name}), got {len(raws)}")
    table, file = load_table(raws[0], knowledge_dir)
    require_columns(table, [spec.name_column, *spec.columns])
    seen: dict[str, str] = {}
    rows = []
    for row, position in zip(table.rows, table.positions, strict=True):
        name = str(row[spec.name_column]).strip()
        if name in seen:
            twice = (
                f"{spec.listed_as} {name!r} is listed twice"
                if spec.listed_as
                else f"duplicate `{spec.name_column}` {name!r}"
            )
            raise ImportFailure(f"{table.path}, {position}: {twice} (first at {seen[name]})")
        seen[name] = position
        if spec.check is not None:
            spec.check(row, name, f"{table.path}, {position}")
        entity = imported.entity(aliases, name)
        if entity is not None:
            rows.append((entity, name, row, position))
    return table, file, rows


def _records(knowledge_dir: Path, pattern: str, section: str) -> list:
    """The records of `section` in the knowledge files matching `pattern`, read without the whole-base checks.

    The importer cannot load the whole knowledge base: the import it is about to regenerate may be stale.
    """
    from selector.io.yamlio import parse_yaml
    from selector.knowledge.models import KnowledgeFile

    found = []
    for path in sorted(Path(knowledge_dir).glob(pattern)):
        parsed, issues = parse_yaml(path.read_bytes(), str(path), 10_000_000)
        if parsed is None:
            raise ImportFailure("; ".join(str(i) for i in issues))
        try:
            found.extend(getattr(KnowledgeFile.model_validate(parsed.data), section))
        except ValueError as exc:
            raise ImportFailure(f"{path}: {exc}") from None
    return found


def run(dataset: str, raws: Sequence[Path], knowledge_dir: Path) -> tuple[str, Imported]:
    """Import `raws` of `dataset` against the dataset record and alias table of `knowledge_dir`.

    Returns
    -------
    tuple
        The YAML text to write and what was produced (claims, unknown and excluded names).

    Raises
    ------
    ImportFailure
        When the dataset is unknown, the alias table is invalid, or the raw input is broken.
    """
    if dataset not in MODULES:
        raise ImportFailure(f"unknown dataset `{dataset}` (known: {', '.join(MODULES)})")
    knowledge_dir = Path(knowledge_dir)
    records = {s.id: s for s in _records(knowledge_dir, "datasets.yaml", "sources") if s.kind == "dataset"}
    if dataset not in records:
        raise ImportFailure(f"dataset `{dataset}` is not defined in {knowledge_dir / 'datasets.yaml'}")
    table = read_aliases(knowledge_dir / ALIASES_FILE)
    entity_ids = {e.id for e in _records(knowledge_dir, "entities/*.yaml", "entities")}
    problems = check_aliases(table, entity_ids)
    if problems:
        raise ImportFailure(f"{knowledge_dir / ALIASES_FILE}: " + "; ".join(problems))
    module = importlib.import_module(f"{__name__}.{MODULES[dataset]}")
    imported = module.build([Path(p) for p in raws], knowledge_dir, records[dataset], alias_map(table, dataset))
    # Loaded like the dataset modules: it names ImportFailure from this package.
    audit_flags = importlib.import_module(f"{__name__}.audit_flags")
    flags_path = knowledge_dir / audit_flags.FLAGS_FILE
    audit_flags.apply(dataset, imported.claims, audit_flags.read(flags_path), flags_path)
    twice = _stated_twice(imported.claims)
    if twice:
        raise ImportFailure("; ".join(twice[:MAX_LISTED]) + _more(len(twice)))
    implausible = _implausible(imported.claims, knowledge_dir)
    if implausible:
        raise ImportFailure("; ".join(implausible[:MAX_LISTED]) + _more(len(implausible)))
    return render(dataset, records[dataset], imported), imported


#: Implausible values listed in one refusal (the rest are counted).
MAX_LISTED = 20


def _more(count: int) -> str:
    return f"; and {count - MAX_LISTED:,} more" if count > MAX_LISTED else ""


def _where(claim: dict) -> str:
    where = claim.get("locator") or {}
    return f"{where.get('file', '?')}, {where.get('row', '?')}, column `{where.get('column', '?')}`"


def _stated_twice(claims: Sequence[dict]) -> list[str]:
    """Each claim id produced twice (two upstream names aliased to one entity, two rows of one run...), named by
    both raw rows: the import would state one figure twice, perhaps with two values."""
    first: dict[str, dict] = {}
    found = []
    for claim in claims:
        earlier = first.setdefault(str(claim.get("id")), claim)
        if earlier is not claim:
            values = f"{earlier.get('value')!r} and {claim.get('value')!r}"
            found.append(
                f"{_where(claim)}: states claim `{claim.get('id')}` again (first from {_where(earlier)}; values "
                f"{values}); map one upstream row to each figure"
            )
    return found


def _implausible(claims: Sequence[dict], knowledge_dir: Path) -> list[str]:
    """Each imported value outside its metric's bounds (knowledge/metrics.yaml), named by its raw file and row.

    The same check as ``validate`` runs on the written file, made here so that nothing implausible is written.
    """
    metrics = {m.id: m for m in _records(knowledge_dir, "metrics.yaml", "metrics")}
    found = []
    for claim in claims:
        metric, value = claim.get("metric"), claim.get("value")
        if not isinstance(metric, str) or not isinstance(value, int | float) or isinstance(value, bool):
            continue
        problem = vocabulary.bound_problem(metrics, metric, value, f"{value:g}")
        if problem:
            found.append(f"{_where(claim)}: {problem}")
    return found


def bundled_raws(dataset: str, knowledge_dir: Path) -> list[Path]:
    """The bundled raw files `dataset`'s import is made from, in a fixed order."""
    root = Path(knowledge_dir) / RAW_DIR
    paths: list[Path] = []
    for entry in RAWS[dataset]:
        path = root / entry
        paths.extend(sorted(path.rglob("result.json")) if path.is_dir() else [path])
    return paths


def regenerate(knowledge_dir: Path) -> dict[str, str]:
    """Every bundled import as the importer writes it now: output path (relative to knowledge/) -> YAML text.

    Raises
    ------
    ImportFailure
        When a bundled raw snapshot no longer imports.
    """
    texts = {}
    for dataset in MODULES:
        if (Path(knowledge_dir) / OUTPUTS[dataset]).exists():
            texts[OUTPUTS[dataset]] = run(dataset, bundled_raws(dataset, knowledge_dir), knowledge_dir)[0]
    return texts


def locator(dataset_record: Any, upstream: str, file: str, row: str, column: str, conversion: str, **extra) -> dict:  # noqa: ANN401
    """A locator mapping in the key order every import writes."""
    found = {
        "dataset": dataset_record.id,
        "upstream": upstream,
        "file": file,
        "row": row,
        "column": column,
        "conversion": conversion,
        "retrieved": dataset_record.snapshot_date,
        "licence": dataset_record.licence,
    }
    found.update({k: v for k, v in extra.items() if v not in (None, "")})
    return found


def _plain(text: str) -> str:
    """Upstream text on one comment line: control characters (a newline would end the comment) become spaces."""
    return "".join(c if c.isprintable() else " " for c in str(text))


def render(dataset: str, dataset_record: Any, imported: Imported) -> str:  # noqa: ANN401
    """The import as YAML text: a header, then one claim per block with keys in a fixed order."""
    lines = [
        f"# Generated by `python -m selector import {dataset}` from the bundled raw snapshot; do not edit by hand.",
        f"# Source: {dataset_record.title_en}; licence {dataset_record.licence}; "
        f"snapshot {dataset_record.snapshot_date}.",
        f"# Attribution: {' '.join(dataset_record.attribution.split())}",
        "# Regenerate after refreshing the snapshot (docs/CLAIMS_GUIDE.md, 'Public datasets').",
    ]
    if imported.excluded:
        lines.append("# Left out:")
        lines.extend(f"#   {_plain(name)}: {_plain(why)}" for name, why in sorted(imported.excluded.items()))
    if imported.unknown:
        lines.append(f"# {len(imported.unknown)} upstream names are not in the alias table and were not imported:")
        lines.extend(
            f"#   {_plain(name)} ({n} row{'s' if n > 1 else ''})" for name, n in sorted(imported.unknown.items())
        )
    return "\n".join(lines) + "\n" + dump_yaml({"claims": list(imported.claims)}, layout="records")
