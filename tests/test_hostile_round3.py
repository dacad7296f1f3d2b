"""Hostile input, round three: mutations of the real benchmark outputs and raw snapshots, files on disk, numbers at a
boundary. Each case is one the third probe found handled wrongly (a traceback, a hang or a silently wrong value);
each must now be refused with file, line and what was expected, or handled, and exit 2 from the command line.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from selector import measure
from selector.__main__ import main
from selector.knowledge import loading as knowledge
from selector.measure import llamabench
from tests.conftest import FIXTURES, default_sigint

ROOT = Path(__file__).resolve().parents[1]
KNOWLEDGE = ROOT / "knowledge"
LLAMA = FIXTURES / "measure" / "llama_bench_rtx4080.json"
TRTEXEC = FIXTURES / "measure" / "trtexec_h100_fp32.log"
LOADGEN = sorted((FIXTURES / "measure" / "loadgen").glob("*resnet50__Offline*.mlperf_log_summary.txt"))[0]
KB = knowledge.load()


def refused(name: str, data: bytes, **options: object) -> list:
    with pytest.raises(measure.MeasureError) as caught:
        measure.ingest([(name, data)], measure.Options(**{"entity": "h200", **options}), KB)
    return list(caught.value.issues)


def llama_entries() -> list[dict]:
    return json.loads(LLAMA.read_text())


# ---------------------------------------------------------------------------------------------------------- readers


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (True, "a boolean"),
        ("12.5", "a string"),
        (None, "null"),
        (-5.0, "out of range"),
        (2e7, "out of range"),
        ({"mean": 1}, "an object"),
    ],
)
def test_llama_bench_avg_ts_that_is_not_a_rate_is_refused_at_its_entry(value: object, fragment: str) -> None:
    entries = llama_entries()
    entries[1]["avg_ts"] = value
    text = json.dumps(entries, indent=2)
    [issue] = refused("bench.json", text.encode())
    opening = [i + 1 for i, line in enumerate(text.split("\n")) if line == "  {"]
    assert issue.line == opening[1] and "avg_ts" in issue.message and fragment in issue.message


@pytest.mark.parametrize("literal", ["9" * 400, "9" * 5000, "1e400"])
def test_llama_bench_numbers_beyond_bounds_are_refused_not_tracebacks(literal: str) -> None:
    text = LLAMA.read_text().replace('"n_threads": 8', '"n_threads": ' + literal, 1)
    [issue] = refused("bench.json", text.encode())
    assert issue.file == "bench.json" and issue.line is not None


def test_llama_bench_nested_thousands_deep_is_refused() -> None:
    text = LLAMA.read_text().replace('"poll": 50', '"poll": ' + "[" * 4000 + "]" * 4000, 1)
    [issue] = refused("bench.json", text.encode())
    assert "nested" in issue.message


def test_llama_bench_reader_is_linear_in_the_number_of_entries() -> None:
    entry = llama_entries()[0]

    def cost(n: int) -> float:
        text = json.dumps([{**entry, "n_prompt": 512 + i} for i in range(n)], indent=2)

        def once() -> float:
            start = time.perf_counter()
            assert len(llamabench.read("bench.json", text).figures) == n
            return time.perf_counter() - start

        # the best of three: a pause of this process (other tests on the same cores) only ever adds time
        return min(once() for _ in range(3))

    cost(200)
    small, large = cost(500), cost(5000)
    # the per-entry rescan from the file's start made 10x the entries cost ~100x
    assert large < 30 * max(small, 1e-3), (small, large)


def test_loadgen_invalid_then_valid_is_refused_at_the_invalid_line() -> None:
    text = LOADGEN.read_text()
    lines = text.split("\n")
    at = lines.index("Result is : VALID")
    lines.insert(at, "Result is : INVALID")
    [issue] = refused(LOADGEN.name, "\n".join(lines).encode())
    assert issue.line == at + 1 and "INVALID" in issue.message


def test_loadgen_figure_stated_twice_with_different_values_is_refused() -> None:
    text = LOADGEN.read_text()
    line = next(x for x in text.split("\n") if x.startswith("Samples per second"))
    doubled = text.replace(line, line + "\nSamples per second : 1.0", 1)
    [issue] = refused(LOADGEN.name, doubled.encode())
    assert "stated twice" in issue.message and issue.line == doubled.split("\n").index("Samples per second : 1.0") + 1


def test_loadgen_figure_stated_twice_with_the_same_value_is_kept() -> None:
    text = LOADGEN.read_text()
    line = next(x for x in text.split("\n") if x.startswith("Samples per second"))
    measure.ingest(
        [(LOADGEN.name, text.replace(line, line + "\n" + line, 1).encode())], measure.Options(entity="h200"), KB
    )


def test_loadgen_decimal_comma_is_refused_not_read_as_a_larger_number() -> None:
    text = LOADGEN.read_text()
    line = next(x for x in text.split("\n") if x.startswith("Samples per second"))
    [issue] = refused(LOADGEN.name, text.replace(line, "Samples per second : 700,5", 1).encode())
    assert "comma" in issue.message


def test_trtexec_failed_then_passed_is_refused_at_the_failed_line() -> None:
    text = TRTEXEC.read_text()
    passed = next(x for x in text.split("\n") if x.startswith("&&&& PASSED"))
    failed = passed.replace("PASSED", "FAILED")
    mutated = text.replace(passed, failed + "\n" + passed)
    [issue] = refused(TRTEXEC.name, mutated.encode(), entity="h100", workload="mnist cnn")
    assert issue.line == mutated.split("\n").index(failed) + 1 and "did not pass" in issue.message


def test_trtexec_kqps_is_read_as_thousands_of_queries() -> None:
    text = TRTEXEC.read_text().replace("Throughput: 15374.3 qps", "Throughput: 15.3743 kqps")
    run = measure.trtexec.read(TRTEXEC.name, text)
    qps = next(f for f in run.figures if f.metric == "queries_per_second")
    assert qps.value == pytest.approx(15374.3)


@pytest.mark.parametrize("value", ["1e", ".", "1e400", "9" * 45])
def test_trtexec_latency_that_is_not_a_number_is_refused_with_its_line(value: str) -> None:
    text = TRTEXEC.read_text()
    line = next(x for x in text.split("\n") if "] Latency: min" in x)
    mutated = text.replace(line, line.replace("median = ", f"median = {value} ms, was = ", 1))
    issues = refused(TRTEXEC.name, mutated.encode(), entity="h100", workload="mnist cnn")
    assert any(
        i.line == mutated.split("\n").index(mutated.split("\n")[text.split("\n").index(line)]) + 1 for i in issues
    )


def test_thousands_of_problems_are_capped_as_documented() -> None:
    entries = [{"build_commit": "8cf427ff", "avg_ts": "fast"}] * 1000
    issues = refused("bench.json", json.dumps(entries).encode())
    assert len(issues) == 201 and "more problem(s) not listed" in issues[-1].message


# ------------------------------------------------------------------------------------------ raw snapshots (imports)


def _scratch(tmp_path: Path, mutate) -> tuple[Path, Path]:  # noqa: ANN001
    root = tmp_path / "knowledge"
    dataset = "epoch-ml-hardware"
    (root / "imports" / "raw" / dataset).mkdir(parents=True)
    for name in ("datasets.yaml", "metrics.yaml"):
        shutil.copy2(KNOWLEDGE / name, root / name)
    shutil.copytree(KNOWLEDGE / "entities", root / "entities")
    shutil.copy2(KNOWLEDGE / "imports" / "aliases.csv", root / "imports" / "aliases.csv")
    raw = root / "imports" / "raw" / dataset / "ml_hardware.csv"
    original = (KNOWLEDGE / "imports" / "raw" / dataset / "ml_hardware.csv").read_text(encoding="utf-8")
    raw.write_text(mutate(original), encoding="utf-8")
    return root, raw


def _h100_row(text: str, column: str, value: str) -> str:
    import csv
    import io

    rows = list(csv.reader(io.StringIO(text, newline="")))
    index = rows[0].index(column)
    for row in rows[1:]:
        if row and row[0] == "NVIDIA H100 SXM5 80GB":
            row[index] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


@pytest.mark.parametrize(
    ("column", "value", "fragment"),
    [
        ("TDP (W)", "700,5", "comma"),
        ("TDP (W)", "-700", "cannot be negative"),
        ("TDP (W)", "0", "cannot be zero"),
        ("Memory size per board (Byte)", "80", "rounds to 0"),
        ("INT8 performance (OP/s)", "1e308", "out of range"),
        ("INT8 performance (OP/s)", "1e20", "above"),
        ("TDP (W)", "9" * 500, "characters"),
    ],
)
def test_implausible_raw_values_are_refused_by_the_importer(
    tmp_path: Path, capsys: pytest.CaptureFixture, column: str, value: str, fragment: str
) -> None:
    root, raw = _scratch(tmp_path, lambda text: _h100_row(text, column, value))
    output = tmp_path / "out.yaml"
    status = main(["import", "epoch-ml-hardware", str(raw), "-o", str(output), "--knowledge", str(root)])
    err = capsys.readouterr().err
    assert status == 2 and fragment in err and "nothing written" in err, err
    assert not output.exists()


def test_a_200_kb_csv_field_is_refused_with_its_row(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    root, raw = _scratch(tmp_path, lambda text: _h100_row(text, "Notes", "x" * 200_000))
    status = main(["import", "epoch-ml-hardware", str(raw), "-o", str(tmp_path / "o.yaml"), "--knowledge", str(root)])
    err = capsys.readouterr().err
    assert status == 2 and "line" in err and "CSV" in err


# ---------------------------------------------------------------------------------------------------- files on disk


def test_measure_ingest_refuses_devices_and_fifos_without_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    out = tmp_path / "out.yaml"
    assert main(["measure", "ingest", "/dev/zero", str(fifo), "-o", str(out), "--entity", "h200"]) == 2
    err = capsys.readouterr().err
    assert "/dev/zero: is a character device" in err and "pipe.json: is a named pipe" in err
    assert not out.exists()


def test_measure_ingest_refuses_an_extra_that_never_ends(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out.yaml"
    args = ["measure", "ingest", str(LLAMA), "-o", str(out), "--entity", "h200", "--extra", "/dev/zero"]
    assert main(args) == 2
    assert "/dev/zero: is a character device" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("target", ["/dev/null", "directory"])
def test_report_refuses_a_device_or_directory_as_output(
    tmp_path: Path, capsys: pytest.CaptureFixture, target: str
) -> None:
    path = str(tmp_path) if target == "directory" else target
    before = os.stat(path)
    assert main(["report", "--group", "mobile-runtimes", "--samples", "0", "--format", "md", "-o", path]) == 2
    assert "cannot write" in capsys.readouterr().err
    after = os.stat(path)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)


def _cli(*args: str, stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "selector", *args],
        cwd=ROOT,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
    )


@pytest.mark.subprocess
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("validate",), ("rank", "--group", "mobile-runtimes")])
def test_stdout_on_dev_full_exits_2_without_a_traceback(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        done = _cli(*args, stdout=full)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot write to standard output" in done.stderr


@pytest.mark.subprocess
def test_sensitivity_seed_minus_one_is_a_clean_exit_2() -> None:
    done = _cli("sensitivity", "--seed", "-1")
    assert done.returncode == 2 and "Traceback" not in done.stderr and "seed" in done.stderr


LONGEST_REPORT = ("--group", "llm-inference-accelerators")


@pytest.mark.subprocess
@pytest.mark.skipif(sys.platform != "linux", reason="process tree from /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_during_a_pdf_report_ends_every_child(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "r.pdf"
    proc = subprocess.Popen(
        # the longest report (about 37 pages): the signal must land while the worker still has seconds of layout
        # left; a short report could finish between seeing the worker and sending the signal on a loaded machine
        [sys.executable, "-m", "selector", "report", *LONGEST_REPORT, "--samples", "0", "-o", str(out)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=default_sigint,
    )
    deadline = time.monotonic() + 60
    children: list[int] = []
    while time.monotonic() < deadline and not children:
        children = _children(proc.pid)
        time.sleep(0.1)
    assert children, "the PDF worker did not start"
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signum and b"Traceback" not in err, err.decode(errors="replace")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in children):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in children)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_terminal_escapes_in_a_benchmark_file_never_reach_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    log = tmp_path / "trtexec.log"
    text = TRTEXEC.read_text().replace("Throughput: 15374.3 qps", "Throughput: \x1b]0;pwned\x07\x1b[2J15374.3 qps")
    log.write_text(text)
    assert main(["measure", "ingest", str(log), "-o", str(tmp_path / "o.yaml"), "--entity", "h100"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\\e]0;pwned" in err


def _commands_with_output(tmp_path: Path) -> dict[str, list[str]]:
    raw = KNOWLEDGE / "imports" / "raw" / "epoch-ml-hardware" / "ml_hardware.csv"
    return {
        "report": ["report", "--group", "mobile-runtimes", "--samples", "0", "--format", "md"],
        "measure ingest": ["measure", "ingest", str(LLAMA), "--entity", "h200"],
        "import": ["import", "epoch-ml-hardware", str(raw)],
    }


@pytest.mark.parametrize("command", ["report", "measure ingest", "import"])
@pytest.mark.parametrize(
    ("target", "why"),
    [
        ("/dev/full", "a device, pipe or socket"),
        ("/dev/null", "a device, pipe or socket"),
        ("directory", "a directory"),
        ("/sys/selector-output.yaml", "not writable"),
    ],
)
def test_every_command_refuses_an_output_it_cannot_write_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture, command: str, target: str, why: str
) -> None:
    if target.startswith("/sys/") and (os.geteuid() != 0 or not Path("/sys").is_dir()):
        pytest.skip("/sys refuses new files to root too (Linux); another user may write elsewhere")
    path = str(tmp_path) if target == "directory" else target
    before = (os.stat(path).st_mode, os.stat(path).st_ino) if os.path.exists(path) else None
    status = main([*_commands_with_output(tmp_path)[command], "-o", path])
    err = capsys.readouterr().err
    assert status == 2 and f"cannot write {path}: " in err and why in err and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == [] and not Path("/sys/selector-output.yaml").exists()
    if before is not None:
        assert (os.stat(path).st_mode, os.stat(path).st_ino) == before


@pytest.mark.parametrize("command", ["report", "import"])
def test_an_output_in_a_missing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture, command: str) -> None:
    path = tmp_path / "missing" / "out.yaml"
    assert main([*_commands_with_output(tmp_path)[command], "-o", str(path)]) == 2
    assert "the folder does not exist" in capsys.readouterr().err and list(tmp_path.iterdir()) == []
