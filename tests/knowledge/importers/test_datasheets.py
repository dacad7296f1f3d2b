"""selector.knowledge.importers.datasheets: the vendors' edge-module datasheets -> dense reference claims,
re-readable."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from selector.knowledge import importers
from selector.knowledge.locators import Snapshots, convert
from tests.conftest import KNOWLEDGE

DATASET = "vendor-datasheets"
RAW = KNOWLEDGE / "imports" / "raw" / DATASET / "datasheets.csv"


@pytest.fixture(scope="module")
def imported() -> importers.Imported:
    return importers.run(DATASET, importers.bundled_raws(DATASET, KNOWLEDGE), KNOWLEDGE)[1]


def by_id(imported: importers.Imported) -> dict[str, dict]:
    return {c["id"]: c for c in imported.claims}


def test_nvidia_sparse_ratings_become_dense_and_share_a_basis_with_hailo_and_coral(imported) -> None:
    claims = by_id(imported)
    # NVIDIA: 275 TOPS with 2:4 sparsity is 137.5 dense, the figure the AGX Orin datasheet lists as dense.
    orin = claims["datasheet-jetson-orin-int8"]
    assert orin["value"] == 137.5 and orin["locator"]["conversion"] == "sparse_to_dense"
    assert claims["datasheet-jetson-orin-nano-super-int8"]["value"] == 33.5
    # Hailo and the Edge TPU have no sparsity: their rating is the dense peak as it stands.
    assert (
        claims["datasheet-hailo-8-int8"]["value"] == 26
        and claims["datasheet-hailo-8-int8"]["locator"]["conversion"] == "none"
    )
    assert claims["datasheet-edge-tpu-int8"]["value"] == 4
    conditions = {tuple(sorted(c["conditions"].items())) for c in imported.claims if c["metric"] == "tops_int8"}
    assert conditions == {
        (("precision", "int8"), ("scenario", "edge"), ("scope", "module"), ("sparsity", "dense")),
        # a laptop processor's NPU block on its own (issue 32's laptop NPUs), never in the modules' column
        (("precision", "int8"), ("scenario", "client"), ("scope", "npu-block"), ("sparsity", "dense")),
    }


def test_laptop_npus_get_their_makers_npu_rating_not_the_processors_overall_tops(imported) -> None:
    claims = by_id(imported)
    npu = {c["about"][0]: c["value"] for c in imported.claims if c["id"].endswith("-npu-int8")}
    assert npu == {"amd-xdna": 16, "amd-ryzen-ai-300": 50, "intel-core-ultra-200v": 48, "snapdragon-x-elite": 45}
    # AMD's page gives both: the NPU's 50 TOPS is imported, the processor's overall 80 is not
    hx370 = claims["datasheet-amd-ryzen-ai-300-npu-int8"]
    assert "Overall TOPS: Up to 80" in hx370["text_en"] and hx370["value"] == 50
    assert hx370["locator"]["column"] == "NPU INT8 TOPS (dense)"


def test_a_figure_the_page_does_not_give_is_left_out_not_guessed(imported) -> None:
    claims = by_id(imported)
    assert "datasheet-hailo-8l-power" not in claims  # Hailo's page gave no power figure the maintainers confirmed
    assert "datasheet-hailo-10h-int8" not in claims  # rated in INT4 only
    assert "datasheet-jetson-agx-thor-int8" not in claims  # rated in FP4 only
    assert claims["datasheet-jetson-agx-thor-memory"]["value"] == 128


def test_each_claim_quotes_its_page_and_rereads_from_the_raw_table(imported) -> None:
    snapshots = Snapshots(KNOWLEDGE)
    for claim in imported.claims:
        where = claim["locator"]
        row = snapshots.row(where["file"], where["row"], ("Product",))
        assert convert(row, where["column"], where["conversion"], "here") == claim["value"], claim["id"]
        assert row["Page"] in claim["text_en"] and "recorded 2026-12-02" in claim["text_en"]
    price = by_id(imported)["datasheet-jetson-orin-nano-super-price"]
    assert price["value"] == 249 and "Developer Kit" in price["text_en"]  # the price says its basis


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ((",275,,60,", ",275,137.5,60,"), "gives both"),
        (('Up to 80",,,,,,,50', 'Up to 80",,50,,,,,50'), r"gives both `INT8 TOPS \(dense\)` and `NPU INT8"),
        (("https://hailo.ai/products/ai-accelerators/hailo-8-ai-accelerator/", ""), "lacks Page"),
        ((",26,2.5,", ",26 TOPS,2.5,"), "row 9: `26 TOPS` is not a number"),
    ],
)
def test_a_broken_row_is_refused_naming_it_and_nothing_is_written(tmp_path: Path, edit, message) -> None:
    text = RAW.read_text(encoding="utf-8")
    assert edit[0] in text
    knowledge_copy = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, knowledge_copy)
    target = knowledge_copy / "imports" / "raw" / DATASET / "datasheets.csv"
    target.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    before = (knowledge_copy / importers.OUTPUTS[DATASET]).read_bytes()
    with pytest.raises(importers.ImportFailure, match=message):
        importers.run(DATASET, [target], knowledge_copy)
    assert (knowledge_copy / importers.OUTPUTS[DATASET]).read_bytes() == before
