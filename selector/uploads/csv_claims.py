"""The CSV claims format: one row per claim -> knowledge-schema YAML (the template too).

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
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from selector import limits, textpolicy
from selector.models import Conditions
from selector.uploads.policy import starts_formula, text_problem
from selector.yamlio import Issue, dump_yaml

#: The documented maximum (selector/limits.py derives every other cap on a user's file from it).
MAX_CSV_ROWS = limits.MAX_CSV_ROWS

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


@dataclass(frozen=True)
class Conversion:
    yaml: bytes
    issues: list[Issue]
    lines: dict[str, int]  # record id -> CSV line


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


def convert(data: bytes, name: str, user: str = "user") -> Conversion:
    issues: list[Issue] = []
    empty = Conversion(b"", issues, {})
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
    problem = text_problem(user)
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
    head = "# Converted from a CSV upload by AI Stack Selector (selector/uploads/csv_claims.py); do not edit by hand.\n"
    text = dump_yaml(document, fast=True)
    return Conversion((head + text).encode("utf-8"), issues, lines)


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
            problem = text_problem(raw)
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
        hint = " (formulas are not allowed)" if starts_formula(raw) else ""
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
    conversion = convert(data, name, user)
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
