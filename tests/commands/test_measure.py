"""Tests of selector/commands/measure.py: ``measure ingest`` writes a valid upload or nothing (exit 2, every problem
named), and ``measure run`` prints progress, writes claims that upload cleanly and change a ranking, and leaves
no file when interrupted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from selector.__main__ import main
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import Upload
from selector.measure import probe
from selector.uploads import intake
from tests.conftest import FIXTURES, KNOWLEDGE, default_sigint

# Left to `make test` (marked slow: tests/conftest.py): the command end to end, with a measurement checked.
pytestmark = pytest.mark.slow

LOADGEN = FIXTURES / "measure" / "loadgen"
SUMMARIES = sorted(LOADGEN.glob("*.mlperf_log_summary.txt"))


def test_ingest_of_all_samples_writes_a_valid_upload(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "measured.yaml"
    code = main(["measure", "ingest", *map(str, SUMMARIES), "--entity", "h200", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert err.count("MLPerf LoadGen") == 12
    data = out.read_bytes()
    result = intake.validate_upload(out.name, data, KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]
    claims = [c for c in result.kb.claims.values() if c.tier == "measured"]
    assert len({c.source for c in claims}) == 12
    assert all(c.conditions.version.startswith("LoadGen ") for c in claims), "the detail logs beside were read"
    assert f"wrote {len(claims)} measured claim(s)" in err


def bad_files(tmp: Path) -> dict[str, Path]:
    text = SUMMARIES[0].read_text()
    files = {
        "invalid": text.replace("Result is : VALID", "Result is : INVALID"),
        "truncated": "\n".join(text.split("\n")[:12]),
        "unknown": "model,throughput\nresnet50,3200\n",
    }
    paths = {}
    for kind, content in files.items():
        path = tmp / kind / "llama2-70b-99" / "mlperf_log_summary.txt"
        path.parent.mkdir(parents=True)
        path.write_text(content)
        paths[kind] = path
    return paths


@pytest.mark.parametrize("kind", ["invalid", "truncated", "unknown"])
def test_a_bad_file_exits_2_with_file_and_line_and_writes_nothing(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = bad_files(tmp_path)[kind]
    out = tmp_path / "out.yaml"
    code = main(["measure", "ingest", str(SUMMARIES[1]), str(path), "--entity", "mi300x", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert not out.exists() and not list(tmp_path.glob(".out.yaml.*"))
    assert re.search(rf"ERROR {re.escape(str(path))}:\d+: ", err), err
    assert "nothing written" in err


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out.yaml"
    assert main(["measure", "ingest", str(tmp_path / "nope.txt"), "-o", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err and not out.exists()


def rank_of(kb: knowledge.KnowledgeBase, group: str) -> list[str]:
    return [r.id for r in recommend.recommend(kb, Preferences(group=group)).ranking]


def test_probe_output_uploads_and_changes_the_datacenter_ranking(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "probe.yaml"
    group = "datacenter-accelerators"
    code = main(["measure", "run", "--seconds", "1", "--group", group, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "warming up" in err and re.search(r"\d+ batches of 1 in [\d.]+ s on CPUExecutionProvider", err)
    result = intake.validate_upload(out.name, out.read_bytes(), KNOWLEDGE)
    assert result.ok and not result.errors, [str(i) for i in result.issues]
    machine = next(e.id for e in result.kb.entities.values() if e.id.startswith("machine-"))
    before, after = rank_of(knowledge.load(), group), rank_of(result.kb, group)
    assert machine in after and after != before
    rec = recommend.recommend(result.kb, Preferences(group=group))
    column = rec.matrix.criteria.index("throughput-resnet50-device")
    row = rec.matrix.alternatives.index(machine)
    cell = rec.matrix.cells[row][column]
    assert cell.tier == "measured" and not cell.imputed
    assert "throughput-resnet50-device" not in {e.id for e in rec.matrix.excluded_criteria}
    bundled = recommend.recommend(knowledge.load(), Preferences(group=group)).matrix
    assert "throughput-resnet50-device" in {e.id for e in bundled.excluded_criteria}


def test_an_interrupted_probe_leaves_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(probe, "run", interrupted)
    out = tmp_path / "probe.yaml"
    assert main(["measure", "run", "--seconds", "1", "-o", str(out)]) == 130
    assert "nothing written" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_ingest_accepts_an_entity_from_the_users_other_upload(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # h100 is bundled now (Epoch, MLPerf): the user's own machine entity stands in for a chip the knowledge lacks.
    extra = tmp_path / "lab.yaml"
    extra.write_bytes(
        b"entities:\n  - {id: lab-h100-pcie, name: Lab H100 PCIe, kind: accelerator, segment: datacenter}\n"
    )
    out = tmp_path / "trt.yaml"
    log = FIXTURES / "measure" / "trtexec_h100_fp32.log"
    args = ["measure", "ingest", str(log), "--model", "mnist cnn", "--entity", "lab-h100-pcie", "--extra", str(extra)]
    code = main([*args, "-o", str(out)])
    assert code == 0, capsys.readouterr().err
    others = [Upload(extra.name, extra.read_bytes())]
    merged = intake.validate_upload(out.name, out.read_bytes(), KNOWLEDGE, others=others)
    assert merged.ok and any(c.conditions.hardware == "lab-h100-pcie" for c in merged.kb.claims.values())


def test_a_probe_attributed_to_an_entity_says_it_ran_on_the_cpu(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "xeon.yaml"
    assert main(["measure", "run", "--seconds", "0.2", "--entity", "intel-xeon", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "the run used the CPU" in err and "`intel-xeon`" in err
    result = intake.validate_upload(out.name, out.read_bytes(), KNOWLEDGE)
    assert result.ok and "entities" not in out.read_text()
    assert {c.subject_id for c in result.kb.claims.values() if c.tier == "measured"} == {"intel-xeon"}
    assert main(["measure", "run", "--entity", "intel-xeon", "--group", "edge-accelerators", "-o", str(out)]) == 2


@pytest.mark.subprocess
def test_ctrl_c_in_a_running_probe_exits_130_and_leaves_no_file(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "probe.yaml"
    command = [sys.executable, "-m", "selector", "measure", "run", "--seconds", "60", "-o", str(out)]
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(command, cwd=root, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    seen = ""
    deadline = time.monotonic() + 120
    while "batches" not in seen and time.monotonic() < deadline:  # interrupt once timing has started
        seen += proc.stderr.readline()
    proc.send_signal(signal.SIGINT)
    rest = proc.communicate(timeout=60)[1]
    assert "batches" in seen
    assert proc.returncode == 130 and "nothing written" in rest
    assert list(tmp_path.iterdir()) == []
