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

import re
from dataclasses import dataclass
from pathlib import PurePath

from selector.io import rawtext
from selector.issues import Issue
from selector.measure.common import (
    METRICS,
    Figure,
    MeasureError,
    Run,
    figure_number,
    refuse,
    throughput_metric,
)

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
    nanoseconds = figure_number(name, line, key, value, "nanoseconds")
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
    summary = _Summary(name, _pairs(text), text.rstrip("\n").count("\n") + 1)
    scenario = _valid_scenario(summary)
    _check_invalid_anywhere(summary)
    _check_stated_once(summary)
    _check_closing_line(summary, text)
    parameters = summary.section("Test Parameters Used")
    if not parameters:
        raise refuse(name, summary.last_line, "the summary has no `Test Parameters Used` section; it looks truncated")
    workload = workload_from_path(name)
    figures = _headline(summary, scenario, workload)
    if scenario != "Offline":
        figures += _additional_stats(summary.section("Additional Stats"), name)
    facts = {"validity": "VALID", "SUT": summary.results.get("SUT name", (0, "?"))[1]}
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


@dataclass(frozen=True)
class _Summary:
    """A summary's ``key : value`` lines and what a refusal names (the file, its last line for a missing line)."""

    name: str
    pairs: list[tuple[int, str, str, str]]
    last_line: int

    def section(self, heading: str) -> dict[str, tuple[int, str]]:
        """key -> (line, value) of the lines under HEADING (a key written twice keeps its last line)."""
        return {key: (line, value) for line, section, key, value in self.pairs if section == heading}

    @property
    def results(self) -> dict[str, tuple[int, str]]:
        """The lines of the results section itself (scenario, mode, validity, headline figures)."""
        return self.section(SUMMARY_MARK)

    def need(self, key: str, expected: str) -> tuple[int, str]:
        """(line, value) of a results line the summary must have."""
        found = self.results
        if key not in found:
            raise refuse(self.name, self.last_line, f"the summary has no `{key} : ...` line; expected {expected}")
        return found[key]


def _check_invalid_anywhere(summary: _Summary) -> None:
    """A summary that says INVALID on any line is refused, whatever a later line says (the last line does not win)."""
    for line, _, key, value in summary.pairs:
        if re.match(r"INVALID\b", value.strip().upper()):
            raise refuse(
                summary.name,
                line,
                f"`{key[:40]} : INVALID`; only a run LoadGen calls VALID throughout is evidence (expected VALID)",
            )


def _check_stated_once(summary: _Summary) -> None:
    """A line of a section written twice with different values makes the file ambiguous: refused, naming both."""
    seen: dict[tuple[str, str], tuple[int, str]] = {}
    for line, section, key, value in summary.pairs:
        first = seen.setdefault((section, key), (line, value))
        if first[1] != value:
            raise refuse(
                summary.name,
                line,
                f"`{key[:40]}` is stated twice with different values (`{first[1][:30]}` on line {first[0]}, "
                f"`{value[:30]}` here); give LoadGen's summary as it wrote it",
            )


def _valid_scenario(summary: _Summary) -> str:
    """The run's scenario, once the summary says it is a VALID performance run of a known scenario."""
    name = summary.name
    scenario_line, scenario = summary.need("Scenario", "one of " + ", ".join(SCENARIOS))
    if scenario not in SCENARIOS:
        raise refuse(name, scenario_line, f"scenario `{scenario[:40]}` is not one of {', '.join(SCENARIOS)}")
    mode_line, mode = summary.need("Mode", "PerformanceOnly")
    if mode != "PerformanceOnly":
        raise refuse(
            name, mode_line, f"mode `{mode[:40]}`: only a PerformanceOnly run measures speed (expected PerformanceOnly)"
        )
    valid_line, validity = summary.need("Result is", "VALID")
    if validity != "VALID":
        failed = [key for _, section, key, value in summary.pairs if section == SUMMARY_MARK and value.upper() == "NO"]
        why = f" (not satisfied: {', '.join(failed)})" if failed else ""
        raise refuse(
            name,
            valid_line,
            f"`Result is : {validity[:20]}`{why}; only a VALID LoadGen run is evidence (expected `Result is : VALID`)",
        )
    return scenario


def _check_closing_line(summary: _Summary, text: str) -> None:
    """LoadGen closes a complete summary with its error count: none, or the file is refused."""
    lines = text.split("\n")
    closing = [i for i, line in enumerate(lines, start=1) if "errors encountered" in line]
    if not closing:
        raise refuse(
            summary.name,
            summary.last_line,
            "the file ends without LoadGen's closing `No errors encountered during test.` line; it looks truncated",
        )
    # every closing line counts: errors reported once are not undone by a later `No errors encountered`
    failed = next((i for i in closing if "No errors encountered" not in lines[i - 1]), None)
    if failed is not None:
        raise refuse(summary.name, failed, "LoadGen reported errors during the test (expected `No errors encountered`)")


def _headline(summary: _Summary, scenario: str, workload: str | None) -> list[Figure]:
    """The scenario's result: throughput (Offline, Server, Interactive), else the latency percentile LoadGen reports."""
    if scenario in ("Offline", "Server", "Interactive"):
        if scenario == "Offline":
            samples, tokens = ("Samples per second",), ("Tokens per second",)
        else:
            samples = ("Completed samples per second", "Scheduled samples per second")
            tokens = ("Completed tokens per second", "Tokens per second")
        figures = _rate(summary, throughput_metric(workload), samples)
        if not figures:
            raise refuse(
                summary.name, summary.last_line, f"the {scenario} summary has no `{samples[0]}` line (its result)"
            )
        return figures + _rate(summary, "tokens_per_second", tokens)
    results = summary.results
    headline = [(line, key, value) for key, (line, value) in results.items() if _HEADLINE_PERCENTILE.match(key)]
    if not headline:
        raise refuse(
            summary.name, summary.last_line, f"the {scenario} summary has no `NN.Nth percentile latency (ns)` line"
        )
    line, key, value = headline[0]
    percentile = _HEADLINE_PERCENTILE.match(key).group(1).rstrip("0").rstrip(".")
    return [_ns_figure("latency_ms", line, key, value, summary.name, f"p{percentile} per query")]


def _rate(summary: _Summary, metric: str, keys: tuple[str, ...]) -> list[Figure]:
    """The first of KEYS among the results, as a figure of METRIC; none when the summary has none of them."""
    results = summary.results
    for key in keys:
        if key in results:
            line, value = results[key]
            rate = figure_number(summary.name, line, key, value, _unit(metric))
            return [Figure(metric, rate, _unit(metric), key, line, value, None)]
    return []


def _additional_stats(stats: dict[str, tuple[int, str]], name: str) -> list[Figure]:
    """Latency percentiles, time to first and per output token, mean latency and QPS with LoadGen's overhead."""
    figures = []
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
        qps = figure_number(name, line, "QPS w/ loadgen overhead", value, "queries/s")
        figures.append(Figure("queries_per_second", qps, "queries/s", "QPS w/ loadgen overhead", line, value, None))
    return figures


def _stat(metric: str, key: str, stats: dict[str, tuple[int, str]], name: str) -> Figure:
    line, value = stats[key]
    return _ns_figure(metric, line, key, value, name)


def _unit(metric: str) -> str:
    return METRICS[metric][0]


#: The detail log's records this reader uses (others, such as generic messages, repeat by design).
_DETAIL_READ = frozenset({"result_validity", "effective_scenario", "loadgen_version", "test_datetime"})


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
            record = rawtext.load_json(name, line[len(DETAIL_MARK) :], max_depth=16, hint="; truncated?")
        except rawtext.RawTextError as exc:
            message = exc.issues[0].message
            issues.append(Issue("ERROR", name, index, None, f"`:::MLLOG` record: {message}"))
            continue
        if isinstance(record, dict) and isinstance(record.get("key"), str):
            key, value = record["key"], record.get("value")
            if key == "result_validity" and value != "VALID":
                # any record saying so refuses the run: a later VALID one does not undo it
                issues.append(
                    Issue("ERROR", name, index, None, f"result_validity is `{str(value)[:20]}`; expected VALID")
                )
            first = records.setdefault(key, (index, value))
            if key in _DETAIL_READ and first[1] != value:
                message = f"`{key}` is stated twice with different values (line {first[0]} and here); one run per file"
                issues.append(Issue("ERROR", name, index, None, message))
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
