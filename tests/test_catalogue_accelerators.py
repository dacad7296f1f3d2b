"""The accelerator catalogue of issue 32: each family ranks in its group on sourced cells, its facts are sourced,
and the accelerator groups meet the evidence targets that `validate` prints."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from selector.__main__ import main
from selector.decision import matrix
from selector.decision.preferences import Preferences
from selector.knowledge import facts
from selector.knowledge.loading import bundled

JETSON_ORIN = [
    "jetson-orin",  # the AGX Orin 64GB: article 004's "Jetson Orin"
    "jetson-agx-orin-32gb",
    "jetson-orin-nx-16gb",
    "jetson-orin-nx-8gb",
    "jetson-orin-nano-super",
    "jetson-orin-nano-8gb",
]
HAILO_RANKED = ["hailo-8", "hailo-8l"]
DATACENTER_2025_26 = ["b300", "gb300", "mi355x", "tpu-v7", "trainium2"]
CHINESE_DATACENTER = ["ascend-910c", "cambricon-mlu370-x8", "cambricon-mlu590", "kunlunxin-p800", "hygon-dcu-k100"]
# Issue 32's targets for every group that holds the articles' entities: weight on assessed and on filled-in cells.
MAX_ASSESSED, MAX_FILLED_IN = 0.40, 0.05


@pytest.fixture(scope="module")
def kb():
    return bundled()


def cells(kb, group: str) -> dict[str, dict[str, matrix.Cell]]:
    m = matrix.build(kb, Preferences(group=group))
    return {a: dict(zip(m.criteria, row, strict=True)) for a, row in zip(m.alternatives, m.cells, strict=True)}


def test_the_jetson_orin_family_ranks_in_edge_modules_on_datasheet_tops_watts_and_memory(kb) -> None:
    grid = cells(kb, "edge-accelerators")
    for member in JETSON_ORIN:
        row = grid[member]
        for criterion in ("tops-int8", "power-w", "module-memory-gb"):
            assert row[criterion].tier == "reference" and not row[criterion].imputed, (member, criterion)
    tops = {m: grid[m]["tops-int8"].value for m in JETSON_ORIN}
    # dense = half of NVIDIA's sparse rating: 275, 200, 100, 70, 67, 40 sparse TOPS
    assert tops == {
        "jetson-orin": 137.5,
        "jetson-agx-orin-32gb": 100,
        "jetson-orin-nx-16gb": 50,
        "jetson-orin-nx-8gb": 35,
        "jetson-orin-nano-super": 33.5,
        "jetson-orin-nano-8gb": 20,
    }
    # The Super mode is the same module allowed more power: more TOPS for more watts, the same 8 GB.
    assert grid["jetson-orin-nano-super"]["power-w"].value > grid["jetson-orin-nano-8gb"]["power-w"].value
    assert (
        grid["jetson-orin-nano-super"]["module-memory-gb"].value
        == grid["jetson-orin-nano-8gb"]["module-memory-gb"].value
    )
    # TOPS/W derived from the two datasheet cells: the AGX Orin 64GB's 137.5 TOPS at 60 W
    assert tops["jetson-orin"] / grid["jetson-orin"]["power-w"].value == pytest.approx(2.29, abs=0.01)


def test_the_article_claims_stay_on_the_module_the_article_means(kb) -> None:
    orin = kb.entities["jetson-orin"]
    assert "AGX Orin 64GB" in orin.name and "article 004" in orin.description_en
    assert {"c004-orin-tops", "c004-orin-power"} <= {c.id for c in kb.claims.values() if "jetson-orin" in c.about}
    # the article's 60 W agrees with the datasheet's top power mode; the datasheet (reference) fills the cell
    assert kb.claims["c004-orin-power"].value == kb.claims["datasheet-jetson-orin-power"].value == 60


def test_hailo_ranks_in_edge_modules_and_a_missing_figure_is_filled_in_and_said(kb) -> None:
    grid = cells(kb, "edge-accelerators")
    for member in HAILO_RANKED:
        assert grid[member]["tops-int8"].tier == "reference"
    assert grid["hailo-8"]["tops-int8"].value == 2 * grid["hailo-8l"]["tops-int8"].value == 26
    assert grid["hailo-8"]["module-memory-gb"].value == 0  # no DRAM: weights stay on chip
    assert grid["hailo-8l"]["power-w"].imputed  # not on the page the maintainers confirmed: filled in, marked
    assert "Hailo-8L" in kb.groups["edge-accelerators"].rationale_en


def test_coral_ranks_in_edge_modules_on_its_datasheet(kb) -> None:
    row = cells(kb, "edge-accelerators")["edge-tpu"]
    assert (row["tops-int8"].value, row["power-w"].value) == (4, 2)
    assert row["tops-int8"].tier == row["power-w"].tier == "reference"


def test_modules_rated_on_another_basis_are_listed_not_ranked_with_the_reason(kb) -> None:
    group = kb.groups["edge-accelerators"]
    for member, basis in (("jetson-agx-thor", "FP4"), ("hailo-10h", "INT4")):
        assert member in kb.entities and member not in group.members
        assert basis in kb.entities[member].description_en and basis in group.description_en


def test_the_2025_26_datacenter_parts_rank_on_datasheet_cells(kb) -> None:
    grid = cells(kb, "datacenter-accelerators")
    for member in DATACENTER_2025_26:
        for criterion in ("bf16-tflops", "memory-capacity", "memory-bandwidth", "joules-per-pflop-bf16"):
            assert grid[member][criterion].tier == "reference" and not grid[member][criterion].imputed, member
        assert member in kb.groups["accelerator-datasheets"].members


def test_the_chinese_datacenter_chips_have_sourced_facts(kb) -> None:
    for member in CHINESE_DATACENTER:
        entity = kb.entities[member]
        assert entity.form_factor == "datacenter" and entity.export_control.status == "domestic-cn", member
        assert facts.values(kb.entities, member, "vendor_jurisdiction") == ("CN",), member
        for claim_id in (*entity.fact_claims, *entity.export_control.claims):
            claim = kb.claims[claim_id]
            assert claim.kind == "fact" and member in claim.about
            assert kb.sources[claim.source].kind == "document"
    # Epoch AI's MLU370-X8 row is imported through the alias table
    assert kb.claims["epoch-cambricon-mlu370-x8-int8"].value == 256


def test_every_new_edge_module_has_its_facts_sourced(kb) -> None:
    for member in [*JETSON_ORIN[1:], "jetson-agx-thor", *HAILO_RANKED, "hailo-10h"]:
        entity = kb.entities[member]
        assert entity.segment == "edge" and entity.form_factor == "edge-module"
        assert entity.fact_claims and all(member in kb.claims[c].about for c in entity.fact_claims)
    assert kb.entities["hailo"].jurisdiction == "IL"


LAPTOP_NPUS = {"amd-xdna": 16, "amd-ryzen-ai-300": 50, "intel-core-ultra-200v": 48, "snapdragon-x-elite": 45}


def test_laptop_npus_rank_on_their_makers_npu_tops_and_the_article_keeps_its_xdna(kb) -> None:
    """client-npus keeps its id (links, profiles) and holds laptop NPUs only, each on a datasheet NPU cell."""
    group = kb.groups["client-npus"]
    assert set(group.members) == set(LAPTOP_NPUS)
    assert {kb.entities[m].form_factor for m in group.members} == {"laptop"}
    grid = cells(kb, "client-npus")
    for member, tops in LAPTOP_NPUS.items():
        cell = grid[member]["npu-tops-int8"]
        assert (cell.value, cell.tier, cell.imputed) == (tops, "reference", False), member
        assert all(kb.claims[c].source == "vendor-datasheets" for c in cell.evidence)
    # article 004's XDNA keeps its claims; its flagged TOPS/W is stored, not ranked
    assert any(c.source == "004" and "amd-xdna" in c.about for c in kb.claims.values())
    assert "efficiency-tops-per-w" not in matrix.build(kb, Preferences(group="client-npus")).criteria
    assert not any(row["npu-tops-int8"].flagged for row in grid.values())


def test_the_phone_npu_is_listed_not_ranked_and_says_why(kb) -> None:
    hexagon = kb.entities["qualcomm-hexagon"]
    assert hexagon.form_factor == "phone" and not any("qualcomm-hexagon" in g.members for g in kb.groups.values())
    assert "Listed, not ranked" in hexagon.description_en and "no NPU TOPS" in hexagon.description_en
    assert any(c.source in ("000", "004") and "qualcomm-hexagon" in c.about for c in kb.claims.values())
    assert "Phone NPUs are listed, not ranked" in kb.groups["client-npus"].description_en


@pytest.fixture(scope="module")
def printed_shares() -> dict[str, dict[str, float]]:
    """Per group, the weighted shares `python -m selector validate --format json` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["validate", "--format", "json"]) == 0
    return json.loads(out.getvalue())["cell_shares"]["weighted_per_group"]


ACCELERATOR_GROUPS = [
    "datacenter-accelerators",
    "edge-accelerators",
    pytest.param(
        "client-npus",
        marks=pytest.mark.xfail(
            strict=True,
            reason="split into laptop NPUs, which rank on their makers' NPU TOPS; model coverage, ecosystem, lock-in "
            "and roadmap risk have no public dataset, so our four ratings still carry 73 % of the weight (issue 32 "
            "report)",
        ),
    ),
    "llm-inference-accelerators",
    "llm-serving-single-accelerator",
    "image-generation-accelerators",
    "accelerator-datasheets",
    "small-llm-inference-accelerators",
]


@pytest.mark.parametrize("group", ACCELERATOR_GROUPS)
def test_validate_prints_shares_within_the_targets_for_each_accelerator_group(printed_shares, group) -> None:
    shares = printed_shares[group]
    assert shares.get("assessed", 0) <= MAX_ASSESSED, (group, shares)
    assert shares.get("imputed", 0) <= MAX_FILLED_IN, (group, shares)
