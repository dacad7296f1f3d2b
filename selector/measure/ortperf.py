"""ONNX Runtime ``onnxruntime_perf_test`` console output (run with ``-s`` for the latency percentiles).

``Number of inferences per second`` counts session runs; a run holds one batch, so samples per second are given only
when the user states the batch. ``Average inference time cost`` is the mean per run in ms; the ``P50 ... P99
Latency`` lines are in seconds and converted to ms. The output names neither the model nor the hardware.
"""

from __future__ import annotations

import re

from selector.measure.common import Figure, Run, figure_number, refuse, stated_once

_MARK = "Number of inferences per second:"
_PERCENTILES = {"P50": "latency_ms", "P90": "latency_p90_ms", "P95": "latency_p95_ms", "P99": "latency_p99_ms"}
_READ = frozenset(
    {
        _MARK[:-1],
        "Total inference requests",
        "Average inference time cost total",
        "Average inference time cost",
        *(f"{p} Latency" for p in _PERCENTILES),
    }
)


def is_ort_perf_test(text: str) -> bool:
    """True when `text` is onnxruntime_perf_test output."""
    return "Session creation time cost:" in text[:2000] and "Total inference requests:" in text


def read(name: str, text: str, batch: str | None = None) -> Run:
    """Parse onnxruntime_perf_test output.

    Parameters
    ----------
    name, text
        The file name (for messages) and its text.
    batch
        Samples per run, when the user states it (adds a samples-per-second figure).

    Raises
    ------
    MeasureError
        When the summary lines are missing (truncated) or the run made no requests.
    """
    lines = text.split("\n")
    entries = []
    for index, line in enumerate(lines, start=1):
        key, sep, value = line.strip().partition(":")
        if sep:
            entries.append((index, key.strip(), value.strip()))
    # the tool writes its CPU and memory lines twice in two spellings; the lines read here appear once per run
    found = stated_once(name, entries, _READ)
    last_line = text.rstrip("\n").count("\n") + 1
    if _MARK[:-1] not in found:
        raise refuse(name, last_line, f"no `{_MARK} N` line: the run did not finish or the output is truncated")
    line, requests = found.get("Total inference requests", (last_line, "0"))
    if not requests.isdigit() or int(requests) == 0:
        raise refuse(name, line, "the run made no inference requests (expected `Total inference requests: N`)")
    threads = re.search(r"Setting intra_op_num_threads to (\d+)", text)
    facts = {"inference requests": requests}
    if threads:
        facts["intra-op threads"] = threads.group(1)
    return Run(
        tool="onnxruntime_perf_test",
        fmt="ort-perf-test",
        figures=tuple(_figures(name, found, batch)),
        batch=batch,
        versions={},
        subject="onnxruntime",
        facts=facts,
    )


def _figures(name: str, found: dict[str, tuple[int, str]], batch: str | None) -> list[Figure]:
    """Runs per second (and samples per second for a stated batch), the mean latency and the latency percentiles."""
    line, raw, rate = _value(name, found, _MARK[:-1], "")
    figures = [Figure("queries_per_second", rate, "queries/s", "Number of inferences per second", line, raw)]
    if batch and batch.isdigit():
        label = f"Number of inferences per second x batch {batch}"
        figures.append(Figure("samples_per_second", rate * int(batch), "samples/s", label, line, raw))
    for key in ("Average inference time cost total", "Average inference time cost"):
        if key in found:
            line, raw, mean = _value(name, found, key, "ms")
            figures.append(Figure("latency_mean_ms", mean, "ms", key, line, raw))
            break
    for label, metric in _PERCENTILES.items():
        key = f"{label} Latency"
        if key in found:
            line, raw, seconds = _value(name, found, key, "s")
            scope = "median latency per inference" if metric == "latency_ms" else None
            figures.append(Figure(metric, seconds * 1e3, "ms", f"{key} (s)", line, raw, scope))
    return figures


def _value(name: str, found: dict[str, tuple[int, str]], key: str, unit: str) -> tuple[int, str, float]:
    """(line, text, number) of the line KEY, whose value must be a number followed by UNIT."""
    line, raw = found[key]
    match = re.fullmatch(rf"([-+0-9.eE]+)\s*{unit}", raw)
    if not match:
        raise refuse(name, line, f"`{key}` should be a number in {unit or 'runs per second'}, got `{raw[:40]}`")
    return line, raw, figure_number(name, line, key, match.group(1), unit or "runs per second")
