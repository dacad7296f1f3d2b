"""Tests of selector/measure/trtexec.py and selector/measure/hardware.py on real trtexec logs: figures equal the
log's performance summary, the batch scales throughput, the device maps to an entity only through the alias table,
and failed or truncated runs are refused."""

from __future__ import annotations

import math
import re

import pytest

from selector import measure
from selector.knowledge import loading as knowledge
from selector.measure import hardware, trtexec
from tests.conftest import FIXTURES

FP32 = FIXTURES / "measure" / "trtexec_h100_fp32.log"
BATCH4 = FIXTURES / "measure" / "trtexec_h100_engine_batch4.log"
KB = knowledge.load()
# The logs ran on an H100 PCIe card; h100-pcie is bundled (catalogue-2026, Epoch AI's row), so the bundled
# knowledge detects it directly, never as the SXM part (issue 32's audit).
KB_H100 = KB


def summary_value(text: str, label: str, stat: str) -> float:
    line = next(x for x in text.split("\n") if f"] {label}:" in x)
    return float(re.search(rf"{re.escape(stat)} = ([0-9.e+-]+) ms", line).group(1))


@pytest.mark.parametrize("log", [FP32, BATCH4], ids=["fp32", "engine-batch4"])
def test_figures_equal_the_performance_summary(log) -> None:  # noqa: ANN001 - a Path
    text = log.read_text()
    run = trtexec.read(log.name, text)
    figures = {f.metric: f.value for f in run.figures}
    qps = float(re.search(r"\] Throughput: ([0-9.e+-]+) qps", text).group(1))
    shape = re.search(r"shape : \w+=(\d+)x", text) or re.search(r"binding for \w+ with dimensions (\d+)x", text)
    batch = int(shape.group(1))
    assert figures["queries_per_second"] == qps
    assert math.isclose(figures["samples_per_second"], qps * batch, rel_tol=1e-12)
    assert figures["latency_ms"] == summary_value(text, "Latency", "median")
    assert figures["latency_p99_ms"] == summary_value(text, "Latency", "percentile(99%)")
    assert figures["gpu_compute_median_ms"] == summary_value(text, "GPU Compute Time", "median")
    assert run.versions == {"TensorRT": "10.16.1"}
    assert run.hardware_names == ("NVIDIA H100 PCIe",)


def test_batch_and_precision_come_from_the_log() -> None:
    assert trtexec.read(FP32.name, FP32.read_text()).precision == "FP32"
    assert trtexec.read(FP32.name, FP32.read_text()).batch == "1"
    engine = trtexec.read(BATCH4.name, BATCH4.read_text())
    assert engine.batch == "4" and engine.precision is None  # a loaded engine does not print its precision


def test_the_device_maps_through_the_table_and_must_be_defined() -> None:
    assert hardware.match("NVIDIA H100 PCIe") == "h100-pcie"
    assert hardware.match("NVIDIA H100 80GB HBM3") == "h100"  # the SXM part as nvidia-smi names it
    assert hardware.match("NVIDIA GH200 480GB") == "gh200"
    assert hardware.match("NVIDIA GeForce RTX 4080") is None
    files = [(FP32.name, FP32.read_bytes())]
    # A device the table knows but the knowledge does not define is not guessed (GH200 has no entity).
    entity, why = hardware.resolve(("NVIDIA GH200 480GB",), KB.entities)
    assert entity is None and "`gh200`" in why and "does not define" in why
    ingested = measure.ingest(files, measure.Options(workload="mnist cnn"), KB_H100)
    (claim,) = [c for c in ingested.document["claims"] if c["metric"] == "samples_per_second"]
    assert claim["subject"] == "tensorrt" and claim["conditions"]["hardware"] == "h100-pcie"
    assert claim["about"] == ["tensorrt", "h100-pcie"]
    assert claim["conditions"]["precision"] == "FP32" and claim["conditions"]["version"] == "TensorRT 10.16.1"


def test_a_failed_run_and_a_truncated_log_are_refused() -> None:
    text = FP32.read_text()
    failed = text.replace("&&&& PASSED", "&&&& FAILED")
    with pytest.raises(measure.MeasureError) as caught:
        trtexec.read("x.log", failed)
    assert "did not pass" in caught.value.issues[0].message
    lines = failed.split("\n")
    assert caught.value.issues[0].line == next(i for i, x in enumerate(lines, start=1) if "FAILED" in x)
    cut = "\n".join(text.split("\n")[:200])
    with pytest.raises(measure.MeasureError) as caught:
        trtexec.read("x.log", cut)
    assert "truncated" in caught.value.issues[0].message and caught.value.issues[0].line == 200


def test_a_build_only_run_measured_nothing() -> None:
    text = FP32.read_text()
    start = text.index("=== Performance summary ===")
    no_summary = text[: text.rfind("\n", 0, start)] + "\n" + text[text.index("&&&& PASSED") :]
    with pytest.raises(measure.MeasureError) as caught:
        trtexec.read("build.log", no_summary)
    assert "measured nothing" in caught.value.issues[0].message
