"""The bundled public datasets in a real browser: the Accelerators spec explorer draws its points with provenance on
hover, and the data sources and their licences are visible from every page."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from playwright.sync_api import Page, expect

from selector.decision import specs
from selector.knowledge import loading as knowledge
from selector.knowledge import provenance
from selector.knowledge.loading import DEFAULT_KNOWLEDGE

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
TIMEOUT_MS = 30_000
# Done when no script runs and every visible plotly chart has its SVG.
_DRAWN = """() => {
    const app = document.querySelector('[data-testid=stApp]');
    if (!app || app.dataset.testScriptState !== 'notRunning') return false;
    const busy = '[data-testid=stStatusWidget], [data-testid=stSkeleton], [data-stale=true]';
    if (document.querySelector(busy)) return false;
    return [...document.querySelectorAll('[data-testid=stPlotlyChart]')].filter(e => e.checkVisibility())
        .every(c => c.querySelector('.js-plotly-plot .main-svg'));
}"""


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _drawn(page: Page) -> None:
    for _ in range(2):
        page.wait_for_timeout(300)
        page.wait_for_function(_DRAWN, timeout=TIMEOUT_MS)


def test_spec_explorer_draws_every_accelerator_with_provenance_on_hover(page: Page, app_url: str, kb):
    page.goto(f"{app_url}/accelerators")
    expect(page.get_by_role("tab", name="Spec explorer", selected=True)).to_be_visible(timeout=TIMEOUT_MS)
    _drawn(page)
    values = specs.spec_values(kb, DEFAULT_KNOWLEDGE, dt.datetime.now(dt.UTC).date())
    pairs = specs.axis_pairs(values, "memory-bandwidth", "bf16-tflops")
    chart = page.locator(".st-key-chart-spec-explorer").filter(has_text="by vendor")
    expect(chart).to_have_count(1)
    points = chart.locator(".scatterlayer .point")
    expect(points).to_have_count(len(pairs))
    for vendor in pairs["vendor"].unique():
        expect(chart.locator(".legendtext", has_text=vendor)).to_have_count(1)
    chart.scroll_into_view_if_needed()
    points.first.hover(force=True)
    label = chart.locator(".hoverlayer")
    expect(label).to_contain_text("retrieved", timeout=TIMEOUT_MS)
    expect(label).to_contain_text("snapshot")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    chart.screenshot(path=str(ARTIFACTS / "spec-explorer.png"))


def test_data_sources_and_licences_are_visible(page: Page, app_url: str, kb):
    page.goto(app_url)
    footer = page.get_by_text("Data: ", exact=False).filter(visible=True)
    expect(footer.first).to_be_visible(timeout=TIMEOUT_MS)
    for data in provenance.datasets(kb):
        expect(footer.first).to_contain_text(f"{data.title} ({data.licence})")
    page.get_by_role("link", name="Data sources and licences").last.click()
    expect(page.get_by_role("heading", name="Data sources and licences", exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    main = page.get_by_test_id("stMain")
    for data in provenance.datasets(kb):
        expect(main.get_by_role("heading", name=data.title)).to_be_visible()
        expect(main.get_by_text(data.attribution[:40], exact=False).first).to_be_visible()
    expect(main.get_by_role("link", name="CC-BY-4.0").first).to_have_attribute(
        "href", provenance.LICENCE_URLS["CC-BY-4.0"]
    )
    _drawn(page)
    page.screenshot(path=str(ARTIFACTS / "data-sources.png"), full_page=True)
