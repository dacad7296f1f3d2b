"""Full Stack Deep Learning's cloud GPU price list -> ``reference`` claims of USD per GPU-hour (on demand).

One claim per cloud and upstream GPU type: the offer with the fewest GPUs (then the instance name), so that a
cloud listing one price in four instance sizes counts once. The prices are from April 2025: the dataset's
snapshot date is shown beside them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selector.importers import Alias, Imported, ImportFailure, load_table, locator, require_columns, value
from selector.locators import row_key

DATASET = "fsdl-cloud-gpus"
KEY = ("Cloud", "GPU Type", "GPUs", "Name")
COLUMNS = (*KEY, "Per-GPU", "On-demand")
METRIC = "cloud_usd_per_gpu_hour"


def build(raws: Sequence[Path], knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias]) -> Imported:  # noqa: ANN401
    """Claims from ``cloud-gpus.csv`` (exactly one raw file).

    Raises
    ------
    ImportFailure
        On a missing column, a non-numeric price or GPU count, or two used rows with the same key.
    """
    if len(raws) != 1:
        raise ImportFailure(f"{DATASET} takes one raw file (cloud-gpus.csv), got {len(raws)}")
    table, file = load_table(raws[0], knowledge_dir)
    require_columns(table, COLUMNS)
    upstream = dataset.upstream[0]
    imported = Imported()
    seen: dict[str, str] = {}
    best: dict[tuple[str, str], tuple[float, str, str, Mapping, str, float]] = {}
    for row, position in zip(table.rows, table.positions, strict=True):
        name = str(row["GPU Type"]).strip()
        entity = imported.entity(aliases, name)
        if entity is None:
            continue
        # Only rows that are used must be unique: the upstream list repeats unnamed offers of other GPUs.
        key = row_key(row, KEY)
        if key in seen:
            raise ImportFailure(
                f"{table.path}, {position}: duplicate key {' | '.join(KEY)} = {key!r} (first at {seen[key]})"
            )
        seen[key] = position
        gpus = value(row, "GPUs", "none", table, position)
        price = value(row, "Per-GPU", "none", table, position)
        candidate = (gpus, str(row["Name"]), key, row, entity, price)
        slot = (str(row["Cloud"]).strip(), name)
        if slot not in best or candidate[:2] < best[slot][:2]:
            best[slot] = candidate
    for (cloud, name), (gpus, _, key, row, entity, price) in sorted(best.items(), key=lambda i: (i[1][4], i[0])):
        instance = f" {row['Name']}" if str(row["Name"]).strip() else ""
        imported.claims.append(
            {
                "id": f"fsdl-{entity}-{_slug(cloud)}-{_slug(name)}",
                "source": DATASET,
                "tier": "reference",
                "kind": "market",
                "text_en": (
                    f"{cloud}{instance} ({gpus:g} x {name}): USD {price:g} per GPU-hour on demand "
                    f"(Full Stack Deep Learning price list as of {dataset.snapshot_date})."
                ),
                "about": [entity],
                "metric": METRIC,
                "value": price,
                "unit": "USD per GPU-hour",
                "locator": locator(dataset, upstream, file, key, "Per-GPU", "none"),
            }
        )
    return imported


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-").replace("--", "-")[:30]
