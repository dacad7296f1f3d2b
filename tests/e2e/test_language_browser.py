"""The languages in a real browser (issue 36): a link with `lang=zh` opens the Chinese page in a fresh browser, a
first visit follows the browser's language, the switch writes the link, and Chinese text fits a laptop and a phone."""

from __future__ import annotations

from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from pageload import TIMEOUT_MS, wait_rendered
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
# (path, English title, Chinese title) of the pages whose interface text goes through the catalogs
TRANSLATED = [
    ("data_sources", "Data sources and licences", "数据来源与许可"),
    ("frameworks", "Frameworks and runtimes", "框架与运行时"),
    ("evidence", "Evidence", "证据"),
    ("accelerators", "Accelerators", "加速芯片"),
    ("techniques", "Techniques, cases and resources", "技术、案例与资源"),
]
SIZES = [(1024, 768), (390, 844)]
# Visible text cut off by its box (as tests/e2e/test_layout.py checks English pages), in the given parts of the page
_CUT = """(where) => [...document.querySelectorAll(where)]
    .filter(e => e.checkVisibility() && e.textContent.trim() && !e.closest('[data-testid=stDataFrame]')
        && !e.closest('[data-baseweb=select]'))
    .filter(e => {
        const style = getComputedStyle(e);
        const clips = style.textOverflow === 'ellipsis' || style.overflowX === 'hidden' || style.overflow === 'hidden';
        return clips && e.scrollWidth > e.clientWidth + 1;
    }).map(e => e.textContent.slice(0, 60))"""


def _fresh(browser: Browser, locale: str, size: tuple[int, int] = (1440, 1000)) -> Page:
    context = browser.new_context(locale=locale, viewport={"width": size[0], "height": size[1]})
    return context.new_page()


def _title(page: Page, url: str) -> str:
    page.goto(url)
    heading = page.locator("h1").first
    expect(heading).to_be_visible(timeout=TIMEOUT_MS)
    wait_rendered(page)
    return heading.inner_text().strip()


@pytest.mark.parametrize(("path", "english", "chinese"), TRANSLATED)
def test_a_link_with_lang_zh_opens_the_chinese_page_in_a_fresh_english_browser(
    browser, app_url, path, english, chinese
):
    page = _fresh(browser, "en-US")
    assert _title(page, f"{app_url}/{path}?lang=zh") == chinese
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lang-zh-{path}.png"), full_page=True)
    assert _title(_fresh(browser, "en-US"), f"{app_url}/{path}") == english
    page.screenshot(path=str(ARTIFACTS / f"lang-en-{path}.png"), full_page=True)
    page.context.close()


def test_a_first_visit_follows_a_chinese_browser_and_the_switch_writes_the_link(browser, app_url):
    page = _fresh(browser, "zh-CN")
    assert _title(page, f"{app_url}/data_sources") == "数据来源与许可"
    page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
    expect(page.locator("h1").first).to_have_text("Data sources and licences", timeout=TIMEOUT_MS)
    wait_rendered(page)
    assert "lang=en" in page.url
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("path", "english", "chinese"), TRANSLATED)
def test_chinese_text_fits_a_laptop_and_a_phone(browser, app_url, size, path, english, chinese):
    page = _fresh(browser, "zh-CN", size)
    assert _title(page, f"{app_url}/{path}?lang=zh") == chinese
    # a phone keeps the sidebar folded away (its hidden links measure as cut in either language): the page is checked
    where = "[data-testid=stMain] *" + (", [data-testid=stSidebar] *" if size[0] > 600 else "")
    assert page.evaluate(_CUT, where) == []
    page.screenshot(path=str(ARTIFACTS / f"lang-zh-{path}-{size[0]}x{size[1]}.png"), full_page=True)
    page.context.close()
