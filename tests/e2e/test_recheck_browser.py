"""My data's "Re-check a decision" in a real browser: a user uploads a report written by the command line and sees
that the decision holds, with the same headline as `python -m selector recheck`, and a link to today's ranking."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from playwright.sync_api import Page, expect

from selector import recheck, record
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.report import build, render

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
TIMEOUT_MS = 60_000


def test_a_report_uploaded_for_recheck_shows_that_the_decision_holds(page: Page, app_url: str, tmp_path) -> None:
    kb = knowledge.load()
    built = build.build_report(kb, Preferences(group="edge-accelerators"), samples=200)
    report = tmp_path / "decision.html"
    report.write_text(render.render_html(built), encoding="utf-8")
    expected = recheck.recheck(record.read(report.read_bytes(), "decision.html"), kb, name="decision.html")
    page.goto(f"{app_url}/my_data")
    expect(page.get_by_role("heading", name="Re-check a decision")).to_be_visible(timeout=TIMEOUT_MS)
    uploader = page.get_by_role("region", name=re.compile("A report or a profile to re-check"))
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(report))
    expect(page.get_by_text(expected.headline)).to_be_visible(timeout=TIMEOUT_MS)
    link = page.get_by_role("link", name="Open today's ranking for these settings")
    expect(link).to_have_attribute("href", re.compile(r"group=edge-accelerators"))
    expect(page.get_by_test_id("stException")).to_have_count(0)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "my_data_recheck.png"), full_page=True)
