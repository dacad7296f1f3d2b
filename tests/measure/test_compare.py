"""Tests of selector/measure/compare.py and of benchmark outputs uploaded through selector/uploads/: a measured
figure appears beside the published one with the ratio, both conditions and a warning per differing condition;
the My data page shows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from selector import measure
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from selector.measure import compare
from selector.uploads import intake
from tests.conftest import FIXTURES, KNOWLEDGE

ROOT = Path(__file__).resolve().parents[2]
KB = knowledge.load()
LOADGEN = FIXTURES / "measure" / "loadgen"

# A user's own run, as `measure ingest` or a hand-written upload would give it: ONNX Runtime on an A100 (the
# article's table) at fp16 and batch 8, and the same runtime on a CPU server.
MINE = b"""
sources:
  - {id: user-bench, kind: user, title_en: My runs, language: en}
claims:
  - id: my-ort-a100
    source: user-bench
    tier: measured
    kind: benchmark
    text_en: My ONNX Runtime run on an A100.
    about: [onnxruntime, a100]
    subject: onnxruntime
    metric: throughput
    value: 1900
    unit: img/s
    conditions: {workload: resnet-50 image classification, hardware: a100, precision: fp16, batch: "8"}
  - id: my-ort-xeon
    source: user-bench
    tier: measured
    kind: benchmark
    text_en: My ONNX Runtime run on a Xeon server.
    about: [onnxruntime, intel-xeon]
    subject: onnxruntime
    metric: throughput
    value: 250
    unit: img/s
    conditions: {workload: resnet-50 image classification, hardware: intel-xeon}
"""


@pytest.fixture(scope="module")
def mine() -> intake.UploadResult:
    result = intake.validate_upload("my_runs.yaml", MINE, KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]
    return result


def pair(found: list[compare.Comparison], measured: str, published: str) -> compare.Comparison:
    (item,) = [c for c in found if c.measured_claim == measured and c.reference_claim == published]
    return item


def test_measured_beside_the_articles_figure_with_ratio_and_warnings(mine: intake.UploadResult) -> None:
    found = compare.comparisons(mine.kb)
    article = KB.claims["c004-bench-onnxruntime-throughput"]
    same = pair(found, "my-ort-a100", article.id)
    assert same.ratio == pytest.approx(1900 / article.value)
    assert same.sentence == f"the article (004) says 2,500 img/s; your run says 1,900 img/s ({1900 / 2500:.2f}x)"
    assert same.warnings == (
        "precision: the article (004) does not state it (yours: fp16)",
        "batch: the article (004) does not state it (yours: 8)",
    )
    assert same.criteria == ("throughput-resnet50-a100",), "it fills the article's cell (measured > claimed)"
    assert ("hardware", "a100", "a100") in same.conditions
    other = pair(found, "my-ort-xeon", article.id)
    assert "hardware differs: NVIDIA A100 (the article (004)) vs Intel Xeon (yours)" in other.warnings
    assert other.criteria == ()


def test_different_units_give_no_ratio() -> None:
    target = KB.claims["c003-mi300x-sd-throughput"]  # "images/s", Stable Diffusion 512x512
    extra = (
        b"  - {id: my-mi300x-sd, source: user-bench, tier: measured, kind: benchmark, text_en: SD on my MI300X.,"
        b" about: [mi300x], metric: throughput, value: 40, unit: img/s,"
        b" conditions: {workload: stable-diffusion-xl text-to-image, scenario: Offline}}\n"
    )
    result = intake.validate_upload("mine.yaml", MINE + extra, KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]
    item = pair(compare.comparisons(result.kb), "my-mi300x-sd", target.id)
    assert item.ratio is None and "units differ" in item.sentence
    assert any(w.startswith("model differs") for w in item.warnings)
    assert "units differ: images/s vs img/s" in item.warnings


def test_a_loadgen_summary_uploads_as_measured_claims_with_the_chosen_hardware() -> None:
    summary = next(LOADGEN.glob("*Cisco*llama3.1-8b__Offline.mlperf_log_summary.txt"))
    refused = intake.validate_upload(summary.name, summary.read_bytes(), KNOWLEDGE)
    assert not refused.ok and any("--entity" in i.message and i.file == summary.name for i in refused.issues)
    options = measure.Options(entity="h200", accelerators=8)
    result = intake.validate_upload(summary.name, summary.read_bytes(), KNOWLEDGE, measured=options)
    assert result.ok, [str(i) for i in result.issues]
    assert result.upload.name == f"{summary.name}.measured.yaml" and result.original == result.upload
    measured = [c for c in result.kb.claims.values() if c.tier == "measured"]
    assert {c.subject_id for c in measured} == {"h200"}
    assert {c.conditions.workload for c in measured} == {"llama3.1-8b"}
    again = intake.validate_upload(result.upload.name, result.upload.data, KNOWLEDGE)
    assert again.ok, "the converted file re-validates alone (what a profile or a link carries)"


def test_an_invalid_loadgen_upload_names_file_and_line() -> None:
    summary = next(LOADGEN.glob("*resnet50__Offline*.mlperf_log_summary.txt"))
    text = summary.read_bytes().replace(b"Result is : VALID", b"Result is : INVALID")
    result = intake.validate_upload(summary.name, text, KNOWLEDGE, measured=measure.Options(entity="h200"))
    assert not result.ok
    (issue,) = result.errors
    line = text.split(b"\n").index(b"Result is : INVALID") + 1
    assert issue.file == summary.name and issue.line == line and "VALID" in issue.message


@pytest.mark.app
def test_my_data_shows_measured_beside_published(mine: intake.UploadResult) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["uploads"] = [Upload("my_runs.yaml", MINE)]
    at.run()
    at = at.switch_page("app_pages/my_data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(m.value.replace("\\", "") for m in at.markdown)
    assert "your run says 1,900 img/s (0.76x)" in shown
    assert "batch: the article (004) does not state it (yours: 8)" in shown
    assert any(s.value == "Your measurements beside the published figures" for s in at.subheader)


def test_the_report_marks_measured_cells_and_lists_measured_beside_published(mine: intake.UploadResult) -> None:
    from selector.decision.preferences import Preferences
    from selector.report import build, render

    built = build.build_report(mine.kb, Preferences(group="gpu-inference-runtimes"), samples=0)
    text = render.render_markdown(built)
    row = next(line for line in text.split("\n") if line.startswith("| Throughput, ResNet-50 on A100 (img/s)"))
    assert "1,900 (your measurement)" in row and row.count("(your measurement)") == 1
    assert "your run says 1,900 img/s (0.76x)" in text
    assert "Warning: hardware differs: NVIDIA A100 (the article (004)) vs Intel Xeon (yours)" in text
    assert "your measurement</span>" in render.render_html(built)
    bundled = render.render_markdown(build.build_report(KB, Preferences(group="gpu-inference-runtimes"), samples=0))
    assert "your measurement" not in bundled


@pytest.mark.app
def test_recommend_lists_measured_cells_and_the_comparison() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["uploads"] = [Upload("my_runs.yaml", MINE)]
    at.query_params["group"] = "gpu-inference-runtimes"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(s.value == "Your measurements beside the published figures" for s in at.subheader)
    captions = " ".join(c.value.replace("\\", "") for c in at.caption)
    assert "Cells filled by your own measurements (tier measured, ranked first): ONNX Runtime / Throughput" in captions
    shown = " ".join(m.value.replace("\\", "") for m in at.markdown)
    assert "the article (004) says 2,500 img/s; your run says 1,900 img/s (0.76x)" in shown


def test_a_figure_is_checked_against_the_ranges_of_the_columns_it_can_fill_only() -> None:
    # 250 img/s on a Xeon is far below the A100 column's value scale 1000-5000, but it can never fill that column.
    result = intake.validate_upload("my_runs.yaml", MINE, KNOWLEDGE)
    warned = [i for i in result.issues if i.level == "WARNING" and i.record == "my-ort-xeon"]
    assert warned == []
    low = MINE.replace(b"value: 1900", b"value: 190")
    (error,) = [i for i in intake.validate_upload("low.yaml", low, KNOWLEDGE).issues if i.record == "my-ort-a100"]
    assert error.level == "ERROR"
    assert "outside the value scale [1000, 5000] (img/s) of criterion `throughput-resnet50-a100`" in error.message
