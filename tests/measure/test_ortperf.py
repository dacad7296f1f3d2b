"""Tests of selector/measure/ortperf.py on real onnxruntime_perf_test outputs (ResNet-50 v2 on one Arm C1-Pro core,
with and without SME2 kernels): figures equal the output's lines, the batch is the user's to state, and truncated
output is refused."""

from __future__ import annotations

import math
import re

import pytest

from selector import measure
from selector.io import yamlio
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from selector.measure import ortperf
from selector.uploads import intake
from tests.conftest import FIXTURES, KNOWLEDGE

RUNS = sorted((FIXTURES / "measure").glob("ort_perf_test_*.txt"))
C1 = Upload(
    "c1.yaml", b"entities:\n  - {id: arm-c1-pro, name: Arm C1-Pro core, kind: accelerator, segment: mobile_client}\n"
)
KB = knowledge.collect(KNOWLEDGE, extra=[C1])[0]


def line_value(text: str, label: str) -> float:
    return float(re.search(rf"^{re.escape(label)}: ([0-9.e+-]+)", text, re.MULTILINE).group(1))


@pytest.mark.parametrize("path", RUNS, ids=[p.stem for p in RUNS])
def test_figures_equal_the_outputs_lines(path) -> None:  # noqa: ANN001 - a Path
    text = path.read_text()
    run = ortperf.read(path.name, text, batch="1")
    figures = {f.metric: f.value for f in run.figures}
    assert figures["queries_per_second"] == line_value(text, "Number of inferences per second")
    assert figures["samples_per_second"] == figures["queries_per_second"]
    assert figures["latency_mean_ms"] == line_value(text, "Average inference time cost total")
    assert math.isclose(figures["latency_ms"], line_value(text, "P50 Latency") * 1e3, rel_tol=1e-12)
    assert math.isclose(figures["latency_p99_ms"], line_value(text, "P99 Latency") * 1e3, rel_tol=1e-12)
    assert run.subject == "onnxruntime" and run.facts["intra-op threads"] == "1"
    assert measure.detect(path.name, path.read_bytes()) == "ort-perf-test"


def test_ingest_needs_hardware_and_model_and_gives_image_throughput_for_resnet() -> None:
    path = RUNS[0]
    files = [(path.name, path.read_bytes())]
    with pytest.raises(measure.MeasureError) as caught:
        measure.ingest(files, measure.Options(), KB)
    messages = " ".join(i.message for i in caught.value.issues)
    assert "--entity" in messages and "--model" in messages
    options = measure.Options(
        entity="arm-c1-pro", workload="resnet-50 image classification", batch="1", precision="fp32"
    )
    document = measure.ingest(files, options, KB).document
    claims = {c["metric"]: c for c in document["claims"]}
    assert claims["throughput"]["unit"] == "img/s" and claims["throughput"]["subject"] == "onnxruntime"
    assert claims["throughput"]["conditions"]["hardware"] == "arm-c1-pro"
    text = yamlio.dump_yaml(document).encode()
    assert intake.validate_upload("ort.yaml", text, KNOWLEDGE, others=[C1]).ok


def test_truncated_output_is_refused() -> None:
    text = RUNS[0].read_text()
    cut = text[: text.index("Number of inferences")]
    with pytest.raises(measure.MeasureError) as caught:
        ortperf.read("perf.txt", cut)
    assert "truncated" in caught.value.issues[0].message
