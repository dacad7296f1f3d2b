"""The fullest CSV upload the caps allow, row after row: every column filled and a new entity declared on each row.

tests/io/test_limits.py derives :data:`selector.io.limits.VALUES_PER_ROW` from it and benchmarks/bench_limits.py
measures the largest such file; nothing here imports pytest, so that the benchmark can import it.
"""

from __future__ import annotations

import csv
import io

from selector.uploads import csv_claims


def full_row(i: int) -> dict[str, str]:
    """Row `i`: a claim `my-claim-<i>` about a new entity `my-npu-<i>`, every column of the CSV format filled."""
    row = dict.fromkeys(csv_claims.CSV_COLUMNS, "v")
    row.update(
        id=f"my-claim-{i}",
        entity=f"my-npu-{i}",
        metric="tops_int8",
        value="40",
        unit="TOPS",
        tier="assessed",
        kind="benchmark",
        comparator="=",
        text_en="My NPU measured on our bench " + "x" * 40,
        overrides="",
        rationale="measured on our bench; it rests on outside facts (our lab's own runs)",
        based_on="c004-orin-tops;c004-edgetpu-tops",
        hardware="a100",
        baseline_entity="a100",
        entity_name=f"My NPU {i}",
        entity_kind="accelerator",
        segment="edge",
        roles="",
        vendor="nvidia",
    )
    return row


def full_csv(rows: int) -> bytes:
    """A CSV upload of `rows` rows made by :func:`full_row`, with its header."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(csv_claims.CSV_COLUMNS))
    writer.writeheader()
    writer.writerows(full_row(i) for i in range(rows))
    return out.getvalue().encode()
