"""The `sensitivity` command, run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "selector", "sensitivity", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.mark.subprocess
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


@pytest.mark.subprocess
def test_table_output_names_the_leader_and_tipping_points():
    done = _run("--group", "datacenter-accelerators", "--method", "topsis", "--samples", "300")
    assert done.returncode == 0, done.stderr
    assert "Rank acceptability" in done.stdout
    assert "Tipping points:" in done.stdout
    assert "first in" in done.stdout and "of 300 weightings anywhere on the weight simplex" in done.stdout


@pytest.mark.subprocess
def test_bad_input_exits_2_with_a_message():
    done = _run("--group", "nope")
    assert done.returncode == 2
    assert "unknown group `nope`" in done.stderr
    done = _run("--group", "edge-accelerators", "--samples", "0")
    assert done.returncode == 2 and "--samples" in done.stderr


def test_a_large_group_shows_the_first_ranks_and_says_what_it_left_out(monkeypatch, capsys):
    """In-process, with the limits lowered to fit a bundled group of 7: the table says what it leaves out."""
    from selector.__main__ import main
    from selector.commands import sensitivity
    from selector.robustness import smaa

    monkeypatch.setattr(sensitivity, "SHOWN_RANKS", 3)
    monkeypatch.setattr(smaa, "CONFIDENCE_LIMIT", 1)
    assert main(["sensitivity", "--group", "datacenter-accelerators", "--samples", "300"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("Rank acceptability"))
    assert "ranks past #3 not shown" in header
    assert "confidence computed for the 1 alternatives most often first" in header
    columns = next(line for line in out.splitlines() if "#1" in line)
    assert "#3" in columns and "#4" not in columns
