"""scripts/repo_history.py: a git history's figures, checked on a repository built here with known commits."""

from __future__ import annotations

import csv
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import repo_history  # scripts/ is a folder of scripts, not a package

pytestmark = pytest.mark.subprocess  # git builds and reads the repository

MIT = "Permission is hereby granted, free of charge, to any person obtaining a copy of this software"
AS_OF = dt.date(2026, 8, 22)


def _commit(repo: Path, email: str, when: str, name: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": email.split("@")[0],
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": "c",
        "GIT_COMMITTER_EMAIL": "c@example.org",
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
    }
    (repo / name).write_text(when, encoding="utf-8")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", name], check=True, env=env)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("history")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "LICENSE").write_text(f"MIT License\n\n{MIT}\n", encoding="utf-8")
    _commit(repo, "founder@acme.com", "2020-01-01T12:00:00+00:00", "a")  # outside the window: age only
    _commit(repo, "ann@acme.com", "2025-09-01T12:00:00+00:00", "b")
    _commit(repo, "bob@acme.com", "2026-01-10T12:00:00+00:00", "c")
    _commit(repo, "ann@acme.com", "2026-03-01T12:00:00+00:00", "d")
    _commit(repo, "solo@my.name", "2026-04-01T12:00:00+00:00", "e")  # a personal domain: one address
    _commit(repo, "x@users.noreply.github.com", "2026-05-01T12:00:00+00:00", "f")
    _commit(repo, "y@users.noreply.github.com", "2026-08-12T12:00:00+00:00", "g")
    return repo


def test_the_window_counts_commits_authors_and_the_organisation_by_construction(repo: Path) -> None:
    row = repo_history.row("acme/widget", str(repo), AS_OF)
    assert row["commits_12m"] == "6"  # b..g; a is from 2020
    assert row["authors_12m"] == "5"  # ann, bob, solo, x, y
    # acme.com has two addresses and 3 of the 6 commits; my.name has one address and noreply is anonymising.
    assert (row["top_domain"], row["top_domain_commits"], row["top_domain_share_pct"]) == ("acme.com", "3", "50.0")
    assert row["days_since_commit"] == "11"  # 2026-08-12 to 2026-08-22, counted inclusively
    assert row["first_commit_date"] == "2020-01-01"
    assert float(row["age_years"]) == pytest.approx((AS_OF - dt.date(2020, 1, 1)).days / 365.25, abs=0.01)
    assert row["licence_spdx"] == "MIT" and row["snapshot_date"] == "2026-08-22"
    assert (
        row["commit"]
        == subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
        ).stdout.strip()
    )


def test_a_later_snapshot_date_shows_a_stopped_project(repo: Path) -> None:
    row = repo_history.row("acme/widget", str(repo), dt.date(2028, 1, 1))
    assert row["commits_12m"] == "0" and row["authors_12m"] == "0" and row["top_domain"] == ""
    assert int(row["days_since_commit"]) > 365


def test_a_head_newer_than_the_snapshot_date_is_refused(repo: Path) -> None:
    with pytest.raises(SystemExit, match="newer than the snapshot date"):
        repo_history.row("acme/widget", str(repo), dt.date(2026, 1, 1))


def test_the_table_is_written_with_its_columns(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "history.csv"
    assert repo_history.main(["2026-08-22", str(out), f"acme/widget={repo}"]) == 0
    with out.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["repository"] for r in rows] == ["acme/widget"]
    assert tuple(rows[0]) == repo_history.COLUMNS
