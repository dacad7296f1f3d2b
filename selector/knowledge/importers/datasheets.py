"""Vendor datasheet figures (a bundled transcription, one row per product) -> ``reference`` spec claims.

Edge modules, cards and laptop NPUs have no spec database like Epoch AI's, so their makers' pages are transcribed
into one CSV with the page, the day it was recorded and the words quoted. One claim per mapped product and filled
column: dense INT8 TOPS (NVIDIA's 2:4-sparse rating halved, a rating without sparsity as it stands, or a laptop
processor's NPU block on its own), the top of the power range, the module's memory and the list price (its basis
said in the claim).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from selector.knowledge.importers import Alias, Imported, ImportFailure, NamedTable, locator, named_rows, value

DATASET = "vendor-datasheets"
NAME = "Product"
PAGE, RETRIEVED, QUOTE, BASIS = "Page", "Retrieved", "Quote", "Price basis"
SPARSE, DENSE, NPU = "INT8 TOPS (2:4 sparse)", "INT8 TOPS (dense)", "NPU INT8 TOPS (dense)"
# raw column -> (metric, unit, conversion, kind, claim id suffix, what the number is, conditions)
_TOPS_CONDITIONS = {"precision": "int8", "sparsity": "dense", "scenario": "edge", "scope": "module"}
COLUMNS: dict[str, tuple[str, str, str, str, str, str, dict[str, str]]] = {
    SPARSE: (
        "tops_int8",
        "TOPS",
        "sparse_to_dense",
        "spec",
        "int8",
        "dense INT8 peak (half the 2:4-sparse rating)",
        _TOPS_CONDITIONS,
    ),
    DENSE: ("tops_int8", "TOPS", "none", "spec", "int8", "INT8 peak (no sparsity)", _TOPS_CONDITIONS),
    # The NPU block of a laptop processor, as its maker rates it (AMD's "NPU TOPS", Intel's "NPU Peak TOPS (Int8)",
    # Qualcomm's Hexagon NPU TOPS): the NPU alone, not the processor's CPU + GPU + NPU "overall" figure.
    NPU: (
        "tops_int8",
        "TOPS",
        "none",
        "spec",
        "npu-int8",
        "NPU INT8 peak (the NPU block alone)",
        {"precision": "int8", "sparsity": "dense", "scenario": "client", "scope": "npu-block"},
    ),
    "Power max (W)": (
        "power_w",
        "W",
        "none",
        "spec",
        "power",
        "rated power (top of the power range, or the figure quoted)",
        {"scenario": "edge", "scope": "module"},
    ),
    "Module memory (GB)": ("module_memory_gb", "GB", "none", "spec", "memory", "memory on the module", {}),
    "Price (USD)": ("release_price_usd", "USD", "none", "market", "price", "list price", {}),
}


def _number_text(x: float) -> str:
    return f"{x:,.6f}".rstrip("0").rstrip(".")


def _claim(dataset: Any, file: str, entity: str, name: str, row: Mapping[str, Any], column: str, number: float) -> dict:  # noqa: ANN401
    metric, unit, conversion, kind, slug, words, conditions = COLUMNS[column]
    basis = f" ({str(row[BASIS]).strip()})" if metric == "release_price_usd" and str(row[BASIS]).strip() else ""
    claim = {
        "id": f"datasheet-{entity}-{slug}",
        "source": DATASET,
        "tier": "reference",
        "kind": kind,
        "text_en": (
            f"{name}: {words} {_number_text(number)} {unit}{basis}; {row[PAGE]}, recorded {row[RETRIEVED]}: "
            f'"{" ".join(str(row[QUOTE]).split())}"'
        ),
        "about": [entity],
        "metric": metric,
        "value": number,
        "unit": unit,
    }
    if conditions:
        claim["conditions"] = dict(conditions)
    claim["locator"] = locator(dataset, dataset.upstream[0], file, name, column, conversion)
    return claim


def _cited_and_one_int8(row: Mapping[str, Any], name: str, where: str) -> None:
    """A row cites its page, date and quote, and gives one INT8 peak (sparse, dense or NPU)."""
    lacking = [c for c in (PAGE, RETRIEVED, QUOTE) if not str(row[c]).strip()]
    if lacking:
        raise ImportFailure(f"{where}: {name!r} lacks {', '.join(lacking)} (every figure cites it)")
    peaks = [c for c in (SPARSE, DENSE, NPU) if str(row[c]).strip()]
    if len(peaks) > 1:
        raise ImportFailure(f"{where}: {name!r} gives both {' and '.join(f'`{c}`' for c in peaks)}; keep one")


TABLE = NamedTable(
    DATASET, "datasheets.csv", NAME, (PAGE, RETRIEVED, QUOTE, BASIS, *COLUMNS), check=_cited_and_one_int8
)


def build(raws: Sequence[Path], knowledge_dir: Path, dataset: Any, aliases: Mapping[str, Alias]) -> Imported:  # noqa: ANN401
    """Claims from ``datasheets.csv`` (exactly one raw file).

    Raises
    ------
    ImportFailure
        On a missing column, a non-numeric value, a duplicate product, a row without its page, date or quote, or a
        row giving two INT8 figures (sparse, dense or NPU: one product has one INT8 peak).
    """
    imported = Imported()
    table, file, rows = named_rows(TABLE, raws, knowledge_dir, imported, aliases)
    for entity, name, row, position in sorted(rows, key=lambda r: r[0]):
        for column in COLUMNS:
            if str(row[column]).strip():
                number = value(row, column, COLUMNS[column][2], table, position)
                imported.claims.append(_claim(dataset, file, entity, name, row, column, number))
    return imported
