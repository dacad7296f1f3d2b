"""selector.knowledge.importers.accelmark: device memory converted from GiB, prices stated with their basis, engines
named."""

from __future__ import annotations

import pytest

from selector.knowledge import importers
from tests.conftest import KNOWLEDGE

DATASET = "accelmark"


@pytest.fixture(scope="module")
def claims() -> dict[str, dict]:
    imported = importers.run(DATASET, importers.bundled_raws(DATASET, KNOWLEDGE), KNOWLEDGE)[1]
    return {c["id"]: c for c in imported.claims}


def test_device_memory_is_converted_from_gib(claims) -> None:
    h200 = [c for c in claims.values() if c["metric"] == "device_memory_gb" and c["subject"] == "h200"]
    assert h200 and all(c["value"] == round(140.4 * 2**30 / 1e9, 6) for c in h200)
    # An H200's 141 GB datasheet figure no longer exceeds what its run reports, so `>= 141` keeps it.
    assert all(c["value"] >= 141 and c["locator"]["conversion"] == "gib_to_gb" for c in h200)


def test_every_price_states_one_date_basis_and_its_provider_class(claims) -> None:
    prices = [c for c in claims.values() if c["metric"] == "cloud_usd_per_gpu_hour"]
    assert {c["conditions"]["version"] for c in prices} == {"AccelMark cloud prices 2026-04"}
    assert claims["accelmark-price-h100"]["conditions"]["scope"] == "on demand, neocloud"
    assert claims["accelmark-price-mi300x"]["conditions"]["scope"] == "on demand, hyperscaler"
    assert claims["accelmark-price-ascend-910b2"]["conditions"]["scope"] == "on demand, China-market cloud"


def test_the_engine_is_named_beside_the_chip(claims) -> None:
    runs = [c for c in claims.values() if c["metric"] == "tokens_per_s_per_chip"]
    assert {c["about"][1] for c in runs if len(c["about"]) > 1} >= {"vllm", "mlx"}
    assert all(c["subject"] == c["about"][0] for c in runs)
    (m1,) = [c for c in runs if c["subject"] == "apple-m1"]
    assert m1["about"] == ["apple-m1", "mlx"] and "mlx-lm" in m1["text_en"]
