"""scripts/pypi_snapshot.py: the bundled snapshot's layout is reproduced byte for byte, and an answer is trimmed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import pypi_snapshot  # scripts/ is a folder of scripts, not a package


def test_the_bundled_snapshot_renders_to_its_own_bytes() -> None:
    text = pypi_snapshot.SNAPSHOT.read_text(encoding="utf-8")
    assert pypi_snapshot.render(json.loads(text)) == text


def test_an_answer_keeps_recent_files_and_every_file_of_the_newest_version_only() -> None:
    answer = {
        "name": "demo",
        "meta": {"api-version": "1.1", "_last-serial": 1},
        "versions": ["1.0", "2.0"],
        "files": [
            {"filename": "demo-1.0.tar.gz", "upload-time": "2022-01-01T00:00:00Z", "hashes": {"sha256": "x"}},
            {"filename": "demo-2.0-py3-none-any.whl", "upload-time": "2024-02-01T00:00:00Z", "yanked": False},
            {"filename": "demo-2.0.tar.gz", "upload-time": "2023-01-01T00:00:00Z", "yanked": "bad build"},
        ],
    }
    trimmed = pypi_snapshot.trim(answer, "2026-12-02")
    assert trimmed["fetched"] == "2026-12-02" and trimmed["api-version"] == "1.1"
    # 1.0 is old and not the newest version: dropped; 2.0's old source archive stays (the newest version's file).
    assert trimmed["files"] == [
        {"filename": "demo-2.0-py3-none-any.whl", "upload-time": "2024-02-01T00:00:00Z"},
        {"filename": "demo-2.0.tar.gz", "upload-time": "2023-01-01T00:00:00Z", "yanked": True},
    ]
