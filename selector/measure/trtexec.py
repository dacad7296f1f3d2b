"""TensorRT ``trtexec`` console output (``trtexec ... 2>&1 | tee run.log``): throughput and latency of one engine.

trtexec reports throughput in queries per second, a query being one inference of the engine's batch; samples per
second are queries x batch (the batch is the first dimension of the inference shape). ``Latency`` is trtexec's host
latency (host-to-device copy + compute + device-to-host) per query. The run must have finished (``&&&& PASSED``)
and printed its ``=== Performance summary ===``.
"""

from __future__ import annotations

import re

from selector.measure.common import Figure, Run, figure_number, refuse, stated_once, throughput_metric

_RUNNING = re.compile(r"^&&&& RUNNING TensorRT\.trtexec \[TensorRT v(\d+)\]")
_STAT = re.compile(r"(min|max|mean|median|percentile\((\d+(?:\.\d+)?)%\)) = ([-+0-9.eE]+) ms")
_PREFIX = re.compile(r"^\[[^\]]*\] \[[IWEV]\] ")
# trtexec's verdict lines; one that is not PASSED anywhere in the log (with or without a prefix) refuses it
_VERDICT = re.compile(r"&&&& (\w+)")


def is_trtexec(text: str) -> bool:
    """True when `text` is trtexec output (its first line is trtexec's RUNNING banner)."""
    return "&&&& RUNNING TensorRT.trtexec" in text[:1000]


def _body(line: str) -> str:
    """A log line without trtexec's ``[date] [I]`` prefix."""
    return _PREFIX.sub("", line.strip()).strip()


def _version(code: str) -> str:
    # v101601 -> 10.16.1, v8600 -> 8.6.0: major, two-digit minor, two-digit patch (one digit before TensorRT 10).
    if len(code) >= 6:
        return f"{int(code[:-4])}.{int(code[-4:-2])}.{int(code[-2:])}"
    return f"{int(code[:-3])}.{int(code[-3:-2])}.{int(code[-2:])}"


def read(name: str, text: str) -> Run:
    """Parse trtexec output.

    Returns
    -------
    Run
        Throughput (queries/s and samples/s), host latency median/mean/percentiles and GPU compute median, with
        the TensorRT version, precision (from the build options or the command line), batch and device.

    Raises
    ------
    MeasureError
        When the run failed, did not finish (truncated), skipped inference, or lacks the performance summary.
    """
    lines = text.split("\n")
    first = lines[0].strip()
    banner = _RUNNING.match(first)
    if not banner:
        raise refuse(name, 1, "not trtexec output: the first line should be `&&&& RUNNING TensorRT.trtexec [...]`")
    command = first.partition("# ")[2]
    end_line = _passed(name, text, lines)
    summary, found = _performance_summary(name, lines, end_line)
    info = _build_info(name, lines[:summary])
    batch = _batch(info, lines[:summary])
    model = info.get("Model") or info.get("Load engine") or ""
    workload = re.sub(r"\.(onnx|engine|plan|trt)$", "", model.replace("\\", "/").rsplit("/", 1)[-1]) or None
    figures = _throughput(name, found, batch, workload) + _latencies(name, found)
    versions = {"TensorRT": info.get("TensorRT version") or _version(banner.group(1))}
    return Run(
        tool="trtexec",
        fmt="trtexec",
        figures=tuple(figures),
        workload=workload,
        precision=info.get("Precision") or _precision_from_command(command),
        batch=batch,
        versions=versions,
        hardware_names=(info["Selected Device"],) if info.get("Selected Device") else (),
        subject="tensorrt",
        facts={"command": command[:300]} if command else {},
    )


def _passed(name: str, text: str, lines: list[str]) -> int:
    """The line of trtexec's closing ``&&&& PASSED``; a failed, repeated or truncated run is refused.

    Every ``&&&&`` line after the opening banner counts, wherever it stands: a FAILED (or WAIVED) line is not undone
    by a PASSED one after it, and a second RUNNING banner means two runs in one file (which one is evidence?).
    """
    verdicts = [(i, _body(line)) for i, line in enumerate(lines, start=1) if "&&&& " in line][1:]
    verdicts = [(i, body[body.index("&&&& ") :]) for i, body in verdicts if _VERDICT.search(body)]
    if not verdicts:
        last_line = text.rstrip("\n").count("\n") + 1
        raise refuse(name, last_line, "the log ends without trtexec's `&&&& PASSED` line; it looks truncated")
    for end_line, end in verdicts:
        word = _VERDICT.match(end).group(1)
        if word == "RUNNING":
            raise refuse(name, end_line, "a second `&&&& RUNNING` banner: the log holds two runs; give one per file")
        if word != "PASSED":
            raise refuse(name, end_line, f"trtexec did not pass (`{end[:40]}`); only a PASSED run is evidence")
    if len(verdicts) > 1:
        raise refuse(name, verdicts[1][0], "a second `&&&& PASSED` line: the log holds two runs; give one per file")
    return verdicts[0][0]


def _performance_summary(name: str, lines: list[str], end_line: int) -> tuple[int, dict[str, tuple[int, str]]]:
    """(index of the ``=== Performance summary ===`` line, key -> (line, value) of the lines under it)."""
    try:
        summary = next(i for i, line in enumerate(lines) if _body(line) == "=== Performance summary ===")
    except StopIteration:
        raise refuse(
            name, end_line, "no `=== Performance summary ===`: the run measured nothing (e.g. --skipInference)"
        ) from None
    again = next((i for i in range(summary + 1, len(lines)) if _body(lines[i]) == "=== Performance summary ==="), None)
    if again is not None:
        raise refuse(
            name, again + 1, "a second `=== Performance summary ===`: the log holds two runs; give one per file"
        )
    entries = []
    for index in range(summary + 1, len(lines)):
        body = _body(lines[index])
        if body.startswith("&&&&") or body.startswith("==="):
            break
        key, sep, value = body.partition(":")
        if sep and key:
            entries.append((index + 1, key, value.strip()))
    found = stated_once(name, entries)
    if "Throughput" not in found:
        raise refuse(name, summary + 1, "the performance summary has no `Throughput: N qps` line")
    return summary, found


_BUILD_KEYS = (
    "Precision",
    "Selected Device",
    "TensorRT version",
    "Input inference shape",
    "Input inference shapes",
    "Model",
    "Load engine",
)


def _build_info(name: str, lines: list[str]) -> dict[str, str]:
    """What trtexec printed about the engine and device before measuring; a key stated twice differently is refused."""
    entries = []
    for index, line in enumerate(lines, start=1):
        key, sep, value = _body(line).partition(":")
        if sep and key.strip() in _BUILD_KEYS:
            entries.append((index, key.strip(), value.strip()))
    return {key: value for key, (_, value) in stated_once(name, entries).items()}


def _throughput(name: str, found: dict[str, tuple[int, str]], batch: str | None, workload: str | None) -> list[Figure]:
    """Queries per second as trtexec states them and, when the batch is known, samples per second (qps x batch)."""
    line, value = found["Throughput"]
    match = re.fullmatch(r"(\S+)\s*(k?)qps", value)
    if not match:
        raise refuse(name, line, f"`Throughput` should be `N qps` (or `N kqps`), got `{value[:40]}`")
    # trtexec writes thousands of queries per second as kqps in some versions: the figure is scaled, not misread
    qps = figure_number(name, line, "Throughput", match.group(1), "queries/s") * (1000 if match.group(2) else 1)
    figures = [Figure("queries_per_second", qps, "queries/s", "Throughput", line, value)]
    if batch:
        metric = throughput_metric(workload)
        unit = "img/s" if metric == "throughput" else "samples/s"
        figures.append(Figure(metric, qps * int(batch), unit, f"Throughput x batch {batch}", line, value, None))
    return figures


def _latencies(name: str, found: dict[str, tuple[int, str]]) -> list[Figure]:
    """Host latency (median, mean, p90, p95, p99) and the median GPU compute time, each where the summary has it."""
    figures = []
    for key, stat, metric in (
        ("Latency", "median", "latency_ms"),
        ("Latency", "mean", "latency_mean_ms"),
        ("Latency", "90", "latency_p90_ms"),
        ("Latency", "95", "latency_p95_ms"),
        ("Latency", "99", "latency_p99_ms"),
        ("GPU Compute Time", "median", "gpu_compute_median_ms"),
    ):
        if key not in found:
            continue
        line, value = found[key]
        stats = {m.group(2) or m.group(1): m.group(3) for m in _STAT.finditer(value)}
        if stat in stats:
            scope = "median host latency per query" if metric == "latency_ms" else None
            label = f"{key} {stat if stat in ('median', 'mean') else f'percentile({stat}%)'}"
            value = figure_number(name, line, f"{key} {stat}", stats[stat], "ms")
            figures.append(Figure(metric, value, "ms", label, line, f"{stat} = {stats[stat]} ms", scope))
    return figures


def _batch(info: dict[str, str], lines: list[str]) -> str | None:
    """The batch of the inference shape (its first dimension), from the shape line or the input binding."""
    shape = info.get("Input inference shape") or info.get("Input inference shapes") or ""
    match = re.search(r"=(\d+)x", shape)
    if match:
        return match.group(1)
    for line in lines:
        match = re.search(r"[Ii]nput binding for \S+ with dimensions (\d+)x", line)
        if match:
            return match.group(1)
    return None


def _precision_from_command(command: str) -> str | None:
    flags = [p.upper() for p in ("fp16", "bf16", "int8", "fp8", "best") if f"--{p}" in command.split()]
    return "+".join(flags) if flags else None
