"""The `sensitivity` command, run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "selector", "sensitivity", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_json_output_carries_every_analysis():
    done = _run("--group", "edge-accelerators", "--samples", "500", "--seed", "3", "--format", "json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["samples"] == 500 and out["seed"] == 3
    assert {"smaa", "tipping_points", "method_agreement", "rank_reversal", "badge"} <= set(out)
    assert len(out["smaa"]["acceptability"]) == len(out["smaa"]["alternatives"])
    again = json.loads(
        _run("--group", "edge-accelerators", "--samples", "500", "--seed", "3", "--format", "json").stdout
    )
    assert again["smaa"]["acceptability"] == out["smaa"]["acceptability"]


def test_table_output_names_the_leader_and_tipping_points():
    done = _run("--group", "datacenter-accelerators", "--method", "topsis", "--samples", "300")
    assert done.returncode == 0, done.stderr
    assert "Rank acceptability" in done.stdout
    assert "Tipping points:" in done.stdout
    assert "of plausible weightings" in done.stdout


def test_bad_input_exits_2_with_a_message():
    done = _run("--group", "nope")
    assert done.returncode == 2
    assert "unknown group `nope`" in done.stderr
    done = _run("--group", "edge-accelerators", "--samples", "0")
    assert done.returncode == 2 and "--samples" in done.stderr
