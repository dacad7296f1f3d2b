"""selector.knowledge.importers.audit_flags: the audit's flags reach the imported claims, and a stale or bad line
stops."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from selector.knowledge import importers
from selector.knowledge.importers import audit_flags
from tests.conftest import KNOWLEDGE

HEADER = "dataset,row,column,kind,reason,reference\n"


def scratch(tmp_path: Path, flags: str) -> Path:
    """A copy of the knowledge directory with `flags` as its audit table."""
    root = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, root)
    (root / audit_flags.FLAGS_FILE).write_text(HEADER + flags, encoding="utf-8")
    return root


def run(root: Path, dataset: str) -> dict[str, dict]:
    _, imported = importers.run(dataset, importers.bundled_raws(dataset, root), root)
    return {c["id"]: c for c in imported.claims}


def test_every_bundled_flag_is_on_the_claims_it_names() -> None:
    table = audit_flags.read(KNOWLEDGE / audit_flags.FLAGS_FILE)
    assert len(table) >= 5
    for dataset in {f.dataset for f in table}:
        claims = run(KNOWLEDGE, dataset)
        for flag in (f for f in table if f.dataset == dataset):
            hits = [c for c in claims.values() if flag.matches(c["locator"])]
            assert hits and all(flag.as_flag() in c["flags"] for c in hits), flag


def test_the_audit_problems_are_flagged_with_their_reason() -> None:
    epoch = run(KNOWLEDGE, "epoch-ml-hardware")
    assert "1,835" in epoch["epoch-gaudi3-bf16"]["flags"][0]["reason"]
    assert {f["kind"] for f in epoch["epoch-ascend-910b-memory"]["flags"]} == {"inconsistent"}
    assert "flags" not in epoch["epoch-ascend-910b2-memory"]  # the consistent 64 GB row is not flagged
    accelmark = run(KNOWLEDGE, "accelmark")
    ascend = [c for c in accelmark.values() if c["about"][0] == "ascend-910"]
    assert ascend and all("910C" in c["flags"][-1]["reason"] for c in ascend)
    assert "hyperscaler" in accelmark["accelmark-price-mi300x"]["flags"][-1]["reason"]


def test_a_column_wildcard_flags_every_claim_of_the_row(tmp_path: Path) -> None:
    root = scratch(tmp_path, "epoch-ml-hardware,NVIDIA L4,*,ambiguous,test reason,\n")
    claims = run(root, "epoch-ml-hardware").values()
    flagged = {c["id"] for c in claims if c.get("flags")}
    assert flagged == {c["id"] for c in claims if c["about"] == ["l4"]} and len(flagged) >= 4


def test_a_line_matching_no_claim_stops_the_import(tmp_path: Path) -> None:
    root = scratch(tmp_path, "epoch-ml-hardware,NVIDIA Nonexistent,TDP (W),ambiguous,test reason,\n")
    with pytest.raises(importers.ImportFailure, match=r"audit_flags.csv, row 2: no imported epoch-ml-hardware"):
        run(root, "epoch-ml-hardware")


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("epoch-ml-hardware,NVIDIA L4,TDP (W),wrong_kind,why,\n", "row 2: unknown flag kind `wrong_kind`"),
        ("epoch-ml-hardware,NVIDIA L4,TDP (W),ambiguous,,\n", "row 2: `reason` must not be empty"),
    ],
)
def test_a_bad_line_is_refused_naming_file_and_row(tmp_path: Path, line: str, fragment: str) -> None:
    path = tmp_path / "flags.csv"
    path.write_text(HEADER + line, encoding="utf-8")
    with pytest.raises(importers.ImportFailure, match=fragment):
        audit_flags.read(path)


def test_without_a_table_nothing_is_flagged(tmp_path: Path) -> None:
    assert audit_flags.read(tmp_path / "absent.csv") == []
