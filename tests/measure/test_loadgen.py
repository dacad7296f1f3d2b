"""Tests of selector/measure/loadgen.py (through :func:`selector.measure.ingest`): every real LoadGen sample ingests to
claims equal to the file's own figures, read here independently with regular expressions; INVALID, truncated,
mismatched and incomplete logs are refused with file and line."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from selector import measure
from selector.knowledge import loading as knowledge
from selector.measure import loadgen
from tests.conftest import FIXTURES

LOADGEN = FIXTURES / "measure" / "loadgen"
SUMMARIES = sorted(LOADGEN.glob("*.mlperf_log_summary.txt"))
KB = knowledge.load()


def files_of(summary: Path) -> list[tuple[str, bytes]]:
    detail = Path(measure.detail_name(str(summary)))
    return [(str(summary), summary.read_bytes()), (str(detail), detail.read_bytes())]


def claims_of(summary: Path, **options: object) -> list[dict]:
    opts = measure.Options(**{"entity": "h200", **options})
    return measure.ingest(files_of(summary), opts, KB).document["claims"]


def by_metric(claims: list[dict]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for claim in claims:
        found.setdefault(claim["metric"], []).append(claim)
    return found


def field(text: str, label: str) -> str | None:
    """The value of the first ``label : value`` line (any spacing around the colon), read without the reader."""
    match = re.search(rf"^{re.escape(label)}\s*:\s*(\S+)\s*$", text, re.MULTILINE)
    return match.group(1) if match else None


def test_there_are_twelve_real_samples_with_their_detail_logs() -> None:
    assert len(SUMMARIES) == 12
    for summary in SUMMARIES:
        assert Path(measure.detail_name(str(summary))).is_file()
    assert (LOADGEN / "LICENSE").read_text().startswith("\n                                 Apache License")


@pytest.mark.parametrize("summary", SUMMARIES, ids=[s.name[:70] for s in SUMMARIES])
def test_every_sample_ingests_to_the_files_own_figures(summary: Path) -> None:
    text = summary.read_text()
    claims = claims_of(summary)
    metrics = by_metric(claims)
    scenario = field(text, "Scenario")
    assert {c["conditions"]["scenario"] for c in claims} == {scenario}
    if scenario == "Offline":
        expected = float(field(text, "Samples per second"))
        rate = metrics.get("throughput") or metrics["samples_per_second"]
        assert [c["value"] for c in rate] == [expected]
        assert not [m for m in metrics if "latency" in m], "an Offline run's latency is one query of every sample"
    elif scenario == "Server":
        expected = float(field(text, "Completed samples per second"))
        rate = metrics.get("throughput") or metrics["samples_per_second"]
        assert [c["value"] for c in rate] == [expected]
    else:
        match = re.search(r"^(\d+\.\d)th percentile latency \(ns\)\s*:\s*(\d+)$", text, re.MULTILINE)
        (claim,) = metrics["latency_ms"]
        assert math.isclose(claim["value"], int(match.group(2)) / 1e6, rel_tol=1e-12)
        assert claim["conditions"]["scope"] == f"p{match.group(1).rstrip('0').rstrip('.')} per query"
    tokens = field(text, "Tokens per second") or field(text, "Completed tokens per second")
    if tokens:
        assert [c["value"] for c in metrics["tokens_per_second"]] == [float(tokens)]
    else:
        assert "tokens_per_second" not in metrics
    if scenario != "Offline":
        for percentile in ("50", "90", "99"):
            metric = f"latency_p{percentile}_ms"
            ns = int(field(text, f"{percentile}.00 percentile latency (ns)"))
            assert math.isclose(metrics[metric][0]["value"], ns / 1e6, rel_tol=1e-12)
        ttft = field(text, "99.00 percentile first token latency (ns)")
        if ttft:
            assert math.isclose(metrics["ttft_p99_ms"][0]["value"], int(ttft) / 1e6, rel_tol=1e-12)


@pytest.mark.parametrize("summary", SUMMARIES, ids=[s.name[:70] for s in SUMMARIES])
def test_every_claim_points_at_the_line_it_came_from(summary: Path) -> None:
    lines = summary.read_text().split("\n")
    for claim in claims_of(summary):
        match = re.search(r"line (\d+): `([^`]+)`", claim["note"])
        line, raw = int(match.group(1)), match.group(2)
        assert raw in lines[line - 1], (claim["id"], lines[line - 1])
        factor = 1e6 if claim["unit"] == "ms" else 1.0
        assert math.isclose(claim["value"], float(raw) / factor, rel_tol=1e-12)


def test_claims_carry_hash_versions_workload_and_the_users_entity() -> None:
    summary = LOADGEN / "closed__Cisco__C845A_H200_NVLx8_TRT__llama3.1-8b__Offline.mlperf_log_summary.txt"
    document = measure.ingest(files_of(summary), measure.Options(entity="h200"), KB).document
    digest = __import__("hashlib").sha256(summary.read_bytes()).hexdigest()
    assert digest in document["sources"][0]["title_en"]
    detail = Path(measure.detail_name(str(summary))).read_text()
    version = re.search(r'"key": "loadgen_version", "value": "([^"]+)"', detail).group(1)
    for claim in document["claims"]:
        assert claim["tier"] == "measured" and claim["subject"] == "h200"
        assert claim["conditions"]["hardware"] == "h200"
        assert claim["conditions"]["workload"] == "llama3.1-8b"
        assert claim["conditions"]["version"] == f"LoadGen {version}"
        assert digest in claim["note"]
        assert "does not state the precision" in claim["note"]


def test_accelerator_count_adds_derived_per_device_figures() -> None:
    summary = LOADGEN / "closed__AMD__8xMI300X_2xEPYC_9575F__llama2-70b-99__Offline.mlperf_log_summary.txt"
    text = summary.read_text()
    claims = by_metric(claims_of(summary, entity="mi300x", accelerators=8))
    (system,) = claims["tokens_per_second"]
    (per_device,) = claims["tokens_per_s_per_accelerator"]  # the MLPerf import's metric and unit
    assert system["conditions"]["scope"] == "system" and per_device["conditions"]["scope"] == "per device"
    assert system["value"] == float(field(text, "Tokens per second"))
    assert math.isclose(per_device["value"], system["value"] / 8, rel_tol=1e-12)
    assert per_device["unit"] == "tokens/s per accelerator (derived)"
    assert "derived" in per_device["text_en"]
    samples = {c["conditions"]["scope"]: c["value"] for c in claims["samples_per_second"]}
    rate = float(field(text, "Samples per second"))
    assert samples == {"system": rate, "per device": rate / 8}


def refused(files: list[tuple[str, bytes]], **options: object) -> list:
    with pytest.raises(measure.MeasureError) as caught:
        measure.ingest(files, measure.Options(**{"entity": "h200", **options}), KB)
    return list(caught.value.issues)


def test_an_invalid_run_is_refused_at_its_result_line() -> None:
    summary = SUMMARIES[0]
    text = summary.read_text().replace("Result is : VALID", "Result is : INVALID")
    text = text.replace("Min duration satisfied : Yes", "Min duration satisfied : NO")
    (issue,) = refused([(summary.name, text.encode())])
    line = text.split("\n").index("Result is : INVALID") + 1
    assert (issue.file, issue.line) == (summary.name, line)
    assert "VALID" in issue.message and "Min duration satisfied" in issue.message


@pytest.mark.parametrize("keep", [5, 20, 30])
def test_a_truncated_summary_is_refused(keep: int) -> None:
    summary = next(s for s in SUMMARIES if "resnet50__Offline" in s.name)
    text = "\n".join(summary.read_text().split("\n")[:keep])
    (issue,) = refused([(summary.name, text.encode())])
    assert issue.file == summary.name and issue.line is not None
    assert "truncated" in issue.message or "no `" in issue.message


def test_an_accuracy_run_is_refused() -> None:
    text = SUMMARIES[0].read_text().replace("Mode     : PerformanceOnly", "Mode     : AccuracyOnly")
    (issue,) = refused([("mlperf_log_summary.txt", text.encode())])
    assert "PerformanceOnly" in issue.message and issue.line == 6


def test_a_detail_log_from_another_run_is_refused() -> None:
    offline = LOADGEN / "closed__AMD__8xMI300X_2xEPYC_9575F__llama2-70b-99__Offline.mlperf_log_summary.txt"
    server_detail = Path(measure.detail_name(str(offline)).replace("Offline", "Server"))
    detail_name = measure.detail_name(str(offline))
    issues = refused([(str(offline), offline.read_bytes()), (detail_name, server_detail.read_bytes())])
    assert any("not from the same run" in i.message and i.file == detail_name for i in issues)


def test_a_detail_log_alone_is_refused() -> None:
    detail = Path(measure.detail_name(str(SUMMARIES[0])))
    (issue,) = refused([(str(detail), detail.read_bytes())])
    assert "give" in issue.message and "summary" in issue.message


def test_the_user_names_the_model_and_hardware_when_the_file_does_not() -> None:
    text = SUMMARIES[0].read_bytes()
    issues = refused([("run_1/mlperf_log_summary.txt", text)], entity=None)
    messages = " ".join(i.message for i in issues)
    assert "--entity" in messages and "--model" in messages
    ok = measure.ingest(
        [("run_1/mlperf_log_summary.txt", text)], measure.Options(entity="mi300x", workload="llama2-70b-99"), KB
    )
    assert {c["conditions"]["workload"] for c in ok.document["claims"]} == {"llama2-70b-99"}


def test_the_benchmark_is_read_from_a_submission_path() -> None:
    path = "results/8xMI300X/llama2-70b-99.9/Offline/performance/run_1/mlperf_log_summary.txt"
    assert loadgen.workload_from_path(path) == "llama2-70b-99.9"
    assert loadgen.workload_from_path("a/b/mlperf_log_summary.txt") is None
