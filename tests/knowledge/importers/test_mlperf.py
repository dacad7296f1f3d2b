"""selector.knowledge.importers.mlperf: a -99.9 result repeating the -99 run counts once; hypervisor-named systems stay
out."""

from __future__ import annotations

import json

import pytest

from selector.knowledge import importers
from tests.conftest import KNOWLEDGE

DATASET = "mlperf-inference-v5.1"
RAW = KNOWLEDGE / "imports" / "raw" / DATASET / "summary_results.json"


@pytest.fixture(scope="module")
def imported() -> importers.Imported:
    return importers.run(DATASET, importers.bundled_raws(DATASET, KNOWLEDGE), KNOWLEDGE)[1]


def test_a_strict_result_equal_to_the_systems_loose_one_is_counted_once(imported) -> None:
    rows = {r["Location"]: r for r in json.loads(RAW.read_text(encoding="utf-8"))}
    loose = {
        (
            c["locator"]["row"].rsplit("/", 2)[0],
            c["conditions"]["scenario"],
            rows[c["locator"]["row"]]["Performance_Result"],
        )
        for c in imported.claims
        if c["conditions"]["workload"] == "llama2-70b-99"
    }
    strict = [c for c in imported.claims if c["conditions"]["workload"] == "llama2-70b-99.9"]
    assert strict  # distinct -99.9 runs stay
    for claim in strict:
        row = rows[claim["locator"]["row"]]
        assert (claim["locator"]["row"].rsplit("/", 2)[0], row["Scenario"], row["Performance_Result"]) not in loose
    note = imported.excluded["llama2-70b-99.9 results equal to the system's llama2-70b-99 result"]
    repeated, total = (int(n) for n in note.split(":", 1)[0].split(" of "))
    assert repeated == total - len(strict) and repeated > len(strict)


def test_every_system_naming_a_hypervisor_is_left_out(imported) -> None:
    rows = {r["Location"]: r for r in json.loads(RAW.read_text(encoding="utf-8"))}
    for claim in imported.claims:
        row = rows[claim["locator"]["row"]]
        text = " ".join(str(row[f]) for f in ("Accelerator", "System", "Notes", "operating_system")).lower()
        assert "vmware" not in text and "esxi" not in text and "virtualized" not in text, claim["id"]
    virtual = [name for name, why in imported.excluded.items() if why.startswith("virtualised system")]
    assert any("Broadcom_Supermicro" in name for name in virtual)  # a B200 under ESXi, not only the H200
    assert any("Dell_Broadcom" in name for name in virtual)
