"""When a served page counts as drawn, shared by the browser tests that wait for it."""

from __future__ import annotations

from playwright.sync_api import Page

TIMEOUT_MS = 30_000

# True once the script run is over and everything it sent has been drawn: no running indicator, no stale element,
# no placeholder skeleton, every visible plotly chart with its SVG and every visible data grid with its canvas and
# table mirror (a chart or grid in a closed expander or an inactive tab is drawn only when opened).
RENDERED = """() => {
    const app = document.querySelector('[data-testid=stApp]');
    if (!app || app.dataset.testScriptState !== 'notRunning') return false;
    const busy = "[data-testid=stStatusWidget], [data-testid=stSkeleton], [data-stale=true]";
    if (document.querySelector(busy)) return false;
    const shown = selector => [...document.querySelectorAll(selector)].filter(e => e.checkVisibility());
    if (!shown('[data-testid=stPlotlyChart]').every(c => c.querySelector('.js-plotly-plot .main-svg'))) return false;
    return shown('[data-testid=stDataFrame]').every(g => {
        const canvas = g.querySelector('canvas');
        return canvas && canvas.getBoundingClientRect().height > 0 && g.querySelector('table');
    });
}"""


def wait_rendered(page: Page) -> None:
    """Wait until the page is drawn (see RENDERED), twice 300 ms apart so that a late message is not missed."""
    for _ in range(2):
        page.wait_for_timeout(300)
        page.wait_for_function(RENDERED, timeout=TIMEOUT_MS)


def open_tab(page: Page, label: str) -> None:
    """Open the page's tab `label` (a page's sections are drawn when their tab is opened: app_pages._widgets) and
    wait until it is drawn."""
    page.get_by_test_id("stMain").get_by_role("tab", name=label, exact=True).click()
    wait_rendered(page)


def section_tabs(page: Page) -> list[str]:
    """The labels of the page's tabs as drawn now."""
    return page.get_by_test_id("stMain").get_by_role("tab").all_inner_texts()
