"""MLPerf LoadGen ``mlperf_log_summary.txt`` (and its ``mlperf_log_detail.txt``): the result, its validity and
the test parameters.

Only a VALID performance run is evidence: an INVALID run broke LoadGen's own constraints (duration, query count,
latency bound, early stopping), so it is refused with the line saying so. The summary names neither the model nor
the hardware; the model is read from the submission path when it names an MLPerf benchmark
(``.../resnet50/Offline/performance/run_1/mlperf_log_summary.txt``), the hardware is the user's to say.
Offline latency statistics describe one query holding every sample (minutes, not a response time), so only the
throughput of an Offline run is kept.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePath

from selector.measure.common import METRICS, Figure, MeasureError, Run, number, refuse, throughput_metric
from selector.yamlio import Issue

SUMMARY_MARK = "MLPerf Results Summary"
DETAIL_MARK = ":::MLLOG "

#: MLPerf Inference benchmark names (as in submission paths) -> the workload wording the criteria use.
BENCHMARKS: dict[str, str] = {
    "resnet50": "resnet-50 image classification",
    "retinanet": "retinanet object detection",
    "3d-unet-99.9": "3d-unet-99.9 medical image segmentation",
    "3d-unet-99": "3d-unet-99 medical image segmentation",
    "bert-99.9": "bert-99.9 question answering",
    "bert-99": "bert-99 question answering",
    "dlrm-v2-99.9": "dlrm-v2-99.9 recommendation",
    "dlrm-v2-99": "dlrm-v2-99 recommendation",
    "gptj-99.9": "gptj-99.9 summarisation",
    "gptj-99": "gptj-99 summarisation",
    "llama2-70b-interactive-99.9": "llama2-70b-interactive-99.9",
    "llama2-70b-interactive-99": "llama2-70b-interactive-99",
    "llama2-70b-99.9": "llama2-70b-99.9",
    "llama2-70b-99": "llama2-70b-99",
    "llama3.1-405b-interactive": "llama3.1-405b-interactive",
    "llama3.1-405b": "llama3.1-405b",
    "llama3.1-8b-edge": "llama3.1-8b-edge",
    "llama3.1-8b-interactive": "llama3.1-8b-interactive",
    "llama3.1-8b": "llama3.1-8b",
    "mixtral-8x7b": "mixtral-8x7b",
    "deepseek-r1-interactive": "deepseek-r1-interactive",
    "deepseek-r1": "deepseek-r1",
    "stable-diffusion-xl": "stable-diffusion-xl text-to-image",
    "whisper": "whisper speech recognition",
    "rgat": "rgat graph neural network",
    "pointpainting": "pointpainting 3d object detection",
}
SCENARIOS = ("Offline", "Server", "SingleStream", "MultiStream", "Interactive")

_HEADLINE_PERCENTILE = re.compile(r"^(\d+(?:\.\d+)?)th percentile latency \(ns\)$")
_STAT_PERCENTILES = {"50.00": "p50", "90.00": "p90", "95.00": "p95", "99.00": "p99"}
_KEPT_PARAMETERS = (
    "samples_per_query",
    "target_qps",
    "target_latency (ns)",
    "ttft_latency (ns)",
    "tpot_latency (ns)",
    "min_duration (ms)",
    "min_query_count",
    "performance_sample_count",
)


def is_summary(text: str) -> bool:
    """True when `text` opens like a LoadGen summary."""
    return SUMMARY_MARK in text[:400]


def is_detail(text: str) -> bool:
    """True when `text` opens like a LoadGen detail log."""
    return text.lstrip().startswith(DETAIL_MARK)


def workload_from_path(path: str) -> str | None:
    """The workload of an MLPerf benchmark named by a path component (``resnet50``, ``llama2-70b-99``), or None."""
    parts = re.split(r"[/\\]|__", path)
    for name in sorted(BENCHMARKS, key=len, reverse=True):
        if name in parts:
            return BENCHMARKS[name]
    return None


def _pairs(text: str) -> list[tuple[int, str, str, str]]:
    """(line, section, key, value) for every ``key : value`` line; section is the banner heading above it."""
    out = []
    section = ""
    lines = text.split("\n")
    for index, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("====="):
            continue
        if index > 1 and lines[index - 2].strip().startswith("=====") and ":" not in stripped and stripped:
            section = stripped
            continue
        if ":" in stripped and not stripped.startswith("*"):
            key, _, value = stripped.partition(":")
            out.append((index, section, key.strip(), value.strip()))
    return out


def _ns_figure(metric: str, line: int, key: str, value: str, name: str, scope: str | None = None) -> Figure:
    try:
        nanoseconds = number(value)
    except ValueError:
        raise refuse(name, line, f"`{key}` should be a number of nanoseconds, got `{value[:40]}`") from None
    return Figure(metric, nanoseconds / 1e6, "ms", key, line, value, scope)


def read_summary(name: str, text: str) -> Run:
    """Parse a LoadGen summary.

    Parameters
    ----------
    name
        The file name or path (used in messages; its components may name the benchmark).
    text
        The file's text.

    Returns
    -------
    Run
        The headline result(s), latency statistics (not for Offline), test parameters and validity.

    Raises
    ------
    MeasureError
        For an INVALID or accuracy-only run, a run with errors, a truncated file or a missing headline result.
    """
    if not is_summary(text):
        raise refuse(name, 1, f"not an MLPerf LoadGen summary: the first lines lack `{SUMMARY_MARK}`")
    pairs = _pairs(text)
    first = {key: (line, value) for line, section, key, value in pairs if section == SUMMARY_MARK}
    last_line = text.rstrip("\n").count("\n") + 1

    def need(key: str, expected: str) -> tuple[int, str]:
        if key not in first:
            raise refuse(name, last_line, f"the summary has no `{key} : ...` line; expected {expected}")
        return first[key]

    scenario_line, scenario = need("Scenario", "one of " + ", ".join(SCENARIOS))
    if scenario not in SCENARIOS:
        raise refuse(name, scenario_line, f"scenario `{scenario[:40]}` is not one of {', '.join(SCENARIOS)}")
    mode_line, mode = need("Mode", "PerformanceOnly")
    if mode != "PerformanceOnly":
        raise refuse(
            name, mode_line, f"mode `{mode[:40]}`: only a PerformanceOnly run measures speed (expected PerformanceOnly)"
        )
    valid_line, validity = need("Result is", "VALID")
    if validity != "VALID":
        failed = [key for line, section, key, value in pairs if section == SUMMARY_MARK and value.upper() == "NO"]
        why = f" (not satisfied: {', '.join(failed)})" if failed else ""
        raise refuse(
            name,
            valid_line,
            f"`Result is : {validity[:20]}`{why}; only a VALID LoadGen run is evidence (expected `Result is : VALID`)",
        )
    closing = [i for i, line in enumerate(text.split("\n"), start=1) if "errors encountered" in line]
    if not closing:
        raise refuse(
            name,
            last_line,
            "the file ends without LoadGen's closing `No errors encountered during test.` line; it looks truncated",
        )
    if "No errors encountered" not in text.split("\n")[closing[-1] - 1]:
        raise refuse(name, closing[-1], "LoadGen reported errors during the test (expected `No errors encountered`)")
    parameters = {key: (line, value) for line, section, key, value in pairs if section == "Test Parameters Used"}
    if not parameters:
        raise refuse(name, last_line, "the summary has no `Test Parameters Used` section; it looks truncated")

    workload = workload_from_path(name)
    figures: list[Figure] = []

    def rate(metric: str, keys: tuple[str, ...], scope: str | None = None, required: bool = False) -> None:
        for key in keys:
            if key in first:
                line, value = first[key]
                try:
                    figures.append(Figure(metric, number(value), _unit(metric), key, line, value, scope))
                except ValueError:
                    raise refuse(name, line, f"`{key}` should be a number, got `{value[:40]}`") from None
                return
        if required:
            raise refuse(name, last_line, f"the {scenario} summary has no `{keys[0]}` line (its result)")

    if scenario == "Offline":
        rate(throughput_metric(workload), ("Samples per second",), required=True)
        rate("tokens_per_second", ("Tokens per second",))
    elif scenario in ("Server", "Interactive"):
        rate(throughput_metric(workload), ("Completed samples per second", "Scheduled samples per second"), None, True)
        rate("tokens_per_second", ("Completed tokens per second", "Tokens per second"))
    else:
        headline = [(line, key, value) for key, (line, value) in first.items() if _HEADLINE_PERCENTILE.match(key)]
        if not headline:
            raise refuse(name, last_line, f"the {scenario} summary has no `NN.Nth percentile latency (ns)` line")
        line, key, value = headline[0]
        percentile = _HEADLINE_PERCENTILE.match(key).group(1).rstrip("0").rstrip(".")
        figures.append(_ns_figure("latency_ms", line, key, value, name, f"p{percentile} per query"))
    if scenario != "Offline":
        stats = {key: (line, value) for line, section, key, value in pairs if section == "Additional Stats"}
        for prefix, label in _STAT_PERCENTILES.items():
            if f"{prefix} percentile latency (ns)" in stats:
                figures.append(_stat(f"latency_{label}_ms", f"{prefix} percentile latency (ns)", stats, name))
        for prefix, label in (("50.00", "p50"), ("99.00", "p99")):
            for key, metric in (
                (f"{prefix} percentile first token latency (ns)", f"ttft_{label}_ms"),
                (f"{prefix} percentile time to output token (ns)", f"tpot_{label}_ms"),
            ):
                if key in stats:
                    figures.append(_stat(metric, key, stats, name))
        if "Mean latency (ns)" in stats:
            figures.append(_stat("latency_mean_ms", "Mean latency (ns)", stats, name))
        if "QPS w/ loadgen overhead" in stats:
            line, value = stats["QPS w/ loadgen overhead"]
            figures.append(
                Figure("queries_per_second", number(value), "queries/s", "QPS w/ loadgen overhead", line, value, None)
            )
    facts = {"validity": "VALID", "SUT": first.get("SUT name", (0, "?"))[1]}
    for key in _KEPT_PARAMETERS:
        if key in parameters:
            facts[key] = parameters[key][1]
    if re.search(r"TEST0\d", name):
        facts["run"] = "compliance test " + re.search(r"TEST0\d", name).group(0) + " (from the file name)"
    return Run(
        tool="MLPerf LoadGen",
        fmt="loadgen",
        figures=tuple(figures),
        workload=workload,
        scenario=scenario,
        versions={},
        facts=facts,
    )


def _stat(metric: str, key: str, stats: dict[str, tuple[int, str]], name: str) -> Figure:
    line, value = stats[key]
    return _ns_figure(metric, line, key, value, name)


def _unit(metric: str) -> str:
    return METRICS[metric][0]


def read_detail(name: str, text: str) -> dict[str, tuple[int, object]]:
    """The ``:::MLLOG`` records of a detail log as key -> (line, value); a malformed record is refused.

    Raises
    ------
    MeasureError
        When a line after the ``:::MLLOG`` marker is not a JSON object with a ``key``.
    """
    records: dict[str, tuple[int, object]] = {}
    issues: list[Issue] = []
    for index, line in enumerate(text.split("\n"), start=1):
        if not line.startswith(DETAIL_MARK):
            continue
        try:
            record = json.loads(line[len(DETAIL_MARK) :])
        except json.JSONDecodeError as exc:
            issues.append(Issue("ERROR", name, index, None, f"`:::MLLOG` record is not JSON ({exc.msg}); truncated?"))
            continue
        if isinstance(record, dict) and isinstance(record.get("key"), str):
            records.setdefault(record["key"], (index, record.get("value")))
    if issues:
        raise MeasureError(issues[:5])
    if "result_validity" not in records:
        raise refuse(name, None, "the detail log has no `result_validity` record; it looks truncated")
    return records


def with_detail(run: Run, summary_name: str, detail_name: str, text: str) -> Run:
    """`run` completed from its detail log: LoadGen version and test date, after checking both are one run.

    Raises
    ------
    MeasureError
        When the detail log is malformed, INVALID, or disagrees with the summary on scenario or validity.
    """
    records = read_detail(detail_name, text)
    line, validity = records["result_validity"]
    if validity != "VALID":
        raise refuse(detail_name, line, f"result_validity is `{validity}`; expected VALID (as the summary says)")
    if "effective_scenario" in records:
        line, scenario = records["effective_scenario"]
        if scenario != run.scenario:
            raise refuse(
                detail_name,
                line,
                f"scenario `{scenario}` differs from `{run.scenario}` in {PurePath(summary_name).name}: "
                "the two logs are not from the same run",
            )
    versions = dict(run.versions)
    facts = dict(run.facts)
    if "loadgen_version" in records:
        versions["LoadGen"] = str(records["loadgen_version"][1])
    if "test_datetime" in records:
        facts["test date"] = str(records["test_datetime"][1])
    return Run(
        run.tool,
        run.fmt,
        run.figures,
        run.workload,
        run.precision,
        run.batch,
        run.scenario,
        versions,
        run.hardware_names,
        run.subject,
        facts,
    )
