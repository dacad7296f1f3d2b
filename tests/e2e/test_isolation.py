"""Two people on one server: one's uploads and preferences never show in the other's session."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e
TIMEOUT_MS = 60_000
UPLOAD = Path(__file__).resolve().parents[1] / "fixtures" / "uploads" / "good_new_chip.yaml"


def _sidebar_caption(page: Page):
    return page.get_by_test_id("stSidebar").get_by_text(re.compile(r"^bundled knowledge"))


def test_one_sessions_upload_and_weights_stay_out_of_another(browser: Browser, app_url: str):
    alice = browser.new_context(viewport={"width": 1440, "height": 1000}).new_page()
    bob = browser.new_context(viewport={"width": 1440, "height": 1000}).new_page()
    alice.goto(f"{app_url}/my_data?w=performance%3D90")
    alice.get_by_role("region", name="Add a YAML or CSV file").get_by_test_id(
        "stFileUploaderDropzoneInput"
    ).set_input_files(UPLOAD)
    expect(alice.get_by_text("is valid and now part of this session's knowledge")).to_be_visible(timeout=TIMEOUT_MS)
    alice.get_by_role("link", name="Recommend").first.click()
    expect(_sidebar_caption(alice)).to_contain_text("bundled knowledge + your files", timeout=TIMEOUT_MS)

    bob.goto(f"{app_url}/my_data")
    expect(bob.get_by_text("No files yet")).to_be_visible(timeout=TIMEOUT_MS)
    expect(_sidebar_caption(bob)).not_to_contain_text("your files")
    bob.get_by_role("link", name="Recommend").first.click()
    slider = bob.get_by_test_id("stMain").get_by_role("slider").first
    expect(slider).to_have_attribute("aria-valuetext", "40", timeout=TIMEOUT_MS)
    assert "performance%3D90" not in bob.url
    # and Alice still has her file after Bob's session ran
    alice.get_by_role("link", name="Evidence").first.click()
    expect(_sidebar_caption(alice)).to_contain_text("bundled knowledge + your files", timeout=TIMEOUT_MS)
