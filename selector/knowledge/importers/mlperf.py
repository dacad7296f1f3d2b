"""MLPerf Inference results summary -> ``benchmarked`` per-accelerator throughput claims.

The slices imported: round v5.1, division closed, category datacenter, availability available, scenarios Offline
and Server, for llama2-70b-99, llama2-70b-99.9, llama3.1-8b (tokens/s) and stable-diffusion-xl (samples/s,
queries/s); each model and scenario is its own comparable slice. MLPerf results are per system; the
per-accelerator figure is derived (system result / (accelerators per node x nodes)) and labelled so wherever it
is shown. Systems that mix accelerator models are left out: a per-accelerator figure would blend two chips.
Systems that state they ran under a hypervisor (VMware ESXi, a "Virtualized" accelerator) are left out, all of
them, so that a virtualised result never meets a bare-metal one. A llama2-70b-99.9 result equal to the same
system's llama2-70b-99 result in the same scenario is one run submitted for both accuracy targets: it is counted
once, as the -99 result, and listed as left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selector.knowledge.importers import Alias, Imported, ImportFailure, load_table, locator, require_columns, value

DATASET = "mlperf-inference-v5.1"
ROUND = "v5.1"
# The slice imported; the criteria's conditions repeat it so that no other slice can meet these numbers.
SCOPE = {"version": ROUND, "Category": "closed", "Suite": "datacenter", "Availability": "available"}
_TOKENS = ("Tokens/s", "tokens_per_s_per_accelerator", "tokens/s per accelerator (derived)", "tokens/s")
# model -> scenario -> (its upstream unit, the metric stored, the unit stored, the unit in words)
MODELS = {
    "llama2-70b-99": {"Offline": _TOKENS, "Server": _TOKENS},
    "llama2-70b-99.9": {"Offline": _TOKENS, "Server": _TOKENS},
    "llama3.1-8b": {"Offline": _TOKENS, "Server": _TOKENS},
    "stable-diffusion-xl": {
        "Offline": ("Samples/s", "samples_per_s_per_accelerator", "samples/s per accelerator (derived)", "samples/s"),
        "Server": ("Queries/s", "queries_per_s_per_accelerator", "queries/s per accelerator (derived)", "queries/s"),
    },
}
COLUMNS = (
    "ID",
    "Submitter",
    "System",
    "Location",
    "Accelerator",
    "a#",
    "Nodes",
    "Model",
    "Scenario",
    "Category",
    "Suite",
    "Availability",
    "version",
    "Performance_Result",
    "Performance_Units",
)
# "AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)": several accelerator models.
_MIXED = re.compile(r"\(x\d+\)")
# A hypervisor named in the fields a submitter describes the system with.
_VIRTUAL = re.compile(r"virtuali[sz]ed|vmware|\besxi\b|vsphere|hyper-v|\bkvm\b", re.IGNORECASE)
VIRTUAL_FIELDS = ("Accelerator", "System", "Notes", "operating_system")
STRICT, LOOSE = "llama2-70b-99.9", "llama2-70b-99"


def conditions(model: str, scenario: str) -> dict[str, str]:
    """The claim conditions of one model and scenario of the slice (the criteria use the same)."""
    return {
        "workload": model,
        "scenario": scenario,
        "version": f"MLPerf Inference {ROUND}",
        "scope": "closed division, datacenter category, available systems",
    }


def build(raws: Sequence[Path], knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias]) -> Imported:  # noqa: ANN401
    """Claims from ``summary_results.json`` (exactly one raw file).

    Raises
    ------
    ImportFailure
        On a missing column, a non-numeric result, a unit other than the model's in the slice, or a duplicate
        result location.
    """
    if len(raws) != 1:
        raise ImportFailure(f"{DATASET} takes one raw file (summary_results.json), got {len(raws)}")
    table, file = load_table(raws[0], knowledge_dir)
    require_columns(table, COLUMNS)
    upstream = dataset.upstream[0]
    imported = Imported()
    seen: dict[str, str] = {}
    found = []
    for row, position in zip(table.rows, table.positions, strict=True):
        location = str(row["Location"]).strip()
        if location in seen:
            raise ImportFailure(
                f"{table.path}, {position}: duplicate `Location` {location!r} (first at {seen[location]})"
            )
        seen[location] = position
        model = row["Model"]
        if any(str(row[k]) != v for k, v in SCOPE.items()) or row["Scenario"] not in MODELS.get(model, {}):
            continue
        unit = MODELS[model][row["Scenario"]][0]
        if row["Performance_Units"] != unit:
            raise ImportFailure(
                f"{table.path}, {position}: unknown unit {row['Performance_Units']!r} for {model} (expected {unit!r})"
            )
        entity = _accelerator(row, imported, aliases)
        if entity is None:
            continue
        number = value(row, "Performance_Result", "per_accelerator", table, position)
        system = value(row, "Performance_Result", "none", table, position)
        found.append((entity, model, row["Scenario"], str(row["ID"]), location, row, number, system))
    found = _count_once(found, imported)
    for entity, model, scenario, result_id, location, row, number, system in sorted(found, key=lambda f: f[:5]):
        result_locator = locator(
            dataset,
            upstream,
            file,
            location,
            "Performance_Result",
            "per_accelerator",
            derived=True,
            result_id=result_id,
            round=ROUND,
            division=row["Category"],
            category=row["Suite"],
            availability=row["Availability"],
        )
        claim_id = f"mlperf-{entity}-{_short(model)}-{scenario.lower()}-{result_id.lower()}-{_slug(location)}"
        imported.claims.append(_claim(claim_id, entity, row, number, system, result_locator))
    return imported


def _accelerator(row: Mapping, imported: Imported, aliases: Mapping[str, Alias]) -> str | None:
    """The entity of the row's accelerator, or None after recording why it is not imported."""
    name = str(row["Accelerator"]).strip()
    if not name:
        imported.excluded["(no accelerator named)"] = "a CPU-only system: no per-accelerator figure"
        return None
    if _MIXED.search(name):
        imported.excluded[name] = "system mixes accelerator models: no per-accelerator figure"
        return None
    if any(_VIRTUAL.search(str(row.get(field) or "")) for field in VIRTUAL_FIELDS):
        imported.excluded[f"{str(row['System']).strip()} ({row['Submitter']}, {name})"] = (
            "virtualised system (a hypervisor is named in its accelerator, system, notes or OS fields): kept apart "
            "from bare-metal results"
        )
        return None
    return imported.entity(aliases, name)


def _count_once(found: list[tuple], imported: Imported) -> list[tuple]:
    """`found` without the llama2-70b-99.9 results that repeat the same system's -99 result in the same scenario."""

    def run(location: str, scenario: str, system: float) -> tuple:
        return location.rsplit("/", 2)[0], scenario, system

    loose = {run(f[4], f[2], f[7]) for f in found if f[1] == LOOSE}
    kept = [f for f in found if f[1] != STRICT or run(f[4], f[2], f[7]) not in loose]
    repeated = len(found) - len(kept)
    if repeated:
        imported.excluded[f"{STRICT} results equal to the system's {LOOSE} result"] = (
            f"{repeated} of {sum(1 for f in found if f[1] == STRICT)}: one run submitted for both accuracy targets, "
            f"counted once (as {LOOSE})"
        )
    return kept


def _claim(claim_id: str, entity: str, row: Mapping, number: float, system: float, result_locator: dict) -> dict:
    """The claim of one result: the derived per-accelerator figure, with the system's result in its text."""
    model, scenario, result_id = row["Model"], row["Scenario"], str(row["ID"])
    count = int(float(row["a#"]) * float(row["Nodes"]))
    _, metric, stored_unit, words = MODELS[model][scenario]
    return {
        "id": claim_id,
        "source": DATASET,
        "tier": "benchmarked",
        "kind": "benchmark",
        "text_en": (
            f"MLPerf Inference {ROUND} result {result_id} ({row['Submitter']}, {row['System']}): "
            f"{model} {scenario}, {system:,.6g} {words} on {count} x {row['Accelerator']}; "
            f"derived per accelerator: {number:,.2f} {words} (not an MLPerf result)."
        ),
        "about": [entity],
        "metric": metric,
        "value": number,
        "unit": stored_unit,
        "conditions": conditions(model, scenario),
        "locator": result_locator,
    }


def _short(model: str) -> str:
    return {"llama2-70b-99": "l70", "llama2-70b-99.9": "l70-999", "llama3.1-8b": "l8", "stable-diffusion-xl": "sdxl"}[
        model
    ]


def _slug(location: str) -> str:
    # Result IDs repeat across a submitter's systems; the system folder makes the claim id unique and readable.
    system = location.split("/results/", 1)[-1].split("/", 1)[0]
    return re.sub(r"[^a-z0-9]+", "-", system.lower()).strip("-")[:30].strip("-")
