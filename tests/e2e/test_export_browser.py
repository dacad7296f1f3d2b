"""The Export page in a real browser: an architect fills in the decision record's front matter, the page shows what
goes into the report, and the Markdown download is a dated ADR carrying those fields and a relative reproduce link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
TIMEOUT_MS = 60_000


def _fill(page: Page, label: str, text: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Enter")


def test_front_matter_fields_go_into_the_downloaded_record(page: Page, app_url: str, tmp_path) -> None:
    page.goto(f"{app_url}/export?group=edge-accelerators&must=power-w%3C%3D60")
    expect(page.get_by_text("The decision record's front matter")).to_be_visible(timeout=TIMEOUT_MS)
    # what goes into the report: the weights and the limit in force
    expect(page.get_by_text(re.compile(r"Weights \(share of the total\): Performance"))).to_be_visible(
        timeout=TIMEOUT_MS
    )
    expect(page.get_by_text(re.compile(r"Must-have limits .*power-w<=60"))).to_be_visible(timeout=TIMEOUT_MS)
    _fill(page, "Title", "Edge module for the line cameras")
    _fill(page, "Deciders", "Ana Ruiz, Bo Chen")
    _fill(page, "Consulted", "Ops team")
    expect(page).to_have_url(re.compile(r"deciders=Ana"), timeout=TIMEOUT_MS)
    page.get_by_label("Status").click()
    page.get_by_role("option", name="accepted").click()
    expect(page).to_have_url(re.compile(r"adr_status=accepted"), timeout=TIMEOUT_MS)
    # the report below is rebuilt with the fields: its caption says so before its buttons are the new ones
    expect(page.get_by_text(re.compile(r"Status accepted · review by"))).to_be_visible(timeout=TIMEOUT_MS)
    button = page.get_by_role("button", name=re.compile("Markdown"))
    expect(button).to_be_visible(timeout=TIMEOUT_MS)
    with page.expect_download(timeout=TIMEOUT_MS) as caught:
        button.click()
    download = caught.value
    assert re.fullmatch(r"ai-stack-edge-accelerators-\d{4}-\d\d-\d\d\.md", download.suggested_filename)
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Edge module for the line cameras\n")
    for line in ("- Status: accepted", "- Deciders: Ana Ruiz, Bo Chen", "- Consulted: Ops team"):
        assert line in text
    assert "127.0.0.1" not in text and "(<?group=edge-accelerators" in text
    expect(page.get_by_test_id("stException")).to_have_count(0)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.get_by_text("The decision record's front matter").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "export_front_matter.png"), full_page=True)
