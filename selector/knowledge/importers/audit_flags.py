"""The audit's flags on imported numbers: rows of a raw snapshot that are right as upstream wrote them but misleading.

``knowledge/imports/audit_flags.csv`` names a dataset, a raw row key and column (``*``: every column of the row)
and the flag every claim read from there carries (kind, reason, public reference). The importers add the flags
when they write an import, so a regenerated import keeps them and a refreshed snapshot cannot drop them silently:
a line that no longer matches any imported claim stops the import. ``docs/AUDIT.md`` explains each line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from selector.knowledge.importers import ImportFailure, read_own_table
from selector.knowledge.models import FlagKind

FLAGS_FILE = "imports/audit_flags.csv"
COLUMNS = ("dataset", "row", "column", "kind", "reason", "reference")
ANY_COLUMN = "*"


@dataclass(frozen=True)
class AuditFlag:
    """One line of the table: the claims read from (dataset, row, column) carry this flag."""

    dataset: str
    row: str
    column: str
    kind: str
    reason: str
    reference: str
    line: int

    def matches(self, locator: dict) -> bool:
        """Whether a claim with this locator was read from the flagged row and column."""
        return (
            locator.get("dataset") == self.dataset
            and locator.get("row") == self.row
            and self.column in (ANY_COLUMN, locator.get("column"))
        )

    def as_flag(self) -> dict:
        flag = {"kind": self.kind, "reason": self.reason}
        if self.reference:
            flag["reference"] = self.reference
        return flag


def read(path: Path) -> list[AuditFlag]:
    """The flags of the table at `path` (none when the file does not exist).

    Raises
    ------
    ImportFailure
        Naming the file and line of a missing column, an empty field or an unknown flag kind.
    """
    if not path.exists():
        return []
    reader = read_own_table(path, COLUMNS, "the audit flags")
    kinds = get_args(FlagKind)
    flags = []
    for row in reader:
        values = {c: str(row[c] or "").strip() for c in COLUMNS}
        empty = [c for c in COLUMNS[:5] if not values[c]]
        if empty:
            raise ImportFailure(f"{path}, row {reader.line_num}: `{'`, `'.join(empty)}` must not be empty")
        if values["kind"] not in kinds:
            raise ImportFailure(
                f"{path}, row {reader.line_num}: unknown flag kind `{values['kind']}` (known: {', '.join(kinds)})"
            )
        flags.append(AuditFlag(**values, line=reader.line_num))
    return flags


def apply(dataset: str, claims: Sequence[dict], flags: Sequence[AuditFlag], path: Path) -> None:
    """Add each of `dataset`'s flags to the claims read from its row and column, in the table's order.

    Raises
    ------
    ImportFailure
        When a line of the table matches no claim of the import (a stale flag must be removed on purpose).
    """
    for flag in (f for f in flags if f.dataset == dataset):
        hits = [c for c in claims if flag.matches(c.get("locator") or {})]
        if not hits:
            raise ImportFailure(
                f"{path}, row {flag.line}: no imported {dataset} claim is read from row {flag.row!r}, column "
                f"`{flag.column}`; remove or correct the flag"
            )
        for claim in hits:
            claim.setdefault("flags", []).append(flag.as_flag())
