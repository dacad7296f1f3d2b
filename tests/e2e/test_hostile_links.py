"""Hostile links in a real browser (issue 19): a message, never an exception box; the grids offer no raw CSV."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from playwright.sync_api import Page, expect

from selector import profile
from selector.knowledge import loading as knowledge

pytestmark = pytest.mark.e2e

TIMEOUT_MS = 30_000
KB = knowledge.load()
CRITERION = KB.groups[next(iter(KB.groups))].criteria[0].criterion
FORMULA_NAME = """sources:
  - {id: user-x, kind: user, title_en: x}
entities:
  - {id: formula-npu, name: '=HYPERLINK("http://evil.example","Click")', kind: accelerator, segment: edge}
"""


def _settled(page: Page) -> None:
    app = page.locator("[data-testid=stApp][data-test-script-state=notRunning]")
    expect(app).to_have_count(1, timeout=TIMEOUT_MS)
    page.wait_for_timeout(500)
    expect(app).to_have_count(1, timeout=TIMEOUT_MS)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("w=" + quote("performance=500"), "is outside 0-100"),
        ("w=" + quote("performance=101"), "is outside 0-100"),
        ("w=" + quote("performance=1e308"), "1e+308"),
        ("cw=" + quote(f"{CRITERION}=9"), "is outside 0-5"),
        (
            "data=" + profile.encode_uploads((profile.EmbeddedUpload(name="x.yaml", text=FORMULA_NAME),)),
            "runs as a formula",
        ),
    ],
)
def test_a_hostile_link_shows_a_message_and_no_exception(page: Page, app_url: str, query: str, message: str):
    page.goto(f"{app_url}/?{query}")
    expect(page.get_by_role("heading", name="Recommend an AI stack")).to_be_visible(timeout=TIMEOUT_MS)
    _settled(page)
    expect(page.get_by_test_id("stAlertContentError").filter(has_text=message).first).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    # the ranking is still drawn
    expect(page.locator("[data-testid=stMarkdownContainer] table").first).to_be_visible()


def test_the_grids_offer_no_built_in_csv_download(page: Page, app_url: str):
    page.goto(f"{app_url}/evidence")  # the claims grid, on demand (the pages' small tables are Markdown)
    page.get_by_text("Every claim and column in a sortable grid").click()
    grid = page.locator("[data-testid=stDataFrame]").first
    expect(grid).to_be_visible(timeout=TIMEOUT_MS)
    _settled(page)
    grid.hover()
    toolbar = page.get_by_test_id("stElementToolbar").first
    expect(toolbar).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("button", name="Download as CSV")).to_have_count(0)
