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
    entity_name, entity_kind, segment, roles, vendor, groups
                  declare a new entity: kind accelerator needs a segment (datacenter, edge, mobile_client,
                  emerging), kind framework needs roles separated by ';'; groups (separated by ';') are the
                  comparison groups it joins, i.e. where it is ranked

Cells of text columns that start a spreadsheet formula (``= + - @``, tab, carriage return) are refused; in the
numeric ``value`` column a leading sign is a sign, and range checks decide (the ``bounds`` of knowledge/metrics.yaml).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from selector.io import limits, numbers, rawtext, textpolicy
from selector.io.yamlio import Parsed, dump_yaml
from selector.issues import Issue
from selector.knowledge.models import Conditions
from selector.uploads.policy import starts_formula, text_problem

#: The documented maximum (selector/io/limits.py derives every other cap on a user's file from it).
MAX_CSV_ROWS = limits.MAX_CSV_ROWS

_CONDITION_COLUMNS = tuple(Conditions.model_fields)
_ENTITY_COLUMNS = ("entity_name", "entity_kind", "segment", "roles", "vendor", "groups")
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
    "groups": "comparison groups a NEW entity joins, separated by ';' (e.g. edge-accelerators): where it is ranked",
}
_LIST_COLUMNS = frozenset({"based_on", "roles", "groups"})
# Columns holding one of the schema's lower-case words: "Measured" is taken as meant.
_LOWER_CASE_COLUMNS = frozenset({"tier", "kind", "entity_kind", "segment", "roles"})

# A cell opening with a sign and a digit is a signed number (range checks decide), not a formula.
_SIGNED = re.compile(r"^[+-][\d.]")


@dataclass(frozen=True)
class Conversion:
    """A CSV upload converted: the YAML text, the same data already parsed (the YAML is never read back), the
    conversion issues, and record id -> CSV line."""

    yaml: bytes
    issues: list[Issue]
    lines: dict[str, int]
    parsed: Parsed | None = None


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
    """Header, (line, cells) rows and reading problems. Lines are 1-based lines of the file (a row's first line).

    The rows come through the front door every reader of outside CSV shares (:func:`selector.io.rawtext.csv_rows`:
    a malformed record or an oversized field is refused with its line); the rows before a refusal are kept, so
    their own problems are listed too.
    """
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count) if first_line else ","
    rows: list[tuple[int, list[str]]] = []
    issues: list[Issue] = []
    try:
        for start, cells in rawtext.csv_rows(name, text, delimiter):
            if any(c.strip() for c in cells):
                rows.append((start, cells))
            if len(rows) > MAX_CSV_ROWS + 1:
                break  # the header and one data row past the cap refuse the file: the rest would cost, not tell
    except rawtext.RawTextError as exc:
        issues.extend(exc.issues)
    if not rows:
        return [], [], issues or [Issue("ERROR", name, None, None, "file is empty; it needs a header row and data")]
    return [h.strip().lower() for h in rows[0][1]], rows[1:], issues


def _cell_issue(name: str, line: int, index: int, column: str, record: str | None, message: str) -> Issue:
    return Issue("ERROR", name, line, record, f"column `{column}` (cell {_column_letter(index)}{line}): {message}")


def convert(data: bytes, name: str, user: str = "user") -> Conversion:
    """A CSV upload as knowledge YAML, the same document already parsed, every issue, and each record's CSV line."""
    issues: list[Issue] = []
    text = _decoded(data, name, issues)
    if text is None:
        return Conversion(b"", issues, {})
    header, rows, problems = _read_csv(text, name)
    issues.extend(problems)
    if not header or not _layout_ok(header, rows, name, issues):
        return Conversion(b"", issues, {})
    user = _uploader(user, name, issues)
    records = _Records(user_source_id(name, user))
    for line, cells in rows:
        row, ok = _row(cells, header, name, line, issues)
        if ok:
            records.add(row, line, header, name, issues)
    document = records.document(user, name)
    head = "# Converted from a CSV upload by AI Stack Selector (selector/uploads/csv_claims.py); do not edit by hand.\n"
    text = dump_yaml(document, fast=True)
    return Conversion((head + text).encode("utf-8"), issues, records.lines(), Parsed(document, records.paths()))


def _decoded(data: bytes, name: str, issues: list[Issue]) -> str | None:
    """The CSV's text, or None with the reason in `issues` (not UTF-8, hidden characters)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        issues.append(Issue("ERROR", name, line, None, f"not UTF-8 text (byte {exc.start}); save the file as UTF-8"))
        return None
    found = textpolicy.hidden(text)
    if found:
        # Before the csv module, which stops at a NUL with "line contains NUL" and no column.
        issues.extend(Issue("ERROR", name, h.line, None, h.message) for h in found)
        return None
    return text


def _layout_ok(header: list[str], rows: list[tuple[int, list[str]]], name: str, issues: list[Issue]) -> bool:
    """Whether the header names known columns once each, `entity` among them, over 1 to MAX_CSV_ROWS data rows."""
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if unknown:
        listed = ", ".join(f"`{u}`" for u in unknown)
        message = f"unknown column(s) {listed}; the columns are: {', '.join(CSV_COLUMNS)}"
        issues.append(Issue("ERROR", name, 1, None, message))
    duplicated = sorted({h for h in header if header.count(h) > 1 and h})
    if duplicated:
        issues.append(Issue("ERROR", name, 1, None, f"column(s) {', '.join(duplicated)} appear more than once"))
    if "entity" not in header:
        issues.append(Issue("ERROR", name, 1, None, "the header has no `entity` column; every row needs the entity id"))
    # Unknown columns are reported and their cells left aside: the rows are still checked, so that every problem
    # of the file shows in one pass (the upload is refused all the same).
    if duplicated or "entity" not in header:
        return False
    if not rows:
        issues.append(Issue("ERROR", name, None, None, "the file has a header but no data rows"))
        return False
    if len(rows) > MAX_CSV_ROWS:
        message = f"{len(rows):,} data rows; an upload holds at most {MAX_CSV_ROWS:,}: split the file"
        issues.append(Issue("ERROR", name, rows[MAX_CSV_ROWS][0], None, message))
        return False
    return True


def _uploader(user: str, name: str, issues: list[Issue]) -> str:
    """The uploader's name as the source records it (``user`` when it breaks the text policy or is too long)."""
    user = user.strip() or "user"
    problem = text_problem(user)
    if problem or len(user) > 100:
        issues.append(
            Issue("ERROR", name, None, None, f"the uploader name {problem or 'is longer than 100 characters'}")
        )
        return "user"
    return user


class _Records:
    """The entities and claims of a CSV's rows, each with the CSV line it came from."""

    def __init__(self, source_id: str) -> None:
        self.source_id = source_id
        self.entities: dict[str, tuple[dict, int]] = {}
        self.claims: list[dict] = []
        self.claim_lines: dict[str, int] = {}

    def add(self, row: dict, line: int, header: list[str], name: str, issues: list[Issue]) -> None:
        """Add one row's claim (and the entity it declares), or record in `issues` why it cannot be added."""
        entity_id = row.get("entity")
        claim_id = row.get("id") or f"{self.source_id}-r{line}"
        if not entity_id:
            issues.append(
                _cell_issue(name, line, header.index("entity"), "entity", claim_id, "is empty; give an entity id")
            )
            return
        if claim_id in self.claim_lines:
            message = f"id `{claim_id}` is used on line {self.claim_lines[claim_id]} too"
            issues.append(Issue("ERROR", name, line, claim_id, message))
            return
        declared = {k: row[k] for k in _ENTITY_COLUMNS if row.get(k) is not None}
        if declared:
            record = _entity_record(entity_id, declared)
            if entity_id in self.entities and self.entities[entity_id][0] != record:
                issues.append(
                    Issue(
                        "ERROR",
                        name,
                        line,
                        entity_id,
                        f"declares entity `{entity_id}` differently from line {self.entities[entity_id][1]}; "
                        "declare it once (leave entity_name ... vendor empty on the other rows)",
                    )
                )
                return
            self.entities.setdefault(entity_id, (record, line))
        entity = self.entities.get(entity_id, ({}, 0))[0]
        self.claims.append(_claim_record(row, claim_id, entity_id, self.source_id, entity))
        self.claim_lines[claim_id] = line

    def document(self, user: str, name: str) -> dict[str, Any]:
        """The knowledge-schema document: the ``user`` source, the declared entities, the claims."""
        source = {
            "id": self.source_id,
            "kind": "user",
            "title_en": f"Uploaded by {user}: {slug(PurePath(name).stem, 'upload')}",
            "language": "en",
            "author": user,
        }
        document: dict[str, Any] = {"sources": [source]}
        if self.entities:
            document["entities"] = [record for record, _ in self.entities.values()]
        document["claims"] = self.claims
        return document

    def lines(self) -> dict[str, int]:
        """Record id -> CSV line (the source is line 1, the header)."""
        found = {self.source_id: 1}
        for entity_id, (_, line) in self.entities.items():
            found.setdefault(entity_id, line)
        found.update(self.claim_lines)
        return found

    def paths(self) -> dict[tuple, int]:
        """The document's paths -> CSV lines, as :class:`selector.io.yamlio.Parsed` holds a file's lines."""
        found: dict[tuple, int] = {(): 1, ("sources",): 1, ("sources", 0): 1}
        for section, lines in (
            ("entities", [line for _, line in self.entities.values()]),
            ("claims", [self.claim_lines[c["id"]] for c in self.claims]),
        ):
            if lines:
                found[(section,)] = lines[0]
                found.update({(section, index): line for index, line in enumerate(lines)})
        return found


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
    """A numeric cell as a finite float, or None and what is wrong with it (the one number parser decides)."""
    try:
        return numbers.parse_number(raw), None
    except numbers.NumberRefused as exc:
        hint = " (formulas are not allowed)" if starts_formula(raw) and not _SIGNED.match(raw.strip()) else ""
        return None, f"{exc}{hint}"


def _entity_record(entity_id: str, declared: dict) -> dict:
    record: dict[str, Any] = {"id": entity_id}
    if "entity_name" in declared:
        record["name"] = declared["entity_name"]
    if "entity_kind" in declared:
        record["kind"] = declared["entity_kind"]
    for key in ("segment", "roles", "vendor", "groups"):
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


def csv_template() -> bytes:
    """A CSV template that validates as it stands: a new edge chip (two rows; it joins the group Edge AI modules and
    is ranked there after upload) and an override of an article figure."""
    rows = [
        {
            "id": "my-npu-tops",
            "entity": "my-npu",
            "metric": "tops_int8",
            "value": "40",
            "unit": "TOPS",
            "tier": "measured",
            "text_en": "My NPU: 40 TOPS dense INT8, measured with our benchmark (example row: replace it).",
            "precision": "int8",
            "sparsity": "dense",
            "entity_name": "My NPU",
            "entity_kind": "accelerator",
            "segment": "edge",
            "groups": "edge-accelerators",
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
