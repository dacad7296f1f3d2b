"""My data in a real browser: a user picks the hardware, uploads a real MLPerf LoadGen summary and sees their run
beside MLPerf's published figure for the same chip, with the ratio and the conditions that differ."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from playwright.sync_api import Page, expect

from selector import measure
from selector.measure import compare
from selector.uploads import intake

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
LOADGEN = ROOT / "tests" / "fixtures" / "measure" / "loadgen"
SUMMARY = LOADGEN / "closed__AMD__8xMI300X_2xEPYC_9575F__llama2-70b-99__Offline.mlperf_log_summary.txt"
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
TIMEOUT_MS = 60_000


_IDLE = "() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'"


def _idle(page: Page) -> None:
    """Wait until the script run the last interaction started has finished (twice, 300 ms apart)."""
    for _ in range(2):
        page.wait_for_timeout(300)
        page.wait_for_function(_IDLE, timeout=TIMEOUT_MS)


def expected_sentences() -> list[str]:
    """What selector/ says the page should show for this file on an 8 x MI300X system."""
    options = measure.Options(entity="mi300x", accelerators=8)
    result = intake.validate_upload(SUMMARY.name, SUMMARY.read_bytes(), measured=options)
    assert result.ok, [str(i) for i in result.issues]
    found = compare.comparisons(result.kb)
    assert any(c.reference_label == "MLPerf" for c in found), "MLPerf's figure for this chip and model is bundled"
    return [c.sentence for c in found]


def test_a_loadgen_summary_uploaded_on_my_data_shows_measured_beside_published(page: Page, app_url: str) -> None:
    sentences = expected_sentences()
    page.goto(f"{app_url}/my_data")
    expect(page.get_by_role("heading", name="My data")).to_be_visible(timeout=TIMEOUT_MS)
    hardware = page.get_by_test_id("stSelectbox").filter(has_text="hardware the run was on")
    hardware.locator("input").click()
    page.get_by_role("option", name=re.compile(r"AMD Instinct MI300X \(mi300x\)")).click()
    _idle(page)
    count = page.get_by_role("spinbutton", name="Accelerators in the system")
    count.fill("8")
    count.press("Enter")
    expect(count).to_have_value("8", timeout=TIMEOUT_MS)
    _idle(page)
    uploader = page.get_by_role("region", name=re.compile("Add a YAML or CSV file"))
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(SUMMARY))
    expect(page.get_by_text(f"{SUMMARY.name} is valid")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("heading", name="Your measurements beside the published figures")).to_be_visible(
        timeout=TIMEOUT_MS
    )
    for sentence in sentences[:3]:
        expect(page.get_by_text(sentence, exact=False).first).to_be_visible(timeout=TIMEOUT_MS)
    ratio = re.compile(r"your run says [\d,.]+ tokens/s per accelerator \(derived\) \(\d+\.\d\dx\)")
    expect(page.get_by_text(ratio).first).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "my_data_measured.png"), full_page=True)
