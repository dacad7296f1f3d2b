"""AccelMark results -> ``benchmarked`` single-accelerator LLM serving throughput, and ``reference`` cloud prices.

Two suites are imported, both run on one accelerator: suite A (Meta-Llama-3-8B-Instruct) and suite F
(Qwen2.5-0.5B-Instruct), offline throughput per chip at the suite's highest client concurrency. AccelMark's own
tier (``verified``: reproduced within 5 %; ``community``: not yet reproduced) is kept in each locator and text.
The per-chip figure is AccelMark's own field, not derived here. ``schema/cloud_pricing.json`` gives on-demand
prices per accelerator-hour; those AccelMark marks as estimated are imported with a flag.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selector.importers import Alias, Imported, ImportFailure, load_table, locator, value
from selector.locators import ENTRY_KEY, RawError, lookup, read_table

DATASET = "accelmark"
# suite -> the client concurrency whose offline throughput is imported (the highest each suite runs)
SUITES = {"suite_A": 128, "suite_F": 64}
TIERS = ("verified", "community")
METRIC = "tokens_per_s_per_chip"
MEMORY_METRIC = "device_memory_gb"
MEMORY_COLUMN = "chip.memory_gb"
PRICE_METRIC = "cloud_usd_per_gpu_hour"
PRICE_COLUMN = "reference_price_usd_per_hr"


def column(suite: str) -> str:
    """The raw field of a result file holding the imported throughput."""
    return (
        f"metrics.offline.results_by_concurrency[client_concurrency={SUITES[suite]}].throughput_tokens_per_sec_per_chip"
    )


def conditions(suite: str, model: str, precision: str) -> dict[str, str]:
    """The claim conditions of one suite (the criteria use the same, so suites and precisions never mix)."""
    return {
        "workload": f"AccelMark {suite}: {model}",
        "precision": precision,
        "scenario": f"offline, {SUITES[suite]} concurrent requests",
        "scope": "single accelerator",
    }


def _field(row: Mapping, name: str, where: str) -> Any:  # noqa: ANN401
    try:
        return lookup(row, name, where)
    except RawError as exc:
        raise ImportFailure(str(exc)) from None


def build(raws: Sequence[Path], knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias]) -> Imported:  # noqa: ANN401
    """Claims from AccelMark ``result.json`` files and ``cloud_pricing.json``.

    Raises
    ------
    ImportFailure
        On a result file outside ``results/<verified|community>/<folder>/``, a missing field, a non-numeric
        throughput or price, or two results of one folder.
    """
    imported = Imported()
    results, prices = [], []
    for raw in raws:
        (prices if raw.name == "cloud_pricing.json" else results).append(raw)
    upstream_results = next(u for u in dataset.upstream if u.endswith(":results"))
    upstream_prices = next(u for u in dataset.upstream if u.endswith("cloud_pricing.json"))
    found = []
    seen: dict[str, str] = {}
    for raw in results:
        table, file = load_table(raw, knowledge_dir)
        parts = file.split("/")
        if len(parts) != 5 or parts[1] != "results" or parts[2] not in TIERS or parts[4] != "result.json":
            raise ImportFailure(f"{table.path}: expected accelmark/results/<verified|community>/<run>/result.json")
        folder, tier = parts[3], parts[2]
        if folder in seen:
            raise ImportFailure(f"{table.path}: duplicate run folder {folder!r} (first {seen[folder]})")
        seen[folder] = table.path
        row = table.rows[0]
        where = f"{table.path}, {table.positions[0]}"
        suite = str(_field(row, "suite_id", where))
        if suite not in SUITES:
            continue
        name = str(_field(row, "chip.name", where)).strip()
        entity = imported.entity(aliases, name)
        if entity is None:
            continue
        count = value(row, "chip.count", "none", table, table.positions[0])
        if count != 1:
            raise ImportFailure(f"{where}: {suite} runs on one accelerator, `chip.count` is {count:g}")
        number = value(row, column(suite), "none", table, table.positions[0])
        model = str(_field(row, "model.model_id", where))
        precision = str(_field(row, "model.precision", where))
        framework = str(_field(row, "software.framework", where))
        memory = value(row, MEMORY_COLUMN, "none", table, table.positions[0])
        found.append((entity, suite, folder, tier, file, name, model, precision, framework, number, memory))
    for entity, suite, folder, tier, file, name, model, precision, framework, number, memory in sorted(found):
        run = folder.rsplit("_", 1)[-1]
        imported.claims.append(
            {
                "id": f"accelmark-{entity}-{suite.replace('_', '-').lower()}-{run}",
                "source": DATASET,
                "tier": "benchmarked",
                "kind": "benchmark",
                "text_en": (
                    f"AccelMark {suite} ({model}, {precision}, {framework}) on one {name}: {number:,.2f} output "
                    f"tokens/s offline at {SUITES[suite]} concurrent requests; AccelMark tier {tier}."
                ),
                "about": [entity],
                "metric": METRIC,
                "value": number,
                "unit": "tokens/s per chip",
                "conditions": conditions(suite, model, precision),
                "locator": locator(
                    dataset,
                    upstream_results,
                    file,
                    folder,
                    column(suite),
                    "none",
                    result_id=folder,
                    round=suite,
                    verification=tier,
                ),
            }
        )
        imported.claims.append(
            {
                "id": f"accelmark-{entity}-memory-{run}",
                "source": DATASET,
                "tier": "benchmarked",
                "kind": "spec",
                "text_en": (
                    f"AccelMark {suite} run {run} on one {name}: {memory:g} GB of device memory as the run "
                    f"reported it (usable memory, below the datasheet figure); AccelMark tier {tier}."
                ),
                "about": [entity],
                "metric": MEMORY_METRIC,
                "value": memory,
                "unit": "GB",
                "conditions": {"scope": "device memory reported by the AccelMark run"},
                "locator": locator(
                    dataset,
                    upstream_results,
                    file,
                    folder,
                    MEMORY_COLUMN,
                    "none",
                    result_id=folder,
                    round=suite,
                    verification=tier,
                ),
            }
        )
    for raw in prices:
        imported.claims.extend(_prices(raw, knowledge_dir, dataset, aliases, upstream_prices, imported))
    return imported


def _prices(
    raw: Path, knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias], upstream: str, imported: Imported
) -> list[dict]:  # noqa: ANN401
    _, file = load_table(raw, knowledge_dir)
    try:
        table = read_table(raw, str(raw), key_of_entries=True)
    except RawError as exc:
        raise ImportFailure(str(exc)) from None
    claims = []
    for row, position in sorted(zip(table.rows, table.positions, strict=True), key=lambda r: r[0][ENTRY_KEY]):
        name = row[ENTRY_KEY]
        if name.startswith("_"):
            continue  # `_meta`: the file's notes, not a price
        entity = imported.entity(aliases, name)
        if entity is None:
            continue
        price = value(row, PRICE_COLUMN, "none", table, position)
        estimated = row.get("estimated") is True
        claim = {
            "id": f"accelmark-price-{entity}",
            "source": DATASET,
            "tier": "reference",
            "kind": "market",
            "text_en": (
                f"{name}: USD {price:g} per accelerator-hour on demand (AccelMark cloud_pricing.json, lowest "
                f"verified on-demand price across providers{', estimated' if estimated else ''}, April 2026)."
            ),
            "about": [entity],
            "metric": PRICE_METRIC,
            "value": price,
            "unit": "USD per GPU-hour",
            "locator": locator(dataset, upstream, file, name, PRICE_COLUMN, "none"),
        }
        if estimated:
            claim["flags"] = [
                {
                    "kind": "unverifiable",
                    "reason": "AccelMark marks this price as estimated from announcements or regional listings.",
                }
            ]
        claims.append(claim)
    return claims
