"""Shared by the tests of selector/uploads/: the upload fixtures, the hostile ones with the error each must
raise, and checking a fixture as the My data page does."""

from __future__ import annotations

from pathlib import Path

from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from selector.uploads import intake
from tests.conftest import FIXTURES, KNOWLEDGE

UPLOADS = FIXTURES / "uploads"
MARKER = b"expect-error"
EDGE = "edge-accelerators"
BUNDLED = knowledge.load()


def marked_lines(path: Path) -> list[int]:
    """The 1-based lines of `path` that carry the ``expect-error`` marker (a comment in YAML, a cell in CSV)."""
    return [n for n, line in enumerate(path.read_bytes().split(b"\n"), start=1) if MARKER in line]


def check(path: Path, others: tuple[Upload, ...] = ()) -> intake.UploadResult:
    return intake.validate_upload(path.name, path.read_bytes(), KNOWLEDGE, others=others)


def errors(result: intake.UploadResult) -> list:
    return [i for i in result.issues if i.level == "ERROR"]


# (fixture, a fragment one of the errors must contain)
HOSTILE = [
    ("alias_bomb.yaml", "more than 50 aliases"),
    ("deep_nesting.yaml", "nesting deeper than"),
    ("duplicate_keys.yaml", "duplicate key `value`"),
    ("yaml11_traps.yaml", "is read by YAML 1.1"),
    ("non_utf8.yaml", "not UTF-8"),
    ("non_utf8.csv", "not UTF-8"),
    ("nan_inf.yaml", "not a finite number"),
    ("nan_inf.csv", "finite number"),
    ("negative_tops.yaml", "`tops_int8` cannot be negative"),
    ("negative_tops.csv", "cannot be negative"),
    ("html_name.yaml", "plain text"),
    ("html_name.csv", "contains markup"),
    ("formula_cells.csv", "formula"),
    ("claimed_tier.yaml", "`claimed` is reserved for verbatim quotes"),
    ("claimed_tier.csv", "`claimed` is reserved for verbatim quotes"),
    ("rules_upload.yaml", "cannot be uploaded"),
    ("wrong_unit.csv", "unit `GOPS` is not a unit of metric `tops_int8`; allowed: `TOPS`"),
    ("override_mismatch.yaml", "an override must give the same metric for the same entity"),
]
GOOD = ["good_new_chip.yaml", "good_new_chip.csv", "good_orin_override.csv", "good_orin_power.csv"]
LIMIT_FIXTURES = FIXTURES / "limits"
