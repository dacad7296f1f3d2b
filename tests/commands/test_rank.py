"""Tests of ``python -m selector rank``: its output agrees with selector.decision.recommend for the same preferences, in
every format; profiles and extra files are honoured; bad input exits 2 with a message saying what to fix."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from selector import profile, verdict
from selector.__main__ import main
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.decision.problem import METHODS
from selector.knowledge import loading as knowledge
from selector.report import spreadsheet
from selector.uploads import intake
from tests.conftest import FIXTURES, KNOWLEDGE, ROOT
from tests.hot_path import ONCE, counted_calls

# Left to `make test` (marked slow: tests/conftest.py): the command end to end, the whole knowledge per call.
pytestmark = pytest.mark.slow

UPLOADS = FIXTURES / "uploads"
KB = knowledge.load()
EDGE = "edge-accelerators"


def rank(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(["rank", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def as_json(rec: recommend.Recommendation) -> dict:
    return json.loads(json.dumps({**rec.to_dict(), "verdict": verdict.judge(rec).to_dict()}, ensure_ascii=False))


def core(payload: dict) -> dict:
    """The JSON output without what the command adds to the recommendation: provenance, unranked cells and what
    each dimension ranks."""
    rest = {
        k: v for k, v in payload.items() if k not in ("unranked_cells", "datasets", "dimension_basis", "workload_fit")
    }
    rest["cells"] = [{k: v for k, v in c.items() if k != "evidence_detail"} for c in payload["cells"]]
    return rest


@pytest.mark.subprocess
def test_help_lists_groups_questions_answers_and_methods() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "selector", "rank", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    for group in KB.groups:
        assert f"  {group} " in text
    for question in KB.questions.values():
        assert f"  {question.id} " in text
        for option in question.options:
            assert option.id in text
    for method in METHODS:
        assert f"  {method} " in text
    assert "impute-worst" in text


@pytest.mark.subprocess
def test_help_epilog_is_built_only_when_help_is_shown() -> None:
    code = (
        "import sys; from selector.__main__ import build_parser, discover; build_parser(discover()); "
        "print('selector.knowledge.loading' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_json_equals_the_recommendation(capsys: pytest.CaptureFixture) -> None:
    code, out, err = rank(capsys, "--group", EDGE, "--format", "json")
    assert code == 0, err
    assert core(json.loads(out)) == as_json(recommend.recommend(KB, Preferences(group=EDGE)))


def test_every_option_reaches_the_preferences(capsys: pytest.CaptureFixture) -> None:
    question = next(iter(KB.questions.values()))
    answer = question.options[-1].id
    criterion = KB.groups[EDGE].criteria[0].criterion
    prefs = Preferences(
        group=EDGE,
        answers={question.id: answer},
        dimension_weights={"performance": 70, "cost": 10},
        criterion_weights={criterion: 3},
        method="topsis",
        scaler="minmax",
        missing="impute-median",
        use_flagged=False,
    )
    code, out, err = rank(
        capsys,
        "--group",
        EDGE,
        "--answer",
        f"{question.id}={answer}",
        "--weights",
        "performance=70,cost=10",
        "--criterion-weights",
        f"{criterion}=3",
        "--method",
        "topsis",
        "--scaler",
        "minmax",
        "--missing",
        "impute-median",
        "--exclude-flagged",
        "--format",
        "json",
    )
    assert code == 0, err
    got = json.loads(out)
    assert core(got) == as_json(recommend.recommend(KB, prefs))
    assert (got["method"], got["scaler"], got["missing_policy"], got["use_flagged"]) == (
        "topsis",
        "minmax",
        "impute-median",
        False,
    )
    assert got["decision_path"]["answers"][question.id] == answer


def test_table_shows_ranking_path_why_and_imputed_cells(capsys: pytest.CaptureFixture) -> None:
    code, out, err = rank(capsys, "--group", EDGE, "--answer", "target=edge")
    assert code == 0, err
    rec = recommend.recommend(KB, Preferences(group=EDGE, answers={"target": "edge"}))
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["rank", "name"])
    rows = lines[header + 1 : header + 1 + len(rec.ranking)]
    for row, ranked in zip(rows, rec.ranking, strict=True):
        assert row.split()[0] == str(ranked.rank)
        assert ranked.name in row
        assert f"{ranked.score:.4f}" in row
        assert row.rstrip().endswith("yes") == ranked.shortlisted
    assert f"Why: {rec.why}" in lines
    assert verdict.judge(rec).headline in lines
    for fired in rec.path.fired:
        assert any(line.strip().startswith(fired.id) for line in lines)
    imputed = rec.matrix.imputed_cells
    if imputed:
        assert "Filled-in cells (no evidence of their own; not data):" in lines
    # one line per filled-in cell (the edge group has one since issue 32: Hailo-8L's power)
    assert sum("(no evidence; imputed" in line for line in lines) == len(imputed)


def test_csv_is_the_apps_ranking_export(capsys: pytest.CaptureFixture) -> None:
    code, out, err = rank(capsys, "--group", "gpu-inference-runtimes", "--method", "vikor", "--format", "csv")
    assert code == 0, err
    rec = recommend.recommend(KB, Preferences(group="gpu-inference-runtimes", method="vikor"))
    assert out.encode("utf-8") == spreadsheet.ranking_csv(rec, kb=KB)
    rows = list(csv.DictReader(line for line in io.StringIO(out) if not line.startswith("#")))
    assert [r["id"] for r in rows] == [r.id for r in rec.ranking]
    assert [int(r["rank"]) for r in rows] == [r.rank for r in rec.ranking]


def test_extra_csv_overrides_an_article_figure(capsys: pytest.CaptureFixture) -> None:
    fixture = UPLOADS / "good_orin_power.csv"
    code, out, err = rank(capsys, "--group", EDGE, "--extra", str(fixture), "--format", "json")
    assert code == 0, err
    cells = {(c["alternative"], c["criterion"]): c for c in json.loads(out)["cells"]}
    orin = cells[("jetson-orin", "power-w")]
    assert (orin["value"], orin["tier"], orin["evidence"]) == (42.0, "measured", ["u-orin-power"])


def test_profile_gives_the_same_ranking_and_options_override_it(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    chip = knowledge.Upload("good_new_chip.yaml", (UPLOADS / "good_new_chip.yaml").read_bytes())
    prefs = Preferences(group="my-edge-accelerators", method="moora", dimension_weights={"cost": 60})
    saved = tmp_path / "profile.yaml"
    saved.write_text(profile.dump(profile.make(prefs, uploads=[chip])), encoding="utf-8")
    merged = intake.validate_upload(chip.name, chip.data, KNOWLEDGE).kb

    code, out, err = rank(capsys, "--profile", str(saved), "--format", "json")
    assert code == 0, err
    assert core(json.loads(out)) == as_json(recommend.recommend(merged, prefs))

    code, out, err = rank(capsys, "--profile", str(saved), "--method", "wsm", "--weights", "risk=0", "--format", "json")
    assert code == 0, err
    overridden = prefs.model_copy(update={"method": "wsm", "dimension_weights": {"cost": 60, "risk": 0}})
    assert core(json.loads(out)) == as_json(recommend.recommend(merged, overridden))


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--group", "no-such-group"], "unknown group `no-such-group`; known groups:"),
        ([], "give --group GROUP"),
        (["--group", EDGE, "--weights", "performance=lots"], "`performance=lots` is not a number"),
        (["--group", EDGE, "--weights", "performance=-5"], "negative"),
        (["--group", EDGE, "--weights", "speed=5"], "unknown dimension(s) speed"),
        (["--group", EDGE, "--weights", "performance"], "not of the form key=value"),
        (["--group", EDGE, "--criterion-weights", "nope=1"], "not in group"),
        (["--group", EDGE, "--answer", "target=moon"], "`moon` is not an answer to `target`"),
        (["--group", EDGE, "--method", "magic"], "unknown method 'magic'"),
        (["--group", EDGE, "--method", "vikor", "--scaler", "sum"], "does not allow scaler 'sum'"),
        (["--group", EDGE, "--missing", "guess"], "--missing `guess` is not a policy"),
        (["--group", EDGE, "--extra", "no/such/file.csv"], "no/such/file.csv: cannot read file"),
        (["--group", EDGE, "--extra", str(UPLOADS / "negative_tops.csv")], "negative_tops.csv:2"),
        (["--group", EDGE, "--knowledge", "no/such/dir"], "does not exist"),
        (["--profile", "no/such/profile.yaml"], "cannot read --profile"),
        (["--profile", str(UPLOADS / "alias_bomb.yaml")], "more than 50 aliases"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(capsys: pytest.CaptureFixture, args: list[str], fragment: str) -> None:
    code, out, err = rank(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ")
    assert fragment in err, err


def test_an_invalid_embedded_upload_is_reported(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    bad = knowledge.Upload("claimed_tier.csv", (UPLOADS / "claimed_tier.csv").read_bytes())
    saved = tmp_path / "p.yaml"
    saved.write_text(profile.dump(profile.make(Preferences(group=EDGE), uploads=[bad])), encoding="utf-8")
    code, _, err = rank(capsys, "--profile", str(saved))
    assert code == 2
    assert f"claimed_tier.csv (embedded in {saved}):2" in err


def test_llm_group_json_ranks_six_chips_with_locators_and_cost_inputs(capsys: pytest.CaptureFixture) -> None:
    code, out, err = rank(capsys, "--group", "llm-inference-accelerators", "--format", "json")
    assert code == 0, err
    got = json.loads(out)
    assert len(got["ranking"]) >= 6
    for cell in got["cells"]:
        assert cell["tier"] in ("benchmarked", "reference", "claimed"), cell
        located = [e for e in cell["evidence_detail"] if e["locator"]]
        if cell["tier"] in ("benchmarked", "reference"):
            assert located and all(e["footnote"] for e in located)
        if cell["tier"] == "benchmarked":
            assert all(e["locator"]["derived"] and e["locator"]["division"] == "closed" for e in located)
    cost = [c for c in got["unranked_cells"] if c["criterion"] == "usd-per-million-tokens-llama2-70b"]
    priced = [c for c in cost if c["value"] is not None]
    assert priced, cost
    for cell in priced:
        assert "USD" in cell["note"] and "as of 20" in cell["note"] and "x 3600" in cell["note"]
        kinds = {e["tier"] for e in cell["evidence_detail"]}
        assert "benchmarked" in kinds
    assert {d["id"] for d in got["datasets"]} >= {"mlperf-inference-v5.1", "epoch-ml-hardware", "fsdl-cloud-gpus"}


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("formula_name.yaml", "must not start with `=`"),
        ("at_name.yaml", "must not start with `@`"),
        ("escape_name.yaml", "U+001B (ESC) is a control character"),
        ("crlf_name.yaml", "one line of plain text"),
    ],
)
def test_a_hostile_entity_name_in_extra_is_refused_and_never_printed(
    capsys: pytest.CaptureFixture, name: str, fragment: str
) -> None:
    path = FIXTURES / "limits" / name
    code, out, err = rank(capsys, "--group", "edge-accelerators", "--extra", str(path))
    assert code == 2 and fragment in err
    assert "\x1b" not in out + err and "\r" not in out + err and "HYPERLINK" not in out + err


# ----------------------------------------------------------------------------------------------------------
# Issue 31: rules that exclude, vendors, notes


def test_exclude_vendor_huawei_removes_every_huawei_entity_in_every_group(capsys) -> None:
    huawei = {e.id for e in KB.entities.values() if e.vendor == "huawei"}
    assert {"ascend-910b", "ascend-910b2", "ascend-910", "mindspore"} <= huawei
    for group in KB.groups.values():
        code, out, err = rank(capsys, "--group", group.id, "--exclude-vendor", "huawei", "--format", "json")
        assert code == 0, err
        payload = json.loads(out)
        ranked = {r["id"] for r in payload["ranking"]}
        assert not ranked & huawei, group.id
        # a discontinued member is removed in every ranking on its own reason, not the vendor's
        removed = {e["id"] for e in payload["excluded_alternatives"] if "vendor" in e["reason"]}
        assert removed == huawei & set(group.members), group.id
        if not huawei & set(group.members):
            assert any("excluding vendor Huawei removes nothing here" in n for n in payload["notes"]), group.id


def test_an_unknown_vendor_is_refused_with_the_known_ones(capsys) -> None:
    code, out, err = rank(capsys, "--group", "datacenter-accelerators", "--exclude-vendor", "no-such")
    assert code == 2 and out == ""
    assert "cannot exclude vendor `no-such`" in err and "known vendors:" in err
    assert {"amd", "huawei", "nvidia"} <= set(err.split("known vendors:")[1].strip().split(", "))
    # an entity that is not a vendor (a chip) is refused the same way
    code, _, err = rank(capsys, "--group", "datacenter-accelerators", "--exclude-vendor", "h200")
    assert code == 2 and "cannot exclude vendor `h200`" in err


def test_a_rule_exclusion_removes_the_member_from_the_ranking_with_the_rule_named(capsys) -> None:
    code, out, err = rank(capsys, "--group", "datacenter-accelerators", "--answer", "goal=domestic")
    assert code == 0, err
    table = out.splitlines()
    ranked = table[table.index("") + 2 : table.index("(score: higher is better)")]
    assert len(ranked) == 1 and "Huawei Ascend 910B" in ranked[0]  # H200, A100, ... no longer ranked
    for chip in ("NVIDIA H200", "NVIDIA A100", "AMD Instinct MI300X"):
        assert (
            f"Removed: {chip}: excluded by rule domestic-hardware: export-control status is license-required-cn" in out
        )


def test_the_phone_gpu_answer_no_longer_recommends_the_deprecated_last_ranked_runtime(capsys) -> None:
    args = ("--group", "mobile-runtimes", "--answer", "target=mobile,mobile-processor=gpu")
    code, out, _ = rank(capsys, *args)
    assert code == 0
    assert "Recommended: PyTorch Mobile" not in out
    assert "PyTorch Mobile, deprecated since 2024-10; its successor is ExecuTorch" in out
    code, out, _ = rank(capsys, *args, "--exclude-flagged")
    assert "rule mobile000-gpu does not act: every claim it rests on (c000-vulkan-gpu-lead) is flagged" in out


def test_a_rule_s_choice_below_the_leader_is_explained(capsys) -> None:
    code, out, _ = rank(capsys, "--group", "client-npus", "--answer", "target=edge,edge-workload=adjusting")
    assert code == 0
    assert "Recommended: AMD XDNA (the articles' rule; ranks 4 of 4 by your weights; score leader: Qualcomm" in out
    assert (
        "The articles' rule edge004-dynamic prefers AMD XDNA for target = Edge devices; edge-workload = Model "
        "adjusted at run time (e.g. precision switching); by your weights AMD XDNA ranks 4 of 4; the score leader is "
        "Qualcomm Snapdragon X Elite NPU (Hexagon) because it leads AMD XDNA mainly on"
    ) in out
    assert "Robustness: AMD XDNA: first in" in out


def test_a_profile_and_a_link_carry_the_answers_so_the_rule_exclusions_and_notes(capsys, tmp_path: Path) -> None:
    from selector.decision.preferences import from_query, to_query

    prefs = Preferences(group="datacenter-accelerators", answers={"goal": "domestic"})
    saved = tmp_path / "profile.yaml"
    saved.write_text(profile.dump(profile.make(prefs)), encoding="utf-8")
    code, out, err = rank(capsys, "--profile", str(saved))
    assert code == 0, err
    assert "Removed: NVIDIA H200: excluded by rule domestic-hardware" in out
    linked = recommend.recommend(KB, from_query(to_query(prefs), "training-frameworks"))
    assert {e.id for e in linked.matrix.excluded_alternatives} >= {"h200", "a100", "mi300x"}
    assert all("excluded by rule domestic-hardware" in e.reason for e in linked.matrix.excluded_alternatives)


def test_a_workload_ranks_on_its_columns_and_prints_each_members_fit(capsys: pytest.CaptureFixture) -> None:
    stated = "model=llama-3.1-8b,context=2048,concurrency=16,ttft-ms=200,tpot-ms=50,price=2,api-price=0.2"
    group = "llm-serving-single-accelerator"
    code, out, err = rank(capsys, "--group", group, "--workload", stated, "--format", "json")
    assert code == 0, err
    payload = json.loads(out)
    assert core(payload) == as_json(recommend.recommend(KB, Preferences(group=group, workload=stated)))
    h100 = next(r for r in payload["workload_fit"] if r["id"] == "h100")
    assert h100["runs"] is True and h100["throughput"] == 25 * 310
    code, out, err = rank(capsys, "--group", group, "--workload", stated)
    assert code == 0, err
    assert "Workload: model=llama-3.1-8b" in out and "throughput: latency-bounded: AccelMark" in out
    assert "renting is cheaper than the API" in out or "renting costs more than the API" in out
    code, out, err = rank(capsys, "--group", group, "--workload", "model=llama-3.1-8b,utilisation=2")
    assert code == 2 and "`utilisation`" in err


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_one_rank_checks_the_preferences_resolves_and_normalises_the_weights_once(capsys, fmt) -> None:
    with counted_calls() as calls:
        code, out, _ = rank(capsys, "--group", "training-frameworks", "--weights", "performance=55", "--format", fmt)
    assert code == 0 and out
    assert dict(calls) == ONCE
