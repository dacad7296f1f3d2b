"""A figure stated twice with different values, a run that failed or was INVALID before it passed, two runs in one
file: mutations of the real benchmark outputs, raw snapshots and uploads, refused by every reader (the measure
readers, the importers, uploads and validate) with the line of the second statement; the same value twice is kept.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from selector import measure
from selector.__main__ import main
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from selector.uploads import intake
from tests.conftest import FIXTURES, KNOWLEDGE

KB = knowledge.load()
TRTEXEC = FIXTURES / "measure" / "trtexec_h100_fp32.log"
ORT = FIXTURES / "measure" / "ort_perf_test_c1pro_sme2.txt"
LLAMA = FIXTURES / "measure" / "llama_bench_rtx4080.json"
OFFLINE = FIXTURES / "measure" / "loadgen" / "closed__AMD__8xMI300X_2xEPYC_9575F__llama2-70b-99__Offline"
SUMMARY = Path(f"{OFFLINE}.mlperf_log_summary.txt")
DETAIL = Path(f"{OFFLINE}.mlperf_log_detail.txt")
TRT = {"entity": "h100", "workload": "mnist cnn"}


def ingest(files: list[tuple[str, str]], **options: str) -> None:
    pairs = [(name, text.encode("utf-8")) for name, text in files]
    measure.ingest(pairs, measure.Options(**{"entity": "h200", **options}), KB)


def refused(files: list[tuple[str, str]], **options: str) -> list:
    with pytest.raises(measure.MeasureError) as caught:
        ingest(files, **options)
    return list(caught.value.issues)


def line_of(text: str, fragment: str, nth: int = 0) -> int:
    """1-based line of the `nth` line (0: the first) that contains `fragment`."""
    return [i for i, line in enumerate(text.split("\n"), start=1) if fragment in line][nth]


def after(text: str, fragment: str, added: str) -> str:
    """`text` with the line `added` inserted after the first line containing `fragment`."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if fragment in line)
    return "\n".join([*lines[: at + 1], added, *lines[at + 1 :]])


# ------------------------------------------------------------------------------------------------------------ trtexec


def trtexec_line(fragment: str) -> str:
    return next(line for line in TRTEXEC.read_text().split("\n") if fragment in line)


def test_trtexec_throughput_stated_twice_with_different_values_is_refused_at_the_second() -> None:
    line = trtexec_line("Throughput: 15374.3 qps")
    text = after(TRTEXEC.read_text(), "Throughput: 15374.3 qps", line.replace("15374.3", "99999.9"))
    [issue] = refused([(TRTEXEC.name, text)], **TRT)
    assert issue.line == line_of(text, "99999.9") and "stated twice" in issue.message
    assert f"on line {line_of(text, '15374.3')}" in issue.message


def test_trtexec_summary_line_repeated_with_the_same_value_is_kept() -> None:
    line = trtexec_line("Throughput: 15374.3 qps")
    ingest([(TRTEXEC.name, after(TRTEXEC.read_text(), "Throughput: 15374.3 qps", line))], **TRT)


def test_trtexec_build_key_stated_twice_differently_is_refused() -> None:
    line = trtexec_line("Precision: FP32")
    text = after(TRTEXEC.read_text(), "Precision: FP32", line.replace("FP32", "FP16"))
    [issue] = refused([(TRTEXEC.name, text)], **TRT)
    assert issue.line == line_of(text, "Precision: FP16") and "`Precision`" in issue.message


def test_trtexec_two_runs_in_one_file_are_refused() -> None:
    text = TRTEXEC.read_text()
    doubled = text.rstrip("\n") + "\n" + text
    [issue] = refused([(TRTEXEC.name, doubled)], **TRT)
    assert "two runs" in issue.message and issue.line == line_of(doubled, "&&&& RUNNING", 1)


@pytest.mark.parametrize("verdict", ["&&&& FAILED", "[12/01/2026-10:00:00] [E] &&&& FAILED", "&&&& WAIVED"])
def test_trtexec_failure_anywhere_in_the_log_is_refused_even_with_a_pass_at_the_end(verdict: str) -> None:
    failed = f"{verdict} TensorRT.trtexec [TensorRT v101601] # trtexec"
    text = after(TRTEXEC.read_text(), "=== Performance summary ===", failed)
    [issue] = refused([(TRTEXEC.name, text)], **TRT)
    assert issue.line == line_of(text, verdict) and "did not pass" in issue.message


# ---------------------------------------------------------------------------------------------- onnxruntime_perf_test


def test_ort_rate_stated_twice_with_different_values_is_refused() -> None:
    text = after(ORT.read_text(), "Number of inferences per second", "Number of inferences per second: 99.5")
    [issue] = refused([(ORT.name, text)], workload="resnet50")
    assert issue.line == line_of(text, "99.5") and "stated twice" in issue.message


def test_ort_lines_it_does_not_read_may_repeat_as_the_tool_writes_them() -> None:
    # the real output writes `Avg CPU usage` twice, spelt differently; the reader does not use it
    assert ORT.read_text().count("Avg CPU usage") == 2
    ingest([(ORT.name, ORT.read_text())], workload="resnet50")


# ----------------------------------------------------------------------------------------------------------- LoadGen


def loadgen(summary: str | None = None, detail: str | None = None) -> list[tuple[str, str]]:
    return [
        (str(SUMMARY), summary if summary is not None else SUMMARY.read_text()),
        (str(DETAIL), detail if detail is not None else DETAIL.read_text()),
    ]


def test_loadgen_with_its_detail_log_is_read() -> None:
    ingest(loadgen())


def test_loadgen_errors_reported_before_a_no_errors_line_are_refused() -> None:
    text = SUMMARY.read_text().replace(
        "No errors encountered during test.", "3 errors encountered during test.\nNo errors encountered during test."
    )
    [issue] = refused(loadgen(summary=text))
    assert issue.line == line_of(text, "3 errors encountered") and "reported errors" in issue.message


def test_loadgen_invalid_with_a_reason_is_refused() -> None:
    text = SUMMARY.read_text().replace("Result is : VALID", "Result is : INVALID (min duration)\nResult is : VALID")
    [issue] = refused(loadgen(summary=text))
    assert issue.line == line_of(text, "INVALID") and "INVALID" in issue.message


def test_loadgen_detail_record_stated_twice_with_different_values_is_refused() -> None:
    text = DETAIL.read_text()
    record = next(line for line in text.split("\n") if '"key": "effective_scenario"' in line)
    mutated = after(text, '"key": "effective_scenario"', record.replace('"Offline"', '"Server"'))
    issues = refused(loadgen(detail=mutated))
    second = line_of(mutated, '"key": "effective_scenario"', 1)
    assert any(i.line == second and "stated twice" in i.message for i in issues), issues


def test_loadgen_detail_records_it_does_not_read_may_repeat() -> None:
    text = DETAIL.read_text()
    record = next(line for line in text.split("\n") if '"key": "effective_scenario"' in line)
    ingest(loadgen(detail=after(text, '"key": "effective_scenario"', record)))


# ------------------------------------------------------------------------------------------------------- llama-bench


def test_llama_bench_key_twice_in_one_entry_is_refused_with_its_line() -> None:
    text = LLAMA.read_text()
    entries = json.loads(text)
    rate = json.dumps(entries[0]["avg_ts"])
    mutated = text.replace(f'"avg_ts": {rate},', f'"avg_ts": {rate},\n    "avg_ts": 1.5,', 1)
    assert mutated != text
    [issue] = refused([(LLAMA.name, mutated)])
    assert issue.line == line_of(mutated, '"avg_ts"', 1) and "stated twice" in issue.message


# ---------------------------------------------------------------------------------------------------------- importers


def scratch(tmp_path: Path) -> Path:
    root = tmp_path / "knowledge"
    root.mkdir()
    for name in ("datasets.yaml", "metrics.yaml"):
        shutil.copy2(KNOWLEDGE / name, root / name)
    shutil.copytree(KNOWLEDGE / "entities", root / "entities")
    shutil.copytree(KNOWLEDGE / "imports", root / "imports")
    return root


def test_two_upstream_rows_stating_one_figure_are_refused_by_the_importer(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    root = scratch(tmp_path)
    raw = root / "imports" / "raw" / "epoch-ml-hardware" / "ml_hardware.csv"
    rows = list(csv.reader(io.StringIO(raw.read_text(encoding="utf-8"), newline="")))
    h100 = next(row for row in rows if row and row[0] == "NVIDIA H100 SXM5 80GB")
    copy = ["NVIDIA H100 SXM5 80GB (again)", *h100[1:]]
    copy[rows[0].index("TDP (W)")] = "650"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([*rows, copy])
    raw.write_text(out.getvalue(), encoding="utf-8")
    with (root / "imports" / "aliases.csv").open("a", encoding="utf-8") as aliases:
        aliases.write("epoch-ml-hardware,NVIDIA H100 SXM5 80GB (again),h100,\n")
    output = tmp_path / "out.yaml"
    status = main(["import", "epoch-ml-hardware", str(raw), "-o", str(output), "--knowledge", str(root)])
    err = capsys.readouterr().err
    assert status == 2 and "states claim `epoch-h100-tdp` again" in err and "700" in err and "650" in err, err
    assert "NVIDIA H100 SXM5 80GB (again)" in err and not output.exists()


def test_a_raw_json_key_twice_in_one_object_is_refused_by_the_importer(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    root = scratch(tmp_path)
    raw = root / "imports" / "raw" / "mlperf-inference-v5.1" / "summary_results.json"
    text = raw.read_text(encoding="utf-8")
    first = json.loads(text)[0]
    key = next(k for k, v in first.items() if isinstance(v, int | float) and not isinstance(v, bool))
    written = f"{json.dumps(key)}: {json.dumps(first[key])}"
    assert written in text
    raw.write_text(text.replace(written, f"{written}, {json.dumps(key)}: {json.dumps(first[key] + 1)}", 1))
    output = tmp_path / "out.yaml"
    status = main(["import", "mlperf-inference-v5.1", str(raw), "-o", str(output), "--knowledge", str(root)])
    err = capsys.readouterr().err
    assert status == 2 and "stated twice" in err and not output.exists(), err


# ------------------------------------------------------------------------------------------------ uploads and validate


CSV_HEAD = "entity,metric,value,unit,precision\n"


@pytest.mark.parametrize(
    ("rows", "ok"),
    [
        ("jetson-orin,power_w,40,W,\njetson-orin,power_w,45,W,\n", False),
        ("jetson-orin,power_w,40,W,\njetson-orin,power_w,40,W,\n", True),
        ("jetson-orin,power_w,40,W,int8\njetson-orin,power_w,45,W,fp16\n", True),
    ],
)
def test_a_csv_upload_stating_a_figure_twice_is_refused_unless_the_values_or_conditions_agree(
    rows: str, ok: bool
) -> None:
    result = intake.validate_upload("lab.csv", (CSV_HEAD + rows).encode(), KNOWLEDGE)
    assert result.ok is ok, [str(i) for i in result.issues]
    if not ok:
        [issue] = result.errors
        assert issue.line == 3 and "again with a different value (45 here, 40" in issue.message
        assert "lab.csv:2" in issue.message


def test_validate_refuses_a_figure_stated_twice_across_extra_files(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    first = FIXTURES / "uploads" / "good_new_chip.yaml"
    second = tmp_path / "second.yaml"
    second.write_text(
        "claims:\n  - id: u-second\n    source: user-fixture-lab\n    tier: measured\n    kind: benchmark\n"
        "    text_en: Again.\n    about: [fixture-npu]\n    metric: power_w\n    value: 1.5\n    unit: W\n"
    )
    assert main(["validate", "--extra", str(first), "--extra", str(second)]) == 2
    shown = "".join(capsys.readouterr())
    assert "second.yaml:9" in shown and "again with a different value" in shown


def test_a_claim_overriding_the_other_is_not_a_repetition() -> None:
    text = (FIXTURES / "uploads" / "good_new_chip.yaml").read_text()
    data = text.encode()
    first = intake.validate_upload("a.yaml", data, KNOWLEDGE)
    assert first.ok
    power = next(c for c in first.kb.claims.values() if c.source == "user-fixture-lab" and c.metric == "power_w")
    again = (
        "claims:\n  - id: u-fix\n    source: user-fixture-lab\n    tier: measured\n    kind: benchmark\n"
        f"    text_en: Corrected.\n    about: [fixture-npu]\n    metric: power_w\n    value: 1.5\n    unit: W\n"
        f"    overrides: {power.id}\n"
    )
    kb, issues = knowledge.collect(KNOWLEDGE, extra=[Upload("a.yaml", data), Upload("b.yaml", again.encode())])
    assert kb is not None, [str(i) for i in issues]
