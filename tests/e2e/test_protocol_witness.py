"""The load benchmark's protocol clients see the pages a real browser shows (benchmarks/_alongside.py): a short run
of bench_protocol_load.py on one server, one protocol session, then one browser beside a protocol session in the same
state; and the comparison it prints can fail."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import _alongside


def test_the_comparison_ignores_order_and_markdown_but_not_text() -> None:
    seen = _alongside.Seen(headings={"open Export": ["Export", "Recommended: JAX"], "open Evidence": ["Evidence"]})
    protocol = {"open Export": ["Recommended\\: **JAX**", "Export"], "open Evidence": ["Evidence\u2060s"]}
    matched, compared, differences = _alongside.compare([seen], protocol)
    assert (matched, compared) == (1, 2) and differences[0].startswith("browser 1, open Evidence")


@pytest.mark.server
@pytest.mark.subprocess
def test_a_short_protocol_load_with_a_browser_witness_sees_the_same_pages() -> None:
    short = ["--sessions", "1", "--baseline", "1", "--think", "0", "--ramp", "0", "--skip-replicas"]
    done = subprocess.run(
        [sys.executable, "benchmarks/bench_protocol_load.py", *short, "--browsers", "1", "--browsers-at", "1"],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.search(r"\n\s+1 sessions: 0 errors, 9 steps", done.stdout), done.stdout
    assert "witness round (not in the figures above): 1 protocol sessions, 0 errors" in done.stdout, done.stdout
    assert "1 real browsers alongside: 0 errors; 5 of 5 pages showed the headings" in done.stdout, done.stdout
