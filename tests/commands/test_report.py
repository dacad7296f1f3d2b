"""The ``report`` command: writes the report in the chosen format; bad input exits 2 saying what to fix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from selector.__main__ import main

# Left to `make test` (marked slow: tests/conftest.py): the command end to end, a whole report per call.
pytestmark = pytest.mark.slow


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_markdown_report_with_weights_and_answers(tmp_path, capsys):
    out = tmp_path / "decision.md"
    code, stdout, _ = _run(
        capsys,
        "--group",
        "gpu-inference-runtimes",
        "--answer",
        "goal=industrial",
        "--weights",
        "performance=60,cost=20",
        "--samples",
        "200",
        "-o",
        str(out),
    )
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Inference engines on NVIDIA GPUs: ")  # the group's name since issue 32
    assert "## Decision Outcome" in text and "## Evidence Appendix" in text
    assert re.search(r"\| Performance \(性能\) \| 60 \| 40 \|", text)
    assert "| What is the main goal of the project? (项目的主要目标是什么？) | Industrial deployment" in text
    assert "w=cost%3D20%2Cperformance%3D60" in text  # the reproduce link carries the weights
    assert str(out) in stdout and "recommended" in stdout


def test_format_follows_the_file_name_and_flags_pass_through(tmp_path, capsys):
    out = tmp_path / "page.html"
    code, _, _ = _run(
        capsys,
        "--group",
        "edge-accelerators",
        "--method",
        "topsis",
        "--exclude-flagged",
        "--samples",
        "0",
        "-o",
        str(out),
    )
    assert code == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg ") == 2  # weights and scores: no robustness
    assert "TOPSIS" in page and "excluded" in page


def test_markdown_to_stdout(capsys):
    code, stdout, _ = _run(capsys, "--group", "mobile-runtimes", "--samples", "0", "--format", "md", "-o", "-")
    assert code == 0
    assert "## Context and Problem Statement" in stdout


@pytest.mark.subprocess
def test_pdf_report(tmp_path, capsys):
    pytest.importorskip("weasyprint", reason="WeasyPrint (and its Pango libraries) is needed for PDF output")
    out = tmp_path / "decision.pdf"
    code, _, err = _run(capsys, "--group", "mobile-runtimes", "--samples", "100", "--format", "pdf", "-o", str(out))
    assert code == 0, err
    assert out.read_bytes()[:5] == b"%PDF-"


def test_profile_supplies_the_preferences(tmp_path, capsys):
    profile = pytest.importorskip("selector.profile", reason="decision profiles are not available")
    from selector.decision.preferences import Preferences

    saved = tmp_path / "profile.yaml"
    prefs = Preferences(group="datacenter-accelerators", dimension_weights={"cost": 55}, method="topsis")
    saved.write_text(profile.dump(profile.make(prefs)), encoding="utf-8")
    out = tmp_path / "from-profile.md"
    code, _, err = _run(capsys, "--profile", str(saved), "--samples", "0", "-o", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Datacenter accelerators: ")
    assert "TOPSIS" in text and re.search(r"\| Cost \(成本\) \| 55 \| 25 \|", text)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--group", "no-such-group", "-o", "x.md"], "unknown group `no-such-group`"),
        (["--group", "mobile-runtimes", "--weights", "performance=lots", "-o", "x.md"], "not a number"),
        (["--group", "mobile-runtimes", "--weights", "speed=10", "-o", "x.md"], "unknown dimension"),
        (["--group", "mobile-runtimes", "--answer", "goal=fun", "-o", "x.md"], "not an answer to `goal`"),
        (["--group", "mobile-runtimes", "--method", "magic", "-o", "x.md"], "unknown method"),
        (["--group", "mobile-runtimes", "--missing", "guess", "-o", "x.md"], "not a policy"),
        (["--group", "mobile-runtimes", "-o", "report.txt"], "cannot tell the format"),
        (["--group", "mobile-runtimes", "--format", "pdf", "-o", "-"], "cannot go to stdout"),
        (["--group", "mobile-runtimes", "--samples", "-5", "-o", "x.md"], "--samples"),
        (["--group", "mobile-runtimes", "--app-url", "file:///etc", "-o", "x.md"], "http://"),
        (["--group", "mobile-runtimes", "--review-by", "soon", "-o", "x.md"], "review_by"),
        (["--group", "mobile-runtimes", "--deciders", "a\u202eb", "-o", "x.md"], "deciders"),
        (["--profile", "no/such/profile.yaml", "-o", "x.md"], "cannot read --profile"),
        (["-o", "x.md"], "give --group"),
    ],
)
def test_bad_input_exits_2_with_what_to_fix(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert not (Path(tmp_path) / "x.md").exists()


def test_front_matter_options_and_the_base_address_from_the_environment(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("AI_STACK_SELECTOR_URL", "https://selector.example.org/")
    out = tmp_path / "adr.md"
    argv = ["--group", "edge-accelerators", "--samples", "0", "--status", "accepted", "--deciders", "Ana, Bo"]
    code, _, _ = _run(capsys, *argv, "--consulted", "Ops", "--review-by", "2027-01-31", "-o", str(out))
    assert code == 0
    text = out.read_text(encoding="utf-8")
    for line in ("- Status: accepted", "- Deciders: Ana, Bo", "- Consulted: Ops", "- Review by: 2027-01-31"):
        assert line in text
    assert "(<https://selector.example.org/?group=edge-accelerators>)" in text


def test_without_a_base_address_the_link_is_relative(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("AI_STACK_SELECTOR_URL", raising=False)
    out = tmp_path / "adr.md"
    assert _run(capsys, "--group", "edge-accelerators", "--samples", "0", "-o", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    assert "(<?group=edge-accelerators>)" in text and "127.0.0.1" not in text
    assert "`group` = edge-accelerators" in text


def test_unwritable_output_exits_2(tmp_path, capsys):
    code, _, err = _run(capsys, "--group", "mobile-runtimes", "--samples", "0", "-o", str(tmp_path / "none" / "r.md"))
    assert code == 2 and "cannot write" in err and "folder does not exist" in err


_IMPORTS_OF = (
    "import runpy, sys\n"
    "sys.argv = ['selector', *sys.argv[1:]]\n"
    "try:\n    runpy.run_module('selector', run_name='__main__')\n"
    "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
    "print(' '.join(m for m in ('skcriteria', 'weasyprint', 'kaleido', 'plotly') if m in sys.modules))\n"
)


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("fmt", "imported"),
    # the PDF's WeasyPrint is imported by its worker process (selector.report.pdf.PdfWorker), not by this one
    [("md", "skcriteria"), ("html", "skcriteria"), ("pdf", "skcriteria")],
    ids=["markdown", "html", "pdf"],
)
def test_a_report_imports_only_the_libraries_its_format_needs(tmp_path, fmt, imported):
    # a whole process, as a script runs it: WeasyPrint belongs to the PDF; the report's charts need no plotly
    import subprocess
    import sys

    if fmt == "pdf":
        try:
            import weasyprint  # noqa: F401
        except (ImportError, OSError) as exc:
            pytest.skip(f"WeasyPrint or its system libraries are missing: {exc}")
    root = Path(__file__).resolve().parents[2]
    argv = ["report", "--group", "training-frameworks", "--samples", "50", "-o", str(tmp_path / f"r.{fmt}")]
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS_OF, *argv], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == imported


def test_a_profile_with_elicited_weights_gives_a_report_saying_so(tmp_path, capsys):
    from selector import profile
    from selector.decision.elicitation import Elicitation, percentages
    from selector.decision.preferences import Preferences

    record = Elicitation(method="swing", answers=("performance=100", "cost=20", "ecosystem=60", "risk=20"))
    weights = percentages(record.result(["performance", "cost", "ecosystem", "risk"]).weights)
    saved = tmp_path / "profile.yaml"
    prefs = Preferences(group="gpu-inference-runtimes", dimension_weights=weights, elicitation=record)
    saved.write_text(profile.dump(profile.make(prefs)), encoding="utf-8")
    out = tmp_path / "decision.md"
    code, _, err = _run(capsys, "--profile", str(saved), "--samples", "0", "-o", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8").replace("\\", "")
    assert "**How the weights were elicited:** swing weighting (Performance 50.0%, Cost 10.0%" in text
    assert "- Ecosystem: 60 (60 % of the first swing)" in text
    # weights given on the command line replace the profile's: the record no longer describes them
    code, _, err = _run(
        capsys, "--profile", str(saved), "--weights", "performance=10", "--samples", "0", "-o", str(out)
    )
    assert code == 0, err
    assert "How the weights were elicited" not in out.read_text(encoding="utf-8")
