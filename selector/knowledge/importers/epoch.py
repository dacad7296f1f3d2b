"""Epoch AI's machine-learning hardware data -> ``reference`` spec claims (memory, bandwidth, BF16, INT8, TDP, price).

One claim per mapped chip and column that has a value; the units are converted once here (FLOP/s -> TFLOPS,
bytes -> GB, bytes/s -> TB/s) by the conversions that validation re-applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selector.knowledge.importers import Alias, Imported, NamedTable, locator, named_rows, value

DATASET = "epoch-ml-hardware"
NAME = "Hardware name"
# raw column -> (metric, unit, conversion, kind, what the number is, in words)
COLUMNS: dict[str, tuple[str, str, str, str, str]] = {
    "Memory size per board (Byte)": ("memory_capacity_gb", "GB", "bytes_to_gb", "spec", "on-package memory"),
    "Memory bandwidth (byte/s)": (
        "memory_bandwidth_tb_s",
        "TB/s",
        "bytes_per_s_to_tb_per_s",
        "spec",
        "memory bandwidth",
    ),
    "Tensor-FP16/BF16 performance (FLOP/s)": (
        "tflops_bf16_dense",
        "TFLOPS",
        "flops_to_tflops",
        "spec",
        "dense FP16/BF16 tensor throughput",
    ),
    "INT8 performance (OP/s)": ("tops_int8", "TOPS", "flops_to_tflops", "spec", "INT8 throughput"),
    "TDP (W)": ("tdp_w", "W", "none", "spec", "thermal design power"),
    "Release price (USD)": ("release_price_usd", "USD", "none", "market", "release price"),
}
_SLUG = {
    "memory_capacity_gb": "memory",
    "memory_bandwidth_tb_s": "bandwidth",
    "tflops_bf16_dense": "bf16",
    "tops_int8": "int8",
    "tdp_w": "tdp",
    "release_price_usd": "price",
}
TABLE = NamedTable(DATASET, "ml_hardware.csv", NAME, tuple(COLUMNS))


def _number_text(x: float) -> str:
    return f"{x:,.6f}".rstrip("0").rstrip(".")


def build(raws: Sequence[Path], knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias]) -> Imported:  # noqa: ANN401
    """Claims from the Epoch CSV (exactly one raw file).

    Raises
    ------
    ImportFailure
        On a missing column, a non-numeric value, or two rows with the same hardware name.
    """
    imported = Imported()
    table, file, rows = named_rows(TABLE, raws, knowledge_dir, imported, aliases)
    upstream = dataset.upstream[0]
    for entity, name, row, position in sorted(rows, key=lambda r: r[0]):
        for column, (metric, unit, conversion, kind, words) in COLUMNS.items():
            if not str(row[column]).strip():
                continue
            number = value(row, column, conversion, table, position)
            imported.claims.append(
                {
                    "id": f"epoch-{entity}-{_SLUG[metric]}",
                    "source": DATASET,
                    "tier": "reference",
                    "kind": kind,
                    "text_en": f"{name}: {words} {_number_text(number)} {unit} (Epoch AI hardware data).",
                    "about": [entity],
                    "metric": metric,
                    "value": number,
                    "unit": unit,
                    "locator": locator(dataset, upstream, file, name, column, conversion),
                }
            )
    return imported
