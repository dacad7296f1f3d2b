"""AccelMark results -> ``benchmarked`` single-accelerator LLM serving throughput, and ``reference`` cloud prices.

Two suites are imported, both run on one accelerator: suite A (Meta-Llama-3-8B-Instruct) and suite F
(Qwen2.5-0.5B-Instruct), offline throughput per chip at the suite's highest client concurrency. AccelMark's own
tier (``verified``: reproduced within 5 %; ``community``: not yet reproduced) is kept in each locator and text.
The per-chip figure is AccelMark's own field, not derived here. The engine a run used (vLLM, SGLang, mlx-lm) is
named in the claim's ``about`` when the alias table maps it (the chip stays the subject). The device memory a run
reports (``chip.memory_gb``) is binary GiB as the drivers report it (nvidia-smi's MiB / 1024: an H200 shows
140.4), so it is converted to GB. ``schema/cloud_pricing.json`` gives on-demand prices per accelerator-hour,
each stated with its basis: the April 2026 list and the provider class its reference price comes from
(neocloud, hyperscaler, or China-market cloud); those AccelMark marks as estimated are imported with a flag.

The online scenario of a run (Poisson arrivals at each of the suite's request rates) is imported as three claims per
rate sharing one condition set: the achieved requests/s, and the p99 time to first token and time per output token
measured at it. A workload's latency limits pick the best rate whose p99 latencies meet them
(``selector.decision.latency_bound``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from selector.knowledge.importers import Alias, Imported, ImportFailure, load_table, locator, value
from selector.knowledge.locators import ENTRY_KEY, RawError, lookup, read_table

DATASET = "accelmark"
# suite -> the client concurrency whose offline throughput is imported (the highest each suite runs)
SUITES = {"suite_A": 128, "suite_F": 64}
TIERS = ("verified", "community")
METRIC = "tokens_per_s_per_chip"
MEMORY_METRIC = "device_memory_gb"
MEMORY_COLUMN = "chip.memory_gb"
MEMORY_CONVERSION = "gib_to_gb"
ONLINE_ROWS = "metrics.online.results_by_qps"
# field of an online row -> (metric, unit, what the claim text calls it)
ONLINE_FIELDS = {
    "achieved_qps": ("queries_per_second", "queries/s", "requests/s achieved"),
    "ttft_ms_p99": ("ttft_p99_ms", "ms", "ms p99 time to first token"),
    "tpot_ms_p99": ("tpot_p99_ms", "ms", "ms p99 time per output token"),
}
PRICE_METRIC = "cloud_usd_per_gpu_hour"
PRICE_COLUMN = "reference_price_usd_per_hr"
# The price basis every AccelMark price shares (the criteria that must not mix bases ask for it).
PRICE_VERSION = "AccelMark cloud prices 2026-04"
# Provider name prefixes -> class: hyperscalers rent at list prices several times a neocloud's.
_HYPERSCALERS = ("AWS", "GCP", "Azure", "Oracle", "Google")
_CHINA_CLOUDS = ("阿里云", "腾讯云", "华为云", "百度")


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


def online_conditions(suite: str, model: str, precision: str, target: str) -> dict[str, str]:
    """The conditions of one online rate of a suite: the three claims of that rate share them."""
    return {**conditions(suite, model, precision), "scenario": f"online, {target} requests/s target (Poisson)"}


def _field(row: Mapping, name: str, where: str) -> Any:  # noqa: ANN401
    try:
        return lookup(row, name, where)
    except RawError as exc:
        raise ImportFailure(str(exc)) from None


class _Run(NamedTuple):
    """One imported AccelMark run; field order is the output order (runs are sorted as tuples)."""

    entity: str
    suite: str
    folder: str
    tier: str
    file: str
    name: str
    model: str
    precision: str
    framework: str
    number: float
    memory: float
    engine: str | None
    online: tuple[tuple[str, tuple[float, ...]], ...] = ()  # (target rate, the ONLINE_FIELDS values at it)


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
    runs = []
    seen: dict[str, str] = {}
    for raw in results:
        run = _read_run(raw, knowledge_dir, aliases, imported, seen)
        if run is not None:
            runs.append(run)
    for run in sorted(runs):
        imported.claims.append(_throughput_claim(run, _locator(run, dataset, upstream_results, column(run.suite))))
        memory_locator = _locator(run, dataset, upstream_results, MEMORY_COLUMN, MEMORY_CONVERSION)
        imported.claims.append(_memory_claim(run, memory_locator))
        imported.claims.extend(_online_claims(run, dataset, upstream_results))
    for raw in prices:
        imported.claims.extend(_prices(raw, knowledge_dir, dataset, aliases, upstream_prices, imported))
    return imported


def _read_run(
    raw: Path, knowledge_dir: Path, aliases: Mapping[str, Alias], imported: Imported, seen: dict[str, str]
) -> _Run | None:
    """The run in one ``result.json``, or None for a suite not imported or a chip the alias table does not map.

    SEEN (run folder -> the file that holds it) refuses a second result of one folder.
    """
    table, file = load_table(raw, knowledge_dir)
    parts = file.split("/")
    if len(parts) != 5 or parts[1] != "results" or parts[2] not in TIERS or parts[4] != "result.json":
        raise ImportFailure(f"{table.path}: expected accelmark/results/<verified|community>/<run>/result.json")
    folder, tier = parts[3], parts[2]
    if folder in seen:
        raise ImportFailure(f"{table.path}: duplicate run folder {folder!r} (first {seen[folder]})")
    seen[folder] = table.path
    row, position = table.rows[0], table.positions[0]
    where = f"{table.path}, {position}"
    suite = str(_field(row, "suite_id", where))
    if suite not in SUITES:
        return None
    name = str(_field(row, "chip.name", where)).strip()
    entity = imported.entity(aliases, name)
    if entity is None:
        return None
    count = value(row, "chip.count", "none", table, position)
    if count != 1:
        raise ImportFailure(f"{where}: {suite} runs on one accelerator, `chip.count` is {count:g}")
    number = value(row, column(suite), "none", table, position)
    model = str(_field(row, "model.model_id", where))
    precision = str(_field(row, "model.precision", where))
    framework = str(_field(row, "software.framework", where))
    memory = value(row, MEMORY_COLUMN, MEMORY_CONVERSION, table, position)
    engine = aliases[framework].entity if framework in aliases and aliases[framework].entity else None
    online = _online_rows(row, table, position)
    return _Run(entity, suite, folder, tier, file, name, model, precision, framework, number, memory, engine, online)


def _online_rows(row: Mapping, table: Any, position: str) -> tuple[tuple[str, tuple[float, ...]], ...]:  # noqa: ANN401
    """Each online rate of a run with its ONLINE_FIELDS values (none when the run has no online scenario)."""
    rows = (row.get("metrics") or {}).get("online") or {}
    found = []
    for item in rows.get("results_by_qps") or ():
        target = str(item.get("target_qps"))
        numbers = tuple(
            value(row, f"{ONLINE_ROWS}[target_qps={target}].{name}", "none", table, position) for name in ONLINE_FIELDS
        )
        found.append((target, numbers))
    return tuple(found)


def _online_claims(run: _Run, dataset: Any, upstream: str) -> list[dict]:  # noqa: ANN401
    """Three claims per online rate of a run: requests/s achieved, p99 TTFT and p99 TPOT, one condition set."""
    claims = []
    for target, numbers in run.online:
        where = f"{run.suite.replace('_', '-').lower()}-online-{target.replace('.', 'p')}"
        for (name, (metric, unit, label)), number in zip(ONLINE_FIELDS.items(), numbers, strict=True):
            column = f"{ONLINE_ROWS}[target_qps={target}].{name}"
            claims.append(
                {
                    "id": f"accelmark-{run.entity}-{where}-{metric.split('_')[0]}-{_run_id(run)}",
                    "source": DATASET,
                    "tier": "benchmarked",
                    "kind": "benchmark",
                    "text_en": (
                        f"AccelMark {run.suite} ({run.model}, {run.precision}, {run.framework}) on one {run.name}, "
                        f"online at {target} requests/s (Poisson arrivals): {number:,.2f} {label}; "
                        f"AccelMark tier {run.tier}."
                    ),
                    "about": _about(run),
                    "subject": run.entity,
                    "metric": metric,
                    "value": number,
                    "unit": unit,
                    "conditions": online_conditions(run.suite, run.model, run.precision, target),
                    "locator": _locator(run, dataset, upstream, column),
                }
            )
    return claims


def _locator(run: _Run, dataset: Any, upstream: str, raw_column: str, conversion: str = "none") -> dict:  # noqa: ANN401
    return locator(
        dataset,
        upstream,
        run.file,
        run.folder,
        raw_column,
        conversion,
        result_id=run.folder,
        round=run.suite,
        verification=run.tier,
    )


def _run_id(run: _Run) -> str:
    """The run's number: the last ``_`` part of its folder name."""
    return run.folder.rsplit("_", 1)[-1]


def _throughput_claim(run: _Run, run_locator: dict) -> dict:
    return {
        "id": f"accelmark-{run.entity}-{run.suite.replace('_', '-').lower()}-{_run_id(run)}",
        "source": DATASET,
        "tier": "benchmarked",
        "kind": "benchmark",
        "text_en": (
            f"AccelMark {run.suite} ({run.model}, {run.precision}, {run.framework}) on one {run.name}: "
            f"{run.number:,.2f} output tokens/s offline at {SUITES[run.suite]} concurrent requests; "
            f"AccelMark tier {run.tier}."
        ),
        "about": _about(run),
        "subject": run.entity,
        "metric": METRIC,
        "value": run.number,
        "unit": "tokens/s per chip",
        "conditions": conditions(run.suite, run.model, run.precision),
        "locator": run_locator,
    }


def _memory_claim(run: _Run, run_locator: dict) -> dict:
    return {
        "id": f"accelmark-{run.entity}-memory-{_run_id(run)}",
        "source": DATASET,
        "tier": "benchmarked",
        "kind": "spec",
        "text_en": (
            f"AccelMark {run.suite} run {_run_id(run)} on one {run.name}: {run.memory:g} GB of device memory "
            f"(the run's `memory_gb` is binary GiB as the driver reports usable memory, converted x 1.073742); "
            f"AccelMark tier {run.tier}."
        ),
        "about": _about(run),
        "subject": run.entity,
        "metric": MEMORY_METRIC,
        "value": run.memory,
        "unit": "GB",
        "conditions": {"scope": "device memory reported by the AccelMark run"},
        "locator": run_locator,
    }


def _about(run: _Run) -> list[str]:
    """The chip, and the engine the run used when the alias table maps it."""
    return [run.entity] + ([run.engine] if run.engine and run.engine != run.entity else [])


def provider_class(row: Mapping, price: float) -> tuple[str, str]:
    """(class, provider names) of the providers whose price is the reference price: the basis it is on."""
    listed = [p for p in row.get("providers") or () if isinstance(p, Mapping)]
    providers = [p for p in listed if p.get("price_usd_per_hr") == price]
    names = [str(p.get("name", "")) for p in providers or listed]
    classes = sorted(
        {
            "hyperscaler"
            if n.startswith(_HYPERSCALERS)
            else "China-market cloud"
            if n.startswith(_CHINA_CLOUDS)
            else "neocloud"
            for n in names
        }
    )
    basis = " / ".join(classes) or "unstated"
    if not providers and listed:
        basis = f"estimated from {basis} listings"  # AccelMark's reference price is none of the listed offers
    return basis, "; ".join(names) or "no provider lists it"


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
        basis, providers = provider_class(row, price)
        claim = {
            "id": f"accelmark-price-{entity}",
            "source": DATASET,
            "tier": "reference",
            "kind": "market",
            "text_en": (
                f"{name}: USD {price:g} per accelerator-hour on demand (AccelMark cloud_pricing.json, lowest "
                f"verified on-demand price across providers{', estimated' if estimated else ''}, April 2026); "
                f"{basis} rate ({providers})."
            ),
            "about": [entity],
            "metric": PRICE_METRIC,
            "value": price,
            "unit": "USD per GPU-hour",
            "conditions": {"version": PRICE_VERSION, "scope": f"on demand, {basis}"},
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
