"""A user's own data: CSV or YAML uploads checked, converted to knowledge YAML and compared with the articles.

An upload may add sources of kind ``user``, entities (a chip the articles never mention), claims of tier
``measured`` (your measurements) or ``assessed`` (your ratings, with rationale) and comparison groups. It is checked
by the same loader as the bundled knowledge (:func:`selector.knowledge.collect`) plus the upload policy below, and
nothing with an error is merged. The bundled files under ``knowledge/`` are never written.

CSV layout (one row per claim; header row required, names case-insensitive, any order; see docs/USER_DATA.md)::

    entity        required  entity id the value belongs to (existing, or new: then give entity_name and entity_kind)
    metric        with value  metric id, e.g. tops_int8, power_w, efficiency_tops_per_w, throughput, latency_ms
    value         number: digits, optional sign, decimal point and exponent (1e3); no NaN, no infinity
    unit          with value  the unit of the criterion reading that metric (TOPS, W, TOPS/W, img/s, ms, GB)
    tier          measured (default) or assessed; never claimed (that tier quotes an article)
    id            claim id (default: <source id>-r<line>)
    kind          claim kind (default: benchmark with a value, observation without)
    comparator    = < <= > >= ~ (default =)
    text_en       one sentence (default: generated from entity, metric, value and unit)
    overrides     id of a claim this one replaces in the decision matrix (same entity and metric), e.g. c004-orin-tops
    rationale     why (required for tier assessed)
    based_on      claim ids the assessment rests on, separated by ';' (required for tier assessed)
    note          free text
    workload, task, hardware, precision, batch, baseline, baseline_entity, version, scenario, scope
                  the conditions the value holds under (hardware and baseline_entity are entity ids)
    entity_name, entity_kind, segment, roles, vendor
                  declare a new entity: kind accelerator needs a segment (datacenter, edge, mobile_client,
                  emerging), kind framework needs roles separated by ';'

Cells of text columns that start a spreadsheet formula (``= + - @``, tab, carriage return) are refused; in the
numeric ``value`` column a leading sign is a sign, and range checks decide (``NON_NEGATIVE_METRICS``).
"""

from __future__ import annotations

import csv
import io
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Any, Literal

import yaml
from pydantic import ValidationError

from selector import knowledge, limits, textpolicy
from selector.escape import FORMULA_PREFIXES
from selector.knowledge import DEFAULT_KNOWLEDGE, Upload
from selector.models import SECTIONS, Claim, Conditions, Entity, KnowledgeBase
from selector.yamlio import MAX_BYTES, Issue, Parsed

MAX_UPLOAD_BYTES = 1_000_000
#: The documented maximum (selector/limits.py derives every other cap on a user's file from it).
MAX_CSV_ROWS = limits.MAX_CSV_ROWS
USER_TIERS: tuple[str, ...] = ("measured", "assessed")
UPLOAD_SECTIONS: tuple[str, ...] = ("sources", "entities", "claims", "groups")

#: Metrics whose values cannot be below zero (compute, power, memory, throughput, time, counts, ratings).
#: Changes such as ``latency_reduction_pct``, ``growth_pct`` or ``accuracy_loss_pct`` may be negative.
NON_NEGATIVE_METRICS = frozenset(
    {
        "throughput",
        "images_per_second",
        "latency_ms",
        "gpu_memory_gb",
        "memory_capacity_gb",
        "utilisation_pct",
        "tops_int8",
        "tflops_fp8",
        "power_w",
        "efficiency_tops_per_w",
        "bandwidth_tbps",
        "speedup",
        "count",
        "parameters",
        "market_share_pct",
        "weight_pct",
        "doubling_months",
        "carbon_t_co2e",
        "consistency_pct",
        "sparsity_pct",
        "rating_stars",
    }
)
NON_NEGATIVE_PREFIXES: tuple[str, ...] = ("rating_",)
#: Shares of a whole: 0 to 100.
PERCENT_OF_WHOLE_METRICS = frozenset(
    {"utilisation_pct", "market_share_pct", "weight_pct", "consistency_pct", "sparsity_pct"}
)

Format = Literal["yaml", "csv"]

_CONDITION_COLUMNS = tuple(Conditions.model_fields)
_ENTITY_COLUMNS = ("entity_name", "entity_kind", "segment", "roles", "vendor")
#: Every CSV column with what it holds; the order is the template's.
CSV_COLUMNS: Mapping[str, str] = {
    "id": "claim id (optional; default <source id>-r<line>)",
    "entity": "entity id the value belongs to (required)",
    "metric": "metric id (required with a value)",
    "value": "a finite number (no formulas, no NaN or infinity)",
    "unit": "unit of the value (required with a value); must be the unit of the criterion reading the metric",
    "tier": "measured (default) or assessed",
    "kind": "claim kind (default benchmark with a value, observation without)",
    "comparator": "= < <= > >= ~ (default =)",
    "text_en": "one sentence (default: generated)",
    "overrides": "id of the claim this one replaces (same entity and metric)",
    "rationale": "why (required for tier assessed)",
    "based_on": "claim ids separated by ';' (required for tier assessed)",
    "note": "free text",
    **{
        c: f"condition `{c}`" + (" (an entity id)" if c in ("hardware", "baseline_entity") else "")
        for c in _CONDITION_COLUMNS
    },
    "entity_name": "name of a NEW entity (with entity_kind)",
    "entity_kind": "kind of a NEW entity: accelerator, framework, model, tool, ...",
    "segment": "segment of a new accelerator: datacenter, workstation, edge, mobile_client, emerging",
    "roles": "roles of a new framework, separated by ';'",
    "vendor": "vendor of a new entity (an entity id, optional)",
}
_LIST_COLUMNS = frozenset({"based_on", "roles"})
# Columns holding one of the schema's lower-case words: "Measured" is taken as meant.
_LOWER_CASE_COLUMNS = frozenset({"tier", "kind", "entity_kind", "segment", "roles"})

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_NON_FINITE_WORD = re.compile(r"^[+-]?(nan|inf|infinity)$", re.IGNORECASE)
# Tags and script URLs; a bare '<' as in "latency < 2 ms" is ordinary text.
_MARKUP = re.compile(r"<\s*[A-Za-z!/?]|javascript:", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Fields whose markup the schema itself refuses (the schema's message is enough).
_SCHEMA_CHECKED = frozenset({("entities", "name"), ("entities", "name_zh")})


# ----------------------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class UploadResult:
    """The outcome of checking one upload.

    Attributes
    ----------
    kb
        The bundled knowledge merged with the previously accepted uploads and this one; None when any ERROR.
    issues
        Every problem found, with file, line (the CSV line for a CSV upload) and record.
    upload
        What to merge: the file itself for YAML, the converted YAML (same name) for CSV.
    original
        The file as uploaded (what a profile embeds).
    format
        ``yaml`` or ``csv`` (None when the type could not be told).
    source_ids
        The ``user`` sources the upload defines.
    """

    kb: KnowledgeBase | None
    issues: tuple[Issue, ...]
    upload: Upload
    original: Upload
    format: Format | None = None
    source_ids: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.kb is not None

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.level == "ERROR"]


@dataclass(frozen=True)
class _Conversion:
    yaml: bytes
    issues: list[Issue]
    lines: dict[str, int]  # record id -> CSV line


# ----------------------------------------------------------------------------------------------------------
# Small helpers


def slug(text: str, fallback: str = "user") -> str:
    """Lower-case ``a-z0-9-`` form of `text` (ASCII letters and digits kept, everything else a dash)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return cleaned or fallback


def user_source_id(name: str, user: str = "user") -> str:
    """The id of the ``user`` source a CSV upload gets: ``user-<user>-<file stem>`` (``user-<stem>`` by default)."""
    parts = ["user"]
    if slug(user) != "user":
        parts.append(slug(user))
    parts.append(slug(PurePath(name).stem, "upload"))
    return "-".join(parts)[:60].rstrip("-")


def _starts_formula(text: str) -> bool:
    # The schema strips surrounding whitespace, so " =1+1" would be stored (and later exported) as "=1+1".
    return text.startswith(FORMULA_PREFIXES) or text.strip().startswith(FORMULA_PREFIXES)


def _clip(value: Any) -> str:
    """A user's value quoted in a message, cut short (a message must not repeat a megabyte of input)."""
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _short(value: float) -> str:
    # YAML integers have no size limit; one too large for a float cannot be formatted with :g.
    text = str(value) if isinstance(value, int) else f"{value:g}"
    return text if len(text) <= 24 else text[:20] + "..."


def _non_negative(metric: str) -> bool:
    return metric in NON_NEGATIVE_METRICS or metric.startswith(NON_NEGATIVE_PREFIXES)


def _text_problem(text: str) -> str | None:
    """What is wrong with a text cell/field of an upload, or None."""
    if _CONTROL.search(text):
        return "contains control characters; remove them"
    if _starts_formula(text):
        return (
            f"starts with `{text.strip()[:1] or repr(text[:1])}`, which a spreadsheet runs as a formula; "
            "start the text with a letter or digit (or leave the cell empty)"
        )
    if _MARKUP.search(text):
        return "contains markup (`<tag` or `javascript:`); write plain text"
    return None


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
        # "1e3" is text to YAML 1.1 but a number to a reader (selector.yamlio refuses it unquoted).
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="'")
    return dumper.represent_str(value)


_QuotingDumper.add_representer(str, _represent_str)
# LibYAML's emitter writes the same text three times faster; a converted CSV of the largest size spends most of its
# conversion there. Profiles keep the Python emitter (their text is compared byte for byte across versions).
_FastQuotingDumper = _QuotingDumper
if yaml.__with_libyaml__:

    class _FastQuotingDumper(yaml.CSafeDumper):  # type: ignore[no-redef]
        """_QuotingDumper's representers on LibYAML's emitter."""

    _FastQuotingDumper.add_representer(str, _represent_str)


def dump_yaml(data: Any, sort_keys: bool = False) -> str:
    """YAML text that :func:`selector.yamlio.parse_yaml` reads back unchanged (stable floats, quoted look-alikes).

    Parameters
    ----------
    data
        Plain data: dicts, lists, str, int, finite float, bool, None.
    sort_keys
        Sort mapping keys (stable output for files compared byte by byte).
    """
    return yaml.dump(data, Dumper=_QuotingDumper, sort_keys=sort_keys, allow_unicode=True, width=120)


def detect_format(name: str, data: bytes) -> Format | None:
    """``csv`` or ``yaml`` from the file extension, else from the content (a CSV header of known columns)."""
    suffix = PurePath(name).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix:
        return None
    first = data[:4096].decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0]
    columns = [c.strip().lower() for c in re.split(r"[,;\t]", first)]
    if "entity" in columns and all(c in CSV_COLUMNS for c in columns if c):
        return "csv"
    return "yaml"


# ----------------------------------------------------------------------------------------------------------
# CSV -> knowledge YAML


def _column_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _read_csv(text: str, name: str) -> tuple[list[str], list[tuple[int, list[str]]], list[Issue]]:
    """Header, (line, cells) rows and reading problems. Lines are 1-based lines of the file (a row's first line)."""
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count) if first_line else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    issues: list[Issue] = []
    start = 1
    try:
        for cells in reader:
            rows.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        issues.append(Issue("ERROR", name, start, None, f"not readable as CSV: {exc}; save the file as plain CSV"))
    rows = [(line, cells) for line, cells in rows if any(c.strip() for c in cells)]
    if not rows:
        return [], [], issues or [Issue("ERROR", name, None, None, "file is empty; it needs a header row and data")]
    return [h.strip().lower() for h in rows[0][1]], rows[1:], issues


def _cell_issue(name: str, line: int, index: int, column: str, record: str | None, message: str) -> Issue:
    return Issue("ERROR", name, line, record, f"column `{column}` (cell {_column_letter(index)}{line}): {message}")


def _convert(data: bytes, name: str, user: str = "user") -> _Conversion:
    issues: list[Issue] = []
    empty = _Conversion(b"", issues, {})
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        issues.append(Issue("ERROR", name, line, None, f"not UTF-8 text (byte {exc.start}); save the file as UTF-8"))
        return empty
    found = textpolicy.hidden(text)
    if found:
        # Before the csv module, which stops at a NUL with "line contains NUL" and no column.
        issues.extend(Issue("ERROR", name, h.line, None, h.message) for h in found)
        return empty
    header, rows, problems = _read_csv(text, name)
    issues.extend(problems)
    if not header:
        return empty
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if unknown:
        issues.append(
            Issue(
                "ERROR",
                name,
                1,
                None,
                f"unknown column(s) {', '.join(f'`{u}`' for u in unknown)}; the columns are: {', '.join(CSV_COLUMNS)}",
            )
        )
    duplicated = sorted({h for h in header if header.count(h) > 1 and h})
    if duplicated:
        issues.append(Issue("ERROR", name, 1, None, f"column(s) {', '.join(duplicated)} appear more than once"))
    if "entity" not in header:
        issues.append(Issue("ERROR", name, 1, None, "the header has no `entity` column; every row needs the entity id"))
    if unknown or duplicated or "entity" not in header:
        return empty
    if not rows:
        issues.append(Issue("ERROR", name, None, None, "the file has a header but no data rows"))
        return empty
    if len(rows) > MAX_CSV_ROWS:
        message = f"{len(rows):,} data rows; an upload holds at most {MAX_CSV_ROWS:,}: split the file"
        issues.append(Issue("ERROR", name, rows[MAX_CSV_ROWS][0], None, message))
        return empty

    user = user.strip() or "user"
    problem = _text_problem(user)
    if problem or len(user) > 100:
        issues.append(
            Issue("ERROR", name, None, None, f"the uploader name {problem or 'is longer than 100 characters'}")
        )
        user = "user"
    source_id = user_source_id(name, user)
    lines: dict[str, int] = {source_id: 1}
    entities: dict[str, tuple[dict, int]] = {}
    claims: list[dict] = []
    claim_lines: dict[str, int] = {}
    for line, cells in rows:
        row, ok = _row(cells, header, name, line, issues)
        if not ok:
            continue
        entity_id = row.get("entity")
        claim_id = row.get("id") or f"{source_id}-r{line}"
        if not entity_id:
            issues.append(
                _cell_issue(name, line, header.index("entity"), "entity", claim_id, "is empty; give an entity id")
            )
            continue
        if claim_id in claim_lines:
            issues.append(
                Issue("ERROR", name, line, claim_id, f"id `{claim_id}` is used on line {claim_lines[claim_id]} too")
            )
            continue
        declared = {k: row[k] for k in _ENTITY_COLUMNS if row.get(k) is not None}
        if declared:
            record = _entity_record(entity_id, declared)
            if entity_id in entities and entities[entity_id][0] != record:
                first = entities[entity_id][1]
                issues.append(
                    Issue(
                        "ERROR",
                        name,
                        line,
                        entity_id,
                        f"declares entity `{entity_id}` differently from line {first}; declare it once "
                        "(leave entity_name ... vendor empty on the other rows)",
                    )
                )
                continue
            if entity_id not in entities:
                entities[entity_id] = (record, line)
                lines.setdefault(entity_id, line)
        claims.append(_claim_record(row, claim_id, entity_id, source_id, entities.get(entity_id, ({}, 0))[0]))
        claim_lines[claim_id] = line
    lines.update(claim_lines)
    document: dict[str, Any] = {
        "sources": [
            {
                "id": source_id,
                "kind": "user",
                "title_en": f"Uploaded by {user}: {slug(PurePath(name).stem, 'upload')}",
                "language": "en",
                "author": user,
            }
        ]
    }
    if entities:
        document["entities"] = [record for record, _ in entities.values()]
    document["claims"] = claims
    head = "# Converted from a CSV upload by AI Stack Selector (selector/uploads.py); do not edit by hand.\n"
    text = yaml.dump(document, Dumper=_FastQuotingDumper, sort_keys=False, allow_unicode=True, width=120)
    return _Conversion((head + text).encode("utf-8"), issues, lines)


def _row(cells: list[str], header: list[str], name: str, line: int, issues: list[Issue]) -> tuple[dict, bool]:
    """One CSV row as {column: parsed value}; records cell problems in `issues` and returns ok=False if any."""
    if len(cells) > len(header):
        extra = [c for c in cells[len(header) :] if c.strip()]
        if extra:
            issues.append(
                Issue(
                    "ERROR",
                    name,
                    line,
                    None,
                    f"{len(cells)} cells but the header has {len(header)} columns; "
                    "quote cells that contain the delimiter",
                )
            )
            return {}, False
    row: dict[str, Any] = {}
    ok = True
    record = None
    if "id" in header and header.index("id") < len(cells):
        record = cells[header.index("id")].strip() or None
    for index, column in enumerate(header):
        raw = cells[index] if index < len(cells) else ""
        if not raw.strip():
            continue
        if column == "value":
            parsed, problem = _parse_number(raw)
        elif column == "comparator":  # an enum the schema checks; '=' is legitimate here
            parsed, problem = raw.strip(), None
        else:
            problem = _text_problem(raw)
            parsed = raw.strip().lower() if column in _LOWER_CASE_COLUMNS else raw.strip()
            if column in _LIST_COLUMNS:
                parsed = [p.strip() for p in re.split(r"[;|]", parsed) if p.strip()]
        if problem:
            issues.append(_cell_issue(name, line, index, column, record, problem))
            ok = False
        else:
            row[column] = parsed
    return row, ok


def _parse_number(raw: str) -> tuple[float | None, str | None]:
    """A numeric cell as a finite float, or None and what is wrong with it."""
    text = raw.strip()
    if _NON_FINITE_WORD.match(text):
        return None, f"`{text}` is not a finite number; give a real value"
    if not _NUMBER.match(text):
        hint = " (formulas are not allowed)" if _starts_formula(raw) else ""
        return None, (
            f"`{text[:40]}` is not a number{hint}; write digits with an optional sign, decimal point and exponent, "
            "e.g. 275 or 2.5"
        )
    number = float(text)
    if not math.isfinite(number):
        return None, f"`{text[:40]}` is too large to be a finite number"
    return number, None


def _entity_record(entity_id: str, declared: dict) -> dict:
    record: dict[str, Any] = {"id": entity_id}
    if "entity_name" in declared:
        record["name"] = declared["entity_name"]
    if "entity_kind" in declared:
        record["kind"] = declared["entity_kind"]
    for key in ("segment", "roles", "vendor"):
        if key in declared:
            record[key] = declared[key]
    return record


def _claim_record(row: dict, claim_id: str, entity_id: str, source_id: str, entity: dict) -> dict:
    value = row.get("value")
    claim: dict[str, Any] = {
        "id": claim_id,
        "source": source_id,
        "tier": row.get("tier", "measured"),
        "kind": row.get("kind", "benchmark" if value is not None else "observation"),
    }
    if "text_en" in row:
        claim["text_en"] = row["text_en"]
    else:
        who = entity.get("name") or entity_id
        what = row.get("metric", "observation")
        amount = f" {row.get('comparator', '=')} {value:g} {row.get('unit', '')}".rstrip() if value is not None else ""
        claim["text_en"] = f"{who}: {what}{amount} (uploaded {row.get('tier', 'measured')} value)."
    claim["about"] = [entity_id]
    for key in ("metric", "comparator", "unit", "overrides", "rationale", "based_on", "note"):
        if key in row:
            claim[key] = row[key]
    if value is not None:
        claim["value"] = value
    conditions = {c: row[c] for c in _CONDITION_COLUMNS if c in row}
    if conditions:
        claim["conditions"] = conditions
    return claim


def csv_to_yaml(data: bytes, name: str, user: str = "user") -> tuple[bytes | None, list[Issue]]:
    """Convert a CSV upload (layout in the module docstring) to knowledge-schema YAML.

    Parameters
    ----------
    data
        The CSV bytes (UTF-8, optional BOM; delimiter ``,``, ``;`` or tab, told from the header line).
    name
        The file name, used in issues and for the id of the generated ``user`` source.
    user
        Who uploads: named in the source record (``user-<user>-<file stem>``).

    Returns
    -------
    tuple
        The YAML bytes (None when any cell or row has an ERROR) and the conversion issues, each naming the CSV
        line and column. Schema and cross-reference checks happen in :func:`validate_upload`.
    """
    conversion = _convert(data, name, user)
    if not conversion.yaml or any(i.level == "ERROR" for i in conversion.issues):
        return None, conversion.issues
    return conversion.yaml, conversion.issues


def csv_template() -> bytes:
    """A CSV template: the header and two example rows (a new edge chip, and an override of an article figure)."""
    rows = [
        {
            "id": "my-npu-tops",
            "entity": "my-npu",
            "metric": "tops_int8",
            "value": "40",
            "unit": "TOPS",
            "tier": "measured",
            "text_en": "My NPU: 40 TOPS INT8, measured with our benchmark (example row: replace it).",
            "precision": "int8",
            "entity_name": "My NPU",
            "entity_kind": "accelerator",
            "segment": "edge",
        },
        {
            "id": "my-npu-power",
            "entity": "my-npu",
            "metric": "power_w",
            "value": "8",
            "unit": "W",
            "tier": "measured",
            "text_en": "My NPU draws 8 W under that load (example row: replace it).",
        },
        {
            "id": "my-orin-tops",
            "entity": "jetson-orin",
            "metric": "tops_int8",
            "value": "275",
            "unit": "TOPS",
            "tier": "measured",
            "text_en": "Jetson AGX Orin 64GB is rated 275 TOPS INT8 (sparse) by NVIDIA's datasheet (example row).",
            "overrides": "c004-orin-tops",
            "precision": "int8",
        },
    ]
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(CSV_COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


# ----------------------------------------------------------------------------------------------------------
# Upload policy (beyond the schema)


def _strings(data: Any, path: tuple = ()) -> Iterable[tuple[tuple, str]]:
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _strings(value, (*path, index))


def _record_id(data: dict, section: str, index: int) -> str | None:
    items = data.get(section)
    if isinstance(items, list) and index < len(items) and isinstance(items[index], dict):
        record = items[index].get("id")
        return record if isinstance(record, str) else None
    return None


def _items(data: dict, section: str) -> list[tuple[int, dict]]:
    items = data.get(section)
    if not isinstance(items, list):
        return []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)]


def _policy(parsed: Parsed, name: str, other_user_sources: set[str]) -> list[Issue]:
    """Upload rules on the raw parsed data (so they are reported even where the schema also complains)."""
    data = parsed.data
    issues: list[Issue] = []
    if not isinstance(data, dict):
        return issues

    def error(path: tuple, message: str, record: str | None = None) -> None:
        issues.append(Issue("ERROR", name, parsed.line_of(path), record, message))

    for section in data:
        if section in SECTIONS and section not in UPLOAD_SECTIONS:
            error(
                (section,),
                f"an upload may add {', '.join(UPLOAD_SECTIONS)}; `{section}` belong to the bundled knowledge "
                "(the articles' decision model) and cannot be uploaded",
            )
    own_sources = set()
    for index, item in _items(data, "sources"):
        record = item.get("id") if isinstance(item.get("id"), str) else None
        if item.get("kind", "article") != "user":
            error(
                ("sources", index, "kind"),
                f"an upload's source must have `kind: user` (got `{_clip(item.get('kind', 'article'))}`): articles "
                "and the team's assessment are bundled, an upload cannot add or impersonate them",
                record,
            )
        elif record:
            own_sources.add(record)
    user_sources = own_sources | other_user_sources
    for index, item in _items(data, "claims"):
        record = item.get("id") if isinstance(item.get("id"), str) else None
        tier = item.get("tier", "claimed")
        if tier not in USER_TIERS:
            given = f"tier `{_clip(tier)}`" if "tier" in item else "no tier (the default is `claimed`)"
            error(
                ("claims", index, "tier"),
                f"{given}: an upload may only hold `measured` claims (your own measurements) or `assessed` claims "
                "(your ratings, with rationale and based_on); `claimed` is reserved for verbatim quotes of the "
                "bundled articles",
                record,
            )
        source = item.get("source")
        if isinstance(source, str) and source not in user_sources:
            error(
                ("claims", index, "source"),
                f"cites source `{_clip(source)}`, which is not a `user` source of your uploads; define one in this "
                "file (sources: - {id: user-me, kind: user, title_en: ...}) and cite it",
                record,
            )
        metric, value = item.get("metric"), item.get("value")
        if isinstance(metric, str) and isinstance(value, int | float) and not isinstance(value, bool):
            if value < 0 and _non_negative(metric):
                error(
                    ("claims", index, "value"),
                    f"`{metric}` cannot be negative (got {_short(value)}); give the measured magnitude",
                    record,
                )
            elif value > 100 and metric in PERCENT_OF_WHOLE_METRICS:
                message = f"`{metric}` is a share of a whole: 0 to 100 (got {_short(value)})"
                error(("claims", index, "value"), message, record)
    for path, text in _strings(data):
        keys = tuple(p for p in path if isinstance(p, str))
        if keys[-1:] == ("comparator",) or (keys[:1] + keys[-1:]) in _SCHEMA_CHECKED:
            continue
        problem = _text_problem(text)
        if problem:
            record = _record_id(data, path[0], path[1]) if len(path) > 1 and isinstance(path[1], int) else None
            field_name = ".".join(str(p) for p in path[2:]) or ".".join(str(p) for p in path)
            error(path, f"`{field_name}` {problem}", record)
    return issues


def _fingerprint(directory: Path) -> tuple:
    """What the cached reference knowledge depends on: every YAML file's path, size and modification time."""
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(directory.rglob("*.yaml")))


@lru_cache(maxsize=4)
def _reference(directory: str, fingerprint: tuple, others: tuple[Upload, ...]) -> KnowledgeBase | None:
    # Only needed when the upload has errors (no merged knowledge to check units and ranges against).
    return knowledge.collect(Path(directory), extra=others)[0]


def _upload_claims(parsed: Parsed) -> list[tuple[int, Claim]]:
    found = []
    for index, item in _items(parsed.data if isinstance(parsed.data, dict) else {}, "claims"):
        try:
            found.append((index, Claim.model_validate(item)))
        except ValidationError:
            continue  # the loader reports it
    return found


def _against_knowledge(parsed: Parsed, name: str, reference: KnowledgeBase) -> list[Issue]:
    """Checks that need the knowledge: units and plausible ranges of the criteria, and what an override replaces."""
    issues: list[Issue] = []
    own = _upload_claims(parsed)
    claims = {**reference.claims, **{c.id: c for _, c in own}}
    overridden = {c.overrides: c.id for c in reference.claims.values() if c.overrides}
    for index, claim in own:
        here = ("claims", index)
        if claim.value is not None and claim.metric:
            criteria = [c for c in reference.criteria.values() if c.metric == claim.metric]
            units = {c.unit.casefold(): c.unit for c in criteria}
            if units and claim.unit.casefold() not in units:
                issues.append(
                    Issue(
                        "ERROR",
                        name,
                        parsed.line_of((*here, "unit")),
                        claim.id,
                        f"unit `{claim.unit}` differs from `{', '.join(sorted(units.values()))}`, the unit of "
                        f"criterion {', '.join(f'`{c.id}`' for c in criteria)} (metric `{claim.metric}`); "
                        "convert the value",
                    )
                )
            refused = claim.value < 0 and _non_negative(claim.metric)  # already an error; a range warning adds nothing
            for criterion in criteria:
                if not _holds_under(criterion.conditions, claim.conditions):
                    continue  # a figure measured under other conditions never fills this column
                if criterion.scale and not refused and not criterion.scale[0] <= claim.value <= criterion.scale[1]:
                    low, high = criterion.scale
                    issues.append(
                        Issue(
                            "WARNING",
                            name,
                            parsed.line_of((*here, "value")),
                            claim.id,
                            f"{claim.value:g} {claim.unit} is outside the plausible range {low:g}-{high:g} of "
                            f"criterion `{criterion.id}`; check the number and its unit",
                        )
                    )
        if claim.overrides:
            target = claims.get(claim.overrides)
            if target is not None and (target.metric, target.subject_id) != (claim.metric, claim.subject_id):
                issues.append(
                    Issue(
                        "ERROR",
                        name,
                        parsed.line_of((*here, "overrides")),
                        claim.id,
                        f"overrides `{target.id}` ({target.metric or 'no metric'} of `{target.subject_id}`) but gives "
                        f"{claim.metric or 'no metric'} of `{claim.subject_id}`; an override must give the same "
                        "metric for the same entity",
                    )
                )
            elif claim.overrides in overridden and overridden[claim.overrides] != claim.id:
                issues.append(
                    Issue(
                        "WARNING",
                        name,
                        parsed.line_of((*here, "overrides")),
                        claim.id,
                        f"`{claim.overrides}` is already overridden by `{overridden[claim.overrides]}`; both "
                        "replacements are used (their median)",
                    )
                )
    return issues


def _holds_under(wanted: Conditions, have: Conditions) -> bool:
    """True when `have` states every condition of `wanted` with the same value (as the decision matrix matches)."""
    given = have.model_dump()
    return all(
        str(given.get(k) or "").strip().lower() == str(v).strip().lower()
        for k, v in wanted.model_dump(exclude_none=True).items()
    )


def _user_sources(uploads: Sequence[Upload]) -> set[str]:
    found = set()
    for upload in uploads:
        parsed, _ = knowledge.parse(upload.name, upload.data, MAX_BYTES, True)
        if parsed is not None and isinstance(parsed.data, dict):
            for _, item in _items(parsed.data, "sources"):
                if item.get("kind") == "user" and isinstance(item.get("id"), str):
                    found.add(item["id"])
    return found


def validate_upload(
    name: str,
    data: bytes,
    kb_dir: Path = DEFAULT_KNOWLEDGE,
    others: Sequence[Upload] = (),
    user: str = "user",
    max_bytes: int = MAX_UPLOAD_BYTES,
    measured: Any = None,
) -> UploadResult:
    """Check one upload against the knowledge and the uploads accepted before it; never raises on bad input.

    Parameters
    ----------
    name
        The file name as the user gave it (``.yaml``, ``.yml`` or ``.csv``; without extension the content decides).
    data
        The file's bytes.
    kb_dir
        The bundled knowledge directory (read, never written).
    others
        Uploads already accepted in this session (their ``upload`` form), merged before this one.
    user
        Who uploads (names the source a CSV upload gets).
    max_bytes
        Size cap of the upload.
    measured
        For a benchmark output (LoadGen summary, trtexec log, llama-bench JSON): the
        :class:`selector.measure.Options` saying what the file does not (the hardware entity). Such a file is
        converted to measured claims (``<name>.measured.yaml``, which is also what a profile keeps).

    Returns
    -------
    UploadResult
        With the merged knowledge when nothing is an ERROR, else ``kb=None`` and every issue.
    """
    original = Upload(name, data)
    fmt = detect_format(name, data)

    def refuse(message: str, line: int | None = None) -> UploadResult:
        return UploadResult(None, (Issue("ERROR", name, line, None, message),), original, original, fmt)

    hidden_in_name = textpolicy.first_hidden(name)
    if hidden_in_name is not None:
        # The name is shown on the page and in reports like any text; the issue names the file with the character
        # made visible.
        issue = Issue("ERROR", textpolicy.shown(name), None, None, f"the file name: {hidden_in_name}; rename the file")
        return UploadResult(None, (issue,), original, original, fmt)
    if len(data) > max_bytes:
        return refuse(f"file is {len(data):,} bytes; the limit for an upload is {max_bytes:,} bytes")
    if fmt is None:
        from selector import measure

        if measure.is_benchmark_output(name, data):
            return _benchmark_output(name, data, kb_dir, others, user, measured)
        return refuse(
            f"cannot tell the file type of `{PurePath(name).suffix}`; upload a .yaml, .yml or .csv file, "
            "or a benchmark output (MLPerf LoadGen summary, trtexec log, llama-bench JSON)"
        )
    try:
        with limits.checking():
            return _check_upload(name, data, fmt, kb_dir, others, user)
    except limits.Busy as exc:
        return refuse(str(exc))


def _check_upload(
    name: str, data: bytes, fmt: Format, kb_dir: Path, others: Sequence[Upload], user: str
) -> UploadResult:
    original = Upload(name, data)

    def refuse(message: str, line: int | None = None) -> UploadResult:
        return UploadResult(None, (Issue("ERROR", name, line, None, message),), original, original, fmt)

    issues: list[Issue] = []
    lines: dict[str, int] = {}
    converted = data
    if fmt == "csv":
        conversion = _convert(data, name, user)
        issues.extend(conversion.issues)
        if not conversion.yaml:
            return UploadResult(None, tuple(issues), original, original, fmt)
        converted, lines = conversion.yaml, conversion.lines
        if len(converted) > MAX_BYTES:
            # The session merges the converted YAML under the loader's own cap; refuse here, where it is clear why.
            return refuse(f"the file converts to {len(converted):,} bytes of YAML (limit {MAX_BYTES:,}); split it")
    upload = Upload(name, converted)
    # The same cached parse as the knowledge load below: each file is parsed once.
    parsed, problems = knowledge.parse(name, converted, MAX_BYTES, True)
    if parsed is None:
        return UploadResult(None, tuple(issues + list(problems)), upload, original, fmt)
    crowded = limits.too_many_records(parsed.data)
    if crowded:
        # Refused before the schema and the policy run: their cost grows with the records.
        message = "; ".join(f"`{section}` holds {count:,} records" for section, count in crowded)
        return refuse(f"{message}; an upload holds at most {limits.MAX_RECORDS:,} per list: split the file")
    policy = _policy(parsed, name, _user_sources(others))
    merged, collected = knowledge.collect(kb_dir, extra=[*others, upload])
    reference = merged
    if reference is None:
        reference = _reference(str(kb_dir), _fingerprint(Path(kb_dir)), tuple(others))
    checks = _against_knowledge(parsed, name, reference) if reference is not None else []
    found = policy + list(collected) + checks
    if lines:
        found = [_to_csv_line(i, name, lines) for i in found]
    issues.extend(dict.fromkeys(found))  # the same problem found twice is shown once
    issues = limits.capped(issues)
    source_ids = tuple(
        item["id"]
        for _, item in _items(parsed.data if isinstance(parsed.data, dict) else {}, "sources")
        if item.get("kind") == "user" and isinstance(item.get("id"), str)
    )
    kb = merged if not any(i.level == "ERROR" for i in issues) else None
    return UploadResult(kb, tuple(issues), upload, original, fmt, source_ids)


def check_files(
    paths: Sequence[Path], kb_dir: Path = DEFAULT_KNOWLEDGE, others: Sequence[Upload] = ()
) -> tuple[list[Upload], list[Issue]]:
    """Check files named on the command line one after another, as the My data page checks uploads.

    ``validate --extra`` and ``rank --extra`` (and ``sensitivity``, ``report``) call this, the page calls
    :func:`validate_upload` on each file it receives: so all of them accept and refuse the same files.

    Parameters
    ----------
    paths
        The files, in the order given; each is checked against the knowledge and the files accepted before it.
    kb_dir
        The knowledge directory (read, never written).
    others
        Uploads accepted before (e.g. those a profile embeds).

    Returns
    -------
    (accepted, issues)
        The uploads accepted (a file with any ERROR is not) and every issue of every file.
    """
    from selector import fileio

    accepted = list(others)
    found: list[Issue] = []
    for path in paths:
        data, problem = fileio.read_bytes(path, MAX_UPLOAD_BYTES)
        if problem is not None:
            found.append(problem)
            continue
        result = validate_upload(str(path), data, kb_dir, others=accepted)
        found.extend(result.issues)
        if result.ok:
            accepted.append(result.upload)
    return accepted[len(others) :], found


def _benchmark_output(
    name: str, data: bytes, kb_dir: Path, others: Sequence[Upload], user: str, options: Any
) -> UploadResult:
    """A benchmark output converted to measured claims (selector.measure) and checked like any YAML upload."""
    from selector import measure

    original = Upload(name, data)
    reference = _reference(str(kb_dir), _fingerprint(Path(kb_dir)), tuple(others))
    if reference is None:
        issue = Issue("ERROR", name, None, None, "your other files do not merge; fix them before adding this one")
        return UploadResult(None, (issue,), original, original)
    try:
        ingested = measure.ingest([(name, data)], options or measure.Options(user=user), reference)
    except measure.MeasureError as exc:
        return UploadResult(None, exc.issues, original, original)
    head = f"# Measured claims converted from {PurePath(name).name} by AI Stack Selector (selector/measure).\n"
    converted = (head + dump_yaml(ingested.document)).encode("utf-8")
    return validate_upload(f"{PurePath(name).name}.measured.yaml", converted, kb_dir, others, user, MAX_BYTES)


def _to_csv_line(issue: Issue, name: str, lines: dict[str, int]) -> Issue:
    if issue.file != name:
        return issue
    return Issue(issue.level, issue.file, lines.get(issue.record or ""), issue.record, issue.message)


# ----------------------------------------------------------------------------------------------------------
# Users' values against the articles'


@dataclass(frozen=True)
class UserConflict:
    """A user's value beside a bundled claim of the same metric and entity, and how far apart they are."""

    user_claim: str
    other_claim: str
    other_tier: str
    subject: str
    metric: str
    user_value: float
    other_value: float
    user_unit: str
    other_unit: str
    relative_difference: float | None  # (user - other) / |other|; None when the other value is 0
    comparable: bool  # same unit and no condition set in both with different values
    overrides: bool  # the user claim replaces this one in the decision matrix
    other_flagged: bool
    differing_conditions: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def user_source_ids(kb: KnowledgeBase) -> tuple[str, ...]:
    """The ids of every ``user`` source in `kb` (the uploads' sources)."""
    return tuple(s.id for s in kb.sources.values() if s.kind == "user")


def _differing(a: Conditions, b: Conditions) -> tuple[str, ...]:
    left, right = a.model_dump(), b.model_dump()
    return tuple(
        k
        for k in left
        if left[k] is not None
        and right[k] is not None
        and str(left[k]).strip().casefold() != str(right[k]).strip().casefold()
    )


def user_vs_article_conflicts(kb: KnowledgeBase, user_source_ids: Iterable[str]) -> list[UserConflict]:
    """For each numeric user claim, the bundled claims with the same metric and subject, and the difference.

    Parameters
    ----------
    kb
        The merged knowledge (bundled + uploads).
    user_source_ids
        Sources whose claims count as the user's (see :func:`user_source_ids`).

    Returns
    -------
    list of UserConflict
        Ordered by user claim, then the largest difference first.
    """
    mine = set(user_source_ids)
    bundled: dict[tuple[str, str], list[Claim]] = {}
    for claim in kb.claims.values():
        if claim.value is not None and claim.source not in mine:
            bundled.setdefault((claim.metric, claim.subject_id), []).append(claim)
    found = []
    for claim in (c for c in kb.claims.values() if c.source in mine and c.value is not None):
        for other in bundled.get((claim.metric, claim.subject_id), ()):
            differing = _differing(claim.conditions, other.conditions)
            same_unit = claim.unit.strip().casefold() == other.unit.strip().casefold()
            found.append(
                UserConflict(
                    user_claim=claim.id,
                    other_claim=other.id,
                    other_tier=other.tier,
                    subject=claim.subject_id,
                    metric=claim.metric,
                    user_value=claim.value,
                    other_value=other.value,
                    user_unit=claim.unit,
                    other_unit=other.unit,
                    relative_difference=None if other.value == 0 else (claim.value - other.value) / abs(other.value),
                    comparable=same_unit and not differing,
                    overrides=claim.overrides == other.id,
                    other_flagged=other.flagged,
                    differing_conditions=differing,
                )
            )
    return sorted(found, key=lambda f: (f.user_claim, -abs(f.relative_difference or 0.0), f.other_claim))


def user_entities(kb: KnowledgeBase, upload_names: Iterable[str]) -> list[Entity]:
    """The entities that the named uploads define (a chip the articles never mention)."""
    names = set(upload_names)
    return [
        entity
        for entity in kb.entities.values()
        if kb.locations.get(("entities", entity.id), "").rpartition(":")[0] in names
    ]


def ranked_metrics(kb: KnowledgeBase) -> dict[str, tuple[str, ...]]:
    """metric -> the names of the groups whose ranking it feeds (a criterion of the group with a positive weight)."""
    found: dict[str, list[str]] = {}
    for group in kb.groups.values():
        for gc in group.criteria:
            if gc.weight > 0:
                found.setdefault(kb.criteria[gc.criterion].metric, []).append(group.name_en)
    return {m: tuple(dict.fromkeys(g)) for m, g in sorted(found.items())}


def ranking_use(kb: KnowledgeBase, claim: Claim) -> str:
    """Where a claim feeds a ranking ("ranked: group (criterion)"), or "stored, not ranked" and why.

    A claim is ranked where it is evidence of a cell: its metric and conditions are a weighted criterion's, its
    entity is a member of the group, and no claim of a better tier fills the same cell.
    """
    from selector.matrix import claims_for_cell

    uses = []
    for group in kb.groups.values():
        if claim.subject_id not in group.members:
            continue
        for gc in group.criteria:
            criterion = kb.criteria[gc.criterion]
            if gc.weight <= 0 or criterion.metric != claim.metric:
                continue
            found = claims_for_cell(kb, criterion, claim.subject_id)
            if found and claim.id in {c.id for c in found if c.tier == found[0].tier}:
                uses.append(f"{group.name_en} ({criterion.name_en})")
    if uses:
        return "ranked: " + "; ".join(uses)
    return "stored, not ranked (ranked metrics: " + ", ".join(ranked_metrics(kb)) + ")"


def comparison_rows(kb: KnowledgeBase, user_source_ids: Iterable[str]) -> list[dict[str, Any]]:
    """Each user claim with a value, followed by the bundled claims of the same entity and metric.

    Returns
    -------
    list of dict
        Keys: entity, metric, origin (``yours``, ``article``, ``assessment``), tier, claim, value, unit,
        conditions, ranking (:func:`ranking_use`), flagged.
    """
    mine = set(user_source_ids)
    overridden = {c.overrides: c.id for c in kb.claims.values() if c.overrides}
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()

    def row(claim: Claim) -> dict[str, Any]:
        source = kb.sources.get(claim.source)
        origin = "yours" if claim.source in mine else (source.kind if source else "unknown")
        return {
            "entity": kb.entity_name(claim.subject_id),
            "metric": claim.metric,
            "origin": origin,
            "tier": claim.tier,
            "claim": claim.id,
            "value": claim.value,
            "unit": claim.unit,
            "conditions": "; ".join(f"{k}: {v}" for k, v in claim.conditions.key()),
            "ranking": (f"replaced by {overridden[claim.id]}" if claim.id in overridden else ranking_use(kb, claim)),
            "flagged": claim.flagged,
        }

    bundled: dict[tuple[str, str], list[Claim]] = {}
    for claim in kb.claims.values():
        if claim.value is not None and claim.source not in mine:
            bundled.setdefault((claim.metric, claim.subject_id), []).append(claim)
    users = (c for c in kb.claims.values() if c.value is not None and c.source in mine)
    for claim in sorted(users, key=lambda c: (c.subject_id, c.metric, c.id)):
        rows.append(row(claim))
        for other in bundled.get((claim.metric, claim.subject_id), ()):
            if other.id not in seen:
                seen.add(other.id)
                rows.append(row(other))
    return rows
