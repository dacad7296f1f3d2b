"""Tests for the ``weights`` command (selector/commands/weights.py): table and JSON output, refusals with exit 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from selector.__main__ import main
from selector.decision.elicitation import RANDOM_INDEX

ROOT = Path(__file__).resolve().parents[2]
CONSISTENT = [  # from weights 8:4:2:1 exactly: the eigenvector gives 8/15, 4/15, 2/15, 1/15 and CR 0
    "performance/cost=2",
    "performance/ecosystem=4",
    "performance/risk=8",
    "cost/ecosystem=2",
    "cost/risk=4",
    "ecosystem/risk=2",
]


def _pairwise(answers: list[str]) -> list[str]:
    return [arg for a in answers for arg in ("--pairwise", a)]


def test_pairwise_json_gives_shares_summing_to_one_and_the_ratio(capsys):
    assert main(["weights", *_pairwise(CONSISTENT), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["weights"] == pytest.approx({"performance": 8 / 15, "cost": 4 / 15, "ecosystem": 2 / 15, "risk": 1 / 15})
    assert sum(out["weights"].values()) == pytest.approx(1.0, abs=1e-12)
    assert out["consistency_ratio"] == pytest.approx(0.0, abs=1e-12)
    assert out["most_inconsistent"] is None


def test_an_inconsistent_set_names_the_judgement_to_revise(capsys):
    spoiled = [a if a != "cost/risk=4" else "cost/risk=1/4" for a in CONSISTENT]
    assert main(["weights", *_pairwise(spoiled), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    lam = out["lambda_max"]
    assert out["consistency_ratio"] == pytest.approx((lam - 4) / 3 / RANDOM_INDEX[4])
    assert out["consistency_ratio"] > 0.10
    assert out["most_inconsistent"]["judgement"] == "cost/risk=1/4"
    assert out["most_inconsistent"]["consistency_ratio_if_revised"] < out["consistency_ratio"]
    assert main(["weights", *_pairwise(spoiled)]) == 0
    table = capsys.readouterr().out
    assert "above 0.10: revise" in table
    assert "Most inconsistent judgement: cost/risk=1/4" in table


def test_the_table_prints_percentages_summing_to_100(capsys):
    assert main(["weights", "--swing", "performance=100,cost=60,ecosystem=30,risk=20"]) == 0
    table = capsys.readouterr().out
    shown = [float(x) for x in re.findall(r"(\d+\.\d) %", table)]
    assert shown == [47.6, 28.6, 14.3, 9.5]
    assert sum(shown) == pytest.approx(100.0)
    assert "Consistency ratio" not in table
    assert "--weights performance=47.62,cost=28.57,ecosystem=14.29,risk=9.524" in table


def test_swing_json(capsys):
    assert (
        main(["weights", "--swing", "performance=100,cost=50", "--swing", "ecosystem=50,risk=0", "--format", "json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["weights"] == {"performance": 0.5, "cost": 0.25, "ecosystem": 0.25, "risk": 0.0}
    assert "consistency_ratio" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (_pairwise(CONSISTENT[:5]), "1 comparison(s) missing: ecosystem/risk"),
        (_pairwise([*CONSISTENT[:5], "ecosystem/speed=2"]), "unknown dimension(s) `speed`"),
        (_pairwise([*CONSISTENT[:5], "ecosystem/risk=10"]), "outside Saaty's scale 1/9..9"),
        (_pairwise([*CONSISTENT[:5], "ecosystem/risk=1/10"]), "outside Saaty's scale 1/9..9"),
        (_pairwise([*CONSISTENT, "risk/ecosystem=1/2"]), "already judged"),
        (["--swing", "performance=100,cost=60"], "missing: ecosystem, risk"),
        (["--swing", "performance=90,cost=60,ecosystem=1,risk=1"], "none is 100"),
        (["--swing", "performance=100", *_pairwise(CONSISTENT)], "either --pairwise comparisons or --swing"),
        ([], "either --pairwise comparisons or --swing"),
    ],
)
def test_bad_answers_exit_2_with_a_message(argv, message, capsys):
    assert main(["weights", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


@pytest.mark.subprocess
def test_fractions_pass_through_the_shell():
    answers = [a.replace("performance/cost=2", "cost/performance=1/2") for a in CONSISTENT]
    done = subprocess.run(
        [sys.executable, "-m", "selector", "weights", *_pairwise(answers), "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["weights"]["performance"] == pytest.approx(8 / 15)


PERFORMANCE = ["bf16-tflops", "memory-capacity", "throughput-resnet50-device", "memory-bandwidth"]


def test_within_a_dimension_weighs_the_groups_criteria(capsys):
    # consistent judgements from 4:2:1:4 (bf16, memory, throughput, bandwidth)
    truth = dict(zip(PERFORMANCE, [4, 2, 1, 4], strict=True))
    answers = [
        f"{a}/{b}={Fraction(truth[a], truth[b])}" for k, a in enumerate(PERFORMANCE) for b in PERFORMANCE[k + 1 :]
    ]
    argv = ["weights", "--within", "performance", "--group", "datacenter-accelerators", *_pairwise(answers)]
    assert main([*argv, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["weights"] == pytest.approx({c: w / 11 for c, w in truth.items()})
    assert out["consistency_ratio"] == pytest.approx(0.0, abs=1e-12)
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert table.startswith("Weights of the criteria inside Performance (Datacenter accelerators) from pairwise")
    assert "rank --group datacenter-accelerators --criterion-weights bf16-tflops=36.36," in table


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--within", "performance", "--group", "datacenter-accelerators", "--pairwise", "bf16-tflops/x=2"],
            "unknown criterion(s) `x`",
        ),
        (
            ["--within", "performance", "--group", "datacenter-accelerators", "--swing", "bf16-tflops=100"],
            "rate every criterion; missing: memory-capacity",
        ),
        (["--within", "ecosystem", "--group", "datacenter-accelerators", "--swing", "a=100"], "nothing to weigh"),
        (["--within", "speed", "--group", "datacenter-accelerators", "--swing", "a=100"], "is not a dimension"),
        (["--within", "performance", "--swing", "a=100"], "--within needs --group"),
        (["--group", "datacenter-accelerators", "--swing", "performance=100"], "--group is used with --within"),
    ],
)
def test_within_refusals_exit_2(argv, message, capsys):
    assert main(["weights", *argv]) == 2
    assert message in capsys.readouterr().err
