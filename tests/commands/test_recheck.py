"""The ``recheck`` command: a report or profile re-ranked on today's knowledge; exit 0 holds, 1 changed, 2 bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from selector import profile, record
from selector.__main__ import main
from selector.decision.preferences import Preferences
from selector.knowledge import importers

# Weights under which the INT8 compute decides between the edge modules (the module memory weighs nothing)
DECISIVE = (
    "--group",
    "edge-accelerators",
    "--weights",
    "performance=80,cost=10,ecosystem=5,risk=5",
    "--criterion-weights",
    "tops-int8=1,module-memory-gb=0",
)
# The Edge TPU's INT8 figure from Coral's datasheet (issue 32): a refreshed snapshot changes it in the raw table, and
# the import is regenerated, as a maintainer would.
CLAIM = "datasheet-edge-tpu-int8"
LEADER = "NVIDIA Jetson AGX Orin 64GB"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _report(capsys, path: Path, *extra: str) -> Path:
    code, _, err = _run(capsys, "report", *DECISIVE, "--samples", "200", *extra, "-o", str(path))
    assert code == 0, err
    return path


def _set_claim_value(knowledge_dir: Path, claim_id: str, old: str, new: str) -> None:
    """Change the Edge TPU's INT8 TOPS in the copy's raw datasheet table and regenerate its import."""
    assert claim_id == CLAIM
    raw = knowledge_dir / "imports" / "raw" / "vendor-datasheets" / "datasheets.csv"
    text = raw.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("Google Coral USB Accelerator,"))
    assert row.endswith(f",{old},2,0,,,")  # INT8 (dense), power, memory, price, basis, NPU INT8
    raw.write_text(text.replace(row, row[: -len(f"{old},2,0,,,")] + f"{new},2,0,,,"), encoding="utf-8")
    yaml_text, _ = importers.run("vendor-datasheets", [raw], knowledge_dir)
    (knowledge_dir / importers.OUTPUTS["vendor-datasheets"]).write_text(yaml_text, encoding="utf-8")


@pytest.fixture
def report_md(tmp_path, capsys) -> Path:
    return _report(capsys, tmp_path / "decision.md")


def test_a_changed_decisive_claim_changes_the_decision_naming_the_claim_both_values_and_the_new_leader(
    report_md, knowledge_copy, capsys
):
    _set_claim_value(knowledge_copy, CLAIM, "4", "1000")
    code, out, _ = _run(capsys, "recheck", str(report_md), "--knowledge", str(knowledge_copy))
    assert code == 1, out
    assert "The decision changed" in out and f"the new leader is Google Edge TPU (it was {LEADER})" in out
    changed = [line for line in out.splitlines() if CLAIM in line]
    assert changed == [
        f"Changed: Google Edge TPU, INT8 compute, dense (TOPS): 4 (claims {CLAIM}, tier reference) then, "
        f"1,000 (claims {CLAIM}, tier reference) now"
    ]
    code, out, _ = _run(capsys, "recheck", str(report_md), "--knowledge", str(knowledge_copy), "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["exit"] == 1 and data["holds"] is False
    assert data["leader"] == {"then": "jetson-orin", "now": "edge-tpu"}
    assert data["cells"] == [
        {
            "alternative": "edge-tpu",
            "criterion": "tops-int8",
            "changed": ["value"],
            "before": {"value": 4.0, "tier": "reference", "claims": [CLAIM], "imputed": False},
            "after": {"value": 1000.0, "tier": "reference", "claims": [CLAIM], "imputed": False},
        }
    ]
    assert data["robustness"]["then"] != data["robustness"]["now"]
    assert data["data_hash"]["then"] != data["data_hash"]["now"]


def test_unchanged_knowledge_holds_in_every_report_format(tmp_path, report_md, knowledge_copy, capsys):
    html = _report(capsys, tmp_path / "decision.html")
    for path in (report_md, html):
        code, out, _ = _run(capsys, "recheck", str(path), "--knowledge", str(knowledge_copy))
        assert code == 0, out
        assert out.startswith(f"The decision holds: {LEADER} is still recommended")
        assert "No ranked cell, option or decision rule changed." in out
        then_now = re.search(rf"first\): (\d+)% then \({LEADER}\), (\d+)% now", out)
        assert then_now and then_now.group(1) == then_now.group(2)


@pytest.mark.subprocess
def test_a_pdf_report_is_rechecked_from_its_embedded_record(tmp_path, capsys):
    pytest.importorskip("weasyprint")
    path = tmp_path / "decision.pdf"
    code, _, err = _run(capsys, "report", *DECISIVE, "--samples", "0", "-o", str(path))
    if code != 0:
        pytest.skip(f"PDF output unavailable here: {err}")
    code, out, _ = _run(capsys, "recheck", str(path))
    assert code == 0 and "The decision holds" in out


def test_a_change_under_a_decision_that_holds_exits_0_or_1_with_strict(report_md, knowledge_copy, capsys):
    _set_claim_value(knowledge_copy, CLAIM, "4", "5")  # closer, still far behind
    code, out, _ = _run(capsys, "recheck", str(report_md), "--knowledge", str(knowledge_copy))
    assert code == 0 and "1 cell(s) changed under it" in out and f"claims {CLAIM}" in out
    code, _, _ = _run(capsys, "recheck", str(report_md), "--knowledge", str(knowledge_copy), "--strict")
    assert code == 1


def test_a_report_of_the_previous_format_is_refused_with_a_clear_message(report_md, tmp_path, capsys):
    old = tmp_path / "old.md"
    old.write_text(report_md.read_text(encoding="utf-8").split("\n## Decision record")[0], encoding="utf-8")
    code, out, err = _run(capsys, "recheck", str(old))
    assert code == 2 and out == ""
    assert f"error: {old}: it carries no decision record: reports and profiles written before `recheck`" in err
    assert "python -m selector report" in err


def test_an_altered_record_is_refused(report_md, capsys):
    text = report_md.read_text(encoding="utf-8")
    report_md.write_text(text.replace('"value": 4.0', '"value": 40.0', 1), encoding="utf-8")
    code, _, err = _run(capsys, "recheck", str(report_md))
    assert code == 2 and "its decision record was altered after it was written" in err


def test_other_bad_input_exits_2_saying_what_is_wrong(report_md, tmp_path, capsys):
    code, _, err = _run(capsys, "recheck", str(tmp_path / "missing.md"))
    assert code == 2 and "missing.md" in err
    code, _, err = _run(capsys, "recheck", str(report_md), "--knowledge", str(tmp_path / "nowhere"))
    assert code == 2 and "does not exist" in err
    picture = tmp_path / "x.pdf"
    picture.write_bytes(b"%PDF-1.4\n%%EOF\n")
    code, _, err = _run(capsys, "recheck", str(picture))
    assert code == 2 and "carries no decision record" in err


def test_settings_the_knowledge_no_longer_has_mean_the_decision_changed(report_md, monkeypatch, capsys):
    from selector import recheck
    from selector.decision.preferences import PreferenceError

    def gone(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise PreferenceError("group `edge-accelerators` is not in the knowledge")

    monkeypatch.setattr(recheck, "recheck", gone)
    code, out, _ = _run(capsys, "recheck", str(report_md))
    assert code == 1
    assert out.startswith("The decision changed: its settings cannot be ranked on today's knowledge: group")


def test_uploads_are_digested_and_a_recheck_without_them_says_so(tmp_path, capsys):
    upload = Path(__file__).resolve().parents[1] / "fixtures" / "uploads" / "good_orin_power.csv"
    path = _report(capsys, tmp_path / "mine.md", "--extra", str(upload))
    sealed = record.read(path.read_bytes(), "mine.md")
    assert sealed.uploads.files == ("good_orin_power.csv",)
    assert sealed.uploads.digest == record.uploads_digest([("good_orin_power.csv", upload.read_bytes())])
    code, out, _ = _run(capsys, "recheck", str(path), "--extra", str(upload))
    assert code == 0 and "Note:" not in out and "No ranked cell" in out
    code, out, _ = _run(capsys, "recheck", str(path))
    assert "Note: your files differ: the decision was ranked with good_orin_power.csv" in out
    assert "tier measured" in out  # the cell the upload filled is back to the published figure


def test_a_profile_carries_its_record_and_its_uploads(tmp_path, capsys, bundled_knowledge):
    from selector.decision.recommend import recommend
    from selector.knowledge import loading as knowledge

    prefs = Preferences(group="edge-accelerators")
    kb = knowledge.load()
    rec = recommend(kb, prefs)
    sealed = record.build(
        kb, rec, leader_first=None, samples=0, seed=0, generated_at="2026-01-01T00:00:00Z", app_version="t"
    )
    path = tmp_path / "p.yaml"
    path.write_text(profile.dump(profile.make(prefs, record=record.to_text(sealed))), encoding="utf-8")
    code, out, _ = _run(capsys, "recheck", str(path))
    assert code == 0 and "not computed then" in out
    path.write_text(profile.dump(profile.make(prefs)), encoding="utf-8")
    code, _, err = _run(capsys, "recheck", str(path))
    assert code == 2 and "carries no decision record" in err
