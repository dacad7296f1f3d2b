"""selector.knowledge.importers.fsdl: each price carries the day its row was last edited and its provider class; PCIe
offers
map to PCIe entities."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from selector.knowledge import importers
from tests.conftest import KNOWLEDGE

DATASET = "fsdl-cloud-gpus"
RAW = KNOWLEDGE / "imports" / "raw" / DATASET


@pytest.fixture(scope="module")
def claims() -> dict[str, dict]:
    imported = importers.run(DATASET, importers.bundled_raws(DATASET, KNOWLEDGE), KNOWLEDGE)[1]
    return {c["id"]: c for c in imported.claims}


def test_each_price_states_the_day_its_row_was_last_edited(claims) -> None:
    dates = {row["Row"]: row for row in csv.DictReader((RAW / "row-dates.csv").open(encoding="utf-8", newline=""))}
    with (RAW / "cloud-gpus.csv").open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        lines = {}
        for row in reader:
            lines[" | ".join(row[k].strip() for k in ("Cloud", "GPU Type", "GPUs", "Name")).strip()] = reader.line_num
    for claim in claims.values():
        dated = dates[str(lines[claim["locator"]["row"]])]
        assert f"last edited upstream on {dated['Last edited']}" in claim["text_en"], claim["id"]
        assert claim["conditions"]["version"] == f"FSDL price list, row edited {dated['Last edited']}"
    # The list was committed in 2025, but no imported price was edited after 2024.
    assert max(c["conditions"]["version"][-10:] for c in claims.values()) < "2025-01-01"


def test_the_provider_class_is_stated(claims) -> None:
    assert claims["fsdl-a100-aws-a100-80-gb"]["conditions"]["scope"] == "on demand, hyperscaler"
    assert claims["fsdl-a100-datacrunch-a100-80-gb"]["conditions"]["scope"] == "on demand, neocloud"


def test_pcie_offers_map_to_pcie_entities_and_the_sxm_part_keeps_its_own(claims) -> None:
    pcie = {c["locator"]["row"] for c in claims.values() if c["about"] == ["h100-pcie"]}
    assert pcie == {
        "Lambda | H100 (80 GB) | 1 |",
        "OVHcloud | H100 (80 GB) | 1 | h100-380",
        "NovoNimbus | H100 PCIe (80GB) | 1 |",
    }
    assert claims["fsdl-a100-pcie-azure-a100-80-gb"]["locator"]["row"].endswith("NC24ads A100 v4")
    # Azure's A100 SXM price is now its ND (SXM4) offer, not the cheaper NC (PCIe) one.
    assert claims["fsdl-a100-azure-a100-80-gb"]["value"] == 4.64
    assert not [c for c in claims.values() if c["about"] == ["h100"] and "Lambda" in c["locator"]["row"]]


def test_a_dates_table_that_does_not_match_the_prices_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, root)
    dates = root / "imports" / "raw" / DATASET / "row-dates.csv"
    lines = dates.read_text(encoding="utf-8").splitlines(keepends=True)
    dates.write_text("".join([*lines[:1], lines[2].replace("3,AWS", "2,AWS", 1), *lines[3:]]), encoding="utf-8")
    with pytest.raises(importers.ImportFailure, match=r"row-dates.csv, row 2: row 2 of .* is not the offer"):
        importers.run(DATASET, importers.bundled_raws(DATASET, root), root)
    dates.write_text("".join(lines[:1] + lines[2:]), encoding="utf-8")
    with pytest.raises(importers.ImportFailure, match=r"no date for .*cloud-gpus.csv row 2"):
        importers.run(DATASET, importers.bundled_raws(DATASET, root), root)
