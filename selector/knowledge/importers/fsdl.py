"""Full Stack Deep Learning's cloud GPU price list -> ``reference`` claims of USD per GPU-hour (on demand).

One claim per cloud, upstream GPU type and entity: the offer with the fewest GPUs (then the instance name), so that
a cloud listing one price in four instance sizes counts once. The list was committed in April 2025 but its rows
were last edited from 2022 to 2025: ``row-dates.csv`` (the upstream file's git history, one line per row) gives
each price its own date, which the claim states, and its provider class. An offer the alias table names by its
row key (``Cloud | GPU Type | GPUs | Name``) maps to that entity whatever its GPU type says (PCIe instances that
FSDL lists under a plain "H100 (80 GB)").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selector.knowledge.importers import Alias, Imported, ImportFailure, load_table, locator, require_columns, value
from selector.knowledge.locators import RawTable, row_key

DATASET = "fsdl-cloud-gpus"
KEY = ("Cloud", "GPU Type", "GPUs", "Name")
COLUMNS = (*KEY, "Per-GPU", "On-demand")
METRIC = "cloud_usd_per_gpu_hour"
PRICES, DATES = "cloud-gpus.csv", "row-dates.csv"
DATE_COLUMNS = ("Row", *KEY, "Last edited", "Commit")
# The clouds that are hyperscalers; every other seller in the list rents GPUs only (a "neocloud"), and sells them
# cheaper: a price column that mixes the two compares providers, not chips.
HYPERSCALERS = frozenset({"AWS", "Azure", "GCP", "Oracle Cloud"})


def provider_class(cloud: str) -> str:
    """``hyperscaler`` or ``neocloud``: the price basis a cloud's offer is on."""
    return "hyperscaler" if cloud in HYPERSCALERS else "neocloud"


def _dates(raw: Path, knowledge_dir: Path, prices: RawTable) -> dict[str, tuple[str, str]]:
    """price-table position (``row N``) -> (date the row was last edited upstream, commit), checked against it.

    Raises
    ------
    ImportFailure
        When a line of the dates table names a row that does not hold the same offer, or a price row has no date.
    """
    table, _ = load_table(raw, knowledge_dir)
    require_columns(table, DATE_COLUMNS)
    by_position = {p: r for r, p in zip(prices.rows, prices.positions, strict=True)}
    dates = {}
    for row, position in zip(table.rows, table.positions, strict=True):
        where = f"row {str(row['Row']).strip()}"
        price = by_position.get(where)
        if price is None or row_key(price, KEY) != row_key(row, KEY):
            raise ImportFailure(
                f"{table.path}, {position}: {where} of {prices.path} is not the offer {row_key(row, KEY)!r}"
            )
        dates[where] = (str(row["Last edited"]).strip(), str(row["Commit"]).strip())
    undated = [p for p in prices.positions if p not in dates]
    if undated:
        raise ImportFailure(f"{table.path}: no date for {prices.path} {undated[0]} ({len(undated)} rows undated)")
    return dates


def build(raws: Sequence[Path], knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias]) -> Imported:  # noqa: ANN401
    """Claims from ``cloud-gpus.csv`` and its ``row-dates.csv`` (exactly these two raw files).

    Raises
    ------
    ImportFailure
        On a missing column, a non-numeric price or GPU count, two used rows with the same key, or a dates table
        that does not date every price row with the same offer.
    """
    names = sorted(p.name for p in raws)
    if names != [PRICES, DATES]:
        raise ImportFailure(f"{DATASET} takes two raw files ({PRICES} and {DATES}), got {', '.join(names) or 'none'}")
    table, file = load_table(next(p for p in raws if p.name == PRICES), knowledge_dir)
    require_columns(table, COLUMNS)
    dates = _dates(next(p for p in raws if p.name == DATES), knowledge_dir, table)
    upstream = dataset.upstream[0]
    imported = Imported()
    seen: dict[str, str] = {}
    best: dict[tuple[str, str, str], tuple[float, str, str, Mapping, str, float, str]] = {}
    for row, position in zip(table.rows, table.positions, strict=True):
        name = str(row["GPU Type"]).strip()
        key = row_key(row, KEY)
        entity = imported.entity(aliases, key if key in aliases else name)
        if entity is None:
            continue
        # Only rows that are used must be unique: the upstream list repeats unnamed offers of other GPUs.
        if key in seen:
            raise ImportFailure(
                f"{table.path}, {position}: duplicate key {' | '.join(KEY)} = {key!r} (first at {seen[key]})"
            )
        seen[key] = position
        gpus = value(row, "GPUs", "none", table, position)
        price = value(row, "Per-GPU", "none", table, position)
        candidate = (gpus, str(row["Name"]), key, row, entity, price, position)
        slot = (str(row["Cloud"]).strip(), name, entity)
        if slot not in best or candidate[:2] < best[slot][:2]:
            best[slot] = candidate
    for (cloud, name, _), (gpus, _, key, row, entity, price, position) in sorted(
        best.items(), key=lambda i: (i[1][4], i[0])
    ):
        imported.claims.append(
            _claim(dataset, upstream, file, (cloud, name, entity), (gpus, key, row, price), dates[position])
        )
    return imported


def _claim(dataset: Any, upstream: str, file: str, slot: tuple, offer: tuple, dated: tuple[str, str]) -> dict:  # noqa: ANN401
    """The claim of one offer: its price, the date its row was last edited upstream and its provider class."""
    cloud, name, entity = slot
    gpus, key, row, price = offer
    edited, commit = dated
    instance = f" {row['Name']}" if str(row["Name"]).strip() else ""
    return {
        "id": f"fsdl-{entity}-{_slug(cloud)}-{_slug(name)}",
        "source": DATASET,
        "tier": "reference",
        "kind": "market",
        "text_en": (
            f"{cloud}{instance} ({gpus:g} x {name}): USD {price:g} per GPU-hour on demand, {provider_class(cloud)} "
            f"price as last edited upstream on {edited} (commit {commit[:8]}); Full Stack Deep Learning price "
            f"list snapshot of {dataset.snapshot_date}."
        ),
        "about": [entity],
        "metric": METRIC,
        "value": price,
        "unit": "USD per GPU-hour",
        "conditions": {
            "version": f"FSDL price list, row edited {edited}",
            "scope": f"on demand, {provider_class(cloud)}",
        },
        "locator": locator(dataset, upstream, file, key, "Per-GPU", "none"),
    }


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-").replace("--", "-")[:30]
