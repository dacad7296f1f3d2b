"""Tests of ``python -m selector`` (command discovery) and its ``validate`` command, run as a user would."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from selector.__main__ import build_parser, discover, main
from tests.conftest import BROKEN, FIXTURES, ROOT


def selector(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "selector", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.mark.subprocess
def test_help_lists_the_commands() -> None:
    done = selector("--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())  # argparse wraps long help lines
    for module in discover():
        assert f"{module.NAME} {' '.join(module.HELP.split())}" in text


def test_every_command_module_is_discovered() -> None:
    names = [module.NAME for module in discover()]
    assert "validate" in names
    assert names == sorted(names)
    files = {p.stem for p in (ROOT / "selector" / "commands").glob("*.py") if not p.stem.startswith("_")}
    assert len(names) == len(files)


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    assert "COMMAND" in capsys.readouterr().err


@pytest.mark.subprocess
def test_listing_commands_imports_nothing_heavy() -> None:
    # Every command module is imported to build --help; pandas, skcriteria and friends belong inside run().
    code = (
        "import sys; from selector.__main__ import build_parser, discover; build_parser(discover()); "
        "print(' '.join(m for m in ('pandas', 'skcriteria', 'plotly', 'streamlit', 'pydantic', 'weasyprint') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


@pytest.mark.subprocess
def test_validate_accepts_the_bundled_knowledge() -> None:
    done = selector("validate")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.strip().splitlines()[-1]
    assert summary.startswith("knowledge valid: ")
    assert " claims (" in summary and "flagged)" in summary and "data hash " in summary


@pytest.mark.subprocess
def test_validate_reports_a_broken_extra_file_and_exits_2() -> None:
    fixture = BROKEN / "three_reference_errors.yaml"
    done = selector("validate", "--extra", str(fixture))
    assert done.returncode == 2
    lines = done.stdout.strip().splitlines()
    errors = sum(line.startswith(f"ERROR {fixture}") for line in lines)
    assert errors >= 3  # its three reference errors, and what an upload may not hold (article sources)
    assert lines[-1] == f"knowledge invalid: {errors} errors, 0 warnings"
    assert any("source `999` is not defined" in line for line in lines)


@pytest.mark.subprocess
def test_validate_json_lists_issues_as_objects() -> None:
    fixture = BROKEN / "unknown_source.yaml"
    done = selector("validate", "--extra", str(fixture), "--format", "json")
    assert done.returncode == 2
    report = json.loads(done.stdout)
    assert report["valid"] is False
    issue = next(i for i in report["issues"] if i["record"] == "cfix-unknown-source" and "999" in i["message"])
    assert issue == {
        "level": "ERROR",
        "file": str(fixture),
        "line": 4,
        "record": "cfix-unknown-source",
        "message": issue["message"],
    }
    assert "source `999`" in issue["message"]


@pytest.mark.subprocess
def test_validate_json_on_valid_knowledge_counts_records() -> None:
    done = selector("validate", "--format", "json")
    assert done.returncode == 0, done.stdout
    report = json.loads(done.stdout)
    assert report["valid"] is True
    assert report["counts"]["sources"] >= 3
    assert report["counts"]["claims"] > 0
    assert len(report["data_hash"]) == 16


@pytest.mark.subprocess
def test_validate_with_a_valid_extra_file_counts_it() -> None:
    without = json.loads(selector("validate", "--format", "json").stdout)
    extra = FIXTURES / "uploads" / "good_new_chip.yaml"
    done = selector("validate", "--extra", str(extra), "--format", "json")
    assert done.returncode == 0, done.stdout
    report = json.loads(done.stdout)
    from selector.uploads import intake

    added = intake.validate_upload(extra.name, extra.read_bytes()).upload
    assert report["counts"]["claims"] > without["counts"]["claims"]
    assert report["counts"]["entities"] > without["counts"]["entities"]
    assert added is not None
    assert report["data_hash"] != without["data_hash"]


@pytest.mark.subprocess
def test_validate_extra_refuses_what_an_upload_may_not_hold() -> None:
    # rules are the articles' decision model: a file adding one is knowledge, not an upload (use --knowledge DIR)
    done = selector("validate", "--extra", str(FIXTURES / "valid_extra.yaml"))
    assert done.returncode == 2
    assert "rules" in done.stdout


def _fixtures() -> list[Path]:
    folders = [FIXTURES / "uploads", FIXTURES / "hostile", FIXTURES / "limits", BROKEN]
    found = sorted(p for folder in folders if folder.is_dir() for p in folder.iterdir() if p.is_file())
    return [*found, FIXTURES / "valid_extra.yaml"]


@pytest.mark.slow
def test_validate_rank_and_my_data_accept_and_refuse_the_same_files(tmp_path: Path, capsys) -> None:
    from selector.knowledge import loading as knowledge
    from selector.uploads import csv_claims, intake

    template = tmp_path / "template.csv"
    template.write_bytes(csv_claims.csv_template())
    files = [template, *_fixtures()]
    verdicts = {}
    for path in files:
        validate_code = main(["validate", "--extra", str(path)])
        rank_code = main(["rank", "--group", "edge-accelerators", "--extra", str(path)])
        capsys.readouterr()
        # the My data page runs intake.validate_upload on the file's name and bytes (app_pages/my_data.py)
        page_ok = intake.validate_upload(path.name, path.read_bytes(), knowledge.DEFAULT_KNOWLEDGE).ok
        verdicts[path.name] = (validate_code == 0, rank_code == 0, page_ok)
        assert len(set(verdicts[path.name])) == 1, (path, "validate, rank, My data", verdicts[path.name])
    assert verdicts["template.csv"] == (True, True, True), "the app's own CSV template is accepted everywhere"
    assert any(v == (False, False, False) for v in verdicts.values())


@pytest.mark.subprocess
def test_validate_knowledge_option_reads_another_directory(knowledge_copy: Path) -> None:
    assert selector("validate", "--knowledge", str(knowledge_copy)).returncode == 0
    shutil.copy(BROKEN / "duplicate_id.yaml", knowledge_copy / "entities" / "zz_duplicate.yaml")
    done = selector("validate", "--knowledge", str(knowledge_copy))
    assert done.returncode == 2
    assert "ERROR knowledge/entities/zz_duplicate.yaml:3 record `pytorch`" in done.stdout


@pytest.mark.subprocess
def test_validate_missing_directory_exits_2(tmp_path: Path) -> None:
    done = selector("validate", "--knowledge", str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert "does not exist" in done.stdout


@pytest.mark.subprocess
def test_validate_several_extra_files(base_knowledge: Path) -> None:
    done = selector(
        "validate",
        "--knowledge",
        str(base_knowledge),
        "--extra",
        str(BROKEN / "unknown_key.yaml"),
        str(BROKEN / "yaml11_no.yaml"),
    )
    assert done.returncode == 2
    lines = done.stdout.strip().splitlines()
    assert any("unknown_key.yaml" in line for line in lines if line.startswith("ERROR"))
    assert any("yaml11_no.yaml" in line for line in lines if line.startswith("ERROR"))
    assert lines[-1].startswith("knowledge invalid: ")


def test_parser_exposes_validate_options() -> None:
    args = build_parser(discover()).parse_args(["validate", "--extra", "a.yaml", "b.yaml", "--format", "json"])
    assert [str(p) for p in args.extra] == ["a.yaml", "b.yaml"]
    assert args.format == "json"
    assert args.knowledge is None


@pytest.mark.subprocess
def test_validate_lists_disagreeing_claims_without_failing(tmp_path: Path) -> None:
    extra = tmp_path / "lab.yaml"
    extra.write_text(
        "sources:\n  - {id: user-lab, kind: user, title_en: Our lab}\n"
        "claims:\n  - {id: u-trt, source: user-lab, tier: measured, kind: benchmark, text_en: ours, about: [tensorrt],"
        " metric: throughput, value: 4000, unit: img/s, conditions: {workload: resnet-50 image classification,"
        " hardware: a100, task: inference}}\n",
        encoding="utf-8",
    )
    done = selector("validate", "--extra", str(extra))
    assert done.returncode == 0, done.stdout
    assert "CONFLICT disagreement: TensorRT, throughput: comparable claims disagree by 20%" in done.stdout
    report = json.loads(selector("validate", "--extra", str(extra), "--format", "json").stdout)
    assert any(c["kind"] == "disagreement" and "u-trt" in c["claims"] for c in report["conflicts"])


def test_validate_prints_the_pooled_share_over_the_groups_that_rank_or_store_our_ratings(capsys) -> None:
    """Issue 32: the pooled figure is printed (text and JSON) and equals the mean of the per-group shares."""
    assert main(["validate", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    pooled = report["rating_groups"]
    weighted = report["cell_shares"]["weighted_per_group"]
    assert {"training-frameworks", "datacenter-accelerators", "client-npus"} <= set(pooled["groups"])
    assert "llm-serving-engines" not in pooled["groups"]  # no rating criterion: it cannot dilute the pool
    by_hand = sum(weighted[g].get("assessed", 0.0) for g in pooled["groups"]) / len(pooled["groups"])
    assert pooled["pooled_assessed"] == pytest.approx(by_hand)
    assert main(["validate"]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("groups that rank or store")]
    assert f"pooled {by_hand:.0%} of the weight on assessed cells" in line
    assert ("MISSES" in line) == bool(pooled["misses"])
