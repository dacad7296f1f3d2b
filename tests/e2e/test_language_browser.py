"""The languages in a real browser (issue 36): a link with `lang=zh` opens every page in Chinese in a fresh browser,
a first visit follows the browser's language, the switch writes the link, and every page fits a desktop (1366x768)
and a phone (390x844) in both languages, Chinese widths included, with a screenshot of each under
test-artifacts/e2e/ (lang-{zh,en}-<page>.png, lang-{zh,en}-<page>-phone.png)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from pageload import TIMEOUT_MS, open_tab, section_tabs, wait_rendered
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
# (path, name in the screenshots, English title, Chinese title): every page of the app
PAGES = [
    ("", "recommend", "Recommend an AI stack", "推荐 AI 技术栈"),
    ("frameworks", "frameworks", "Frameworks and runtimes", "框架与运行时"),
    ("accelerators", "accelerators", "Accelerators", "加速芯片"),
    ("evidence", "evidence", "Evidence", "证据"),
    ("techniques", "techniques", "Techniques, cases and resources", "技术、案例与资源"),
    ("robustness", "robustness", "How robust is the ranking?", "排名有多稳健？"),
    ("my_data", "my_data", "My data", "我的数据"),
    ("export", "export", "Export", "导出"),
    ("data_sources", "data_sources", "Data sources and licences", "数据来源与许可"),
]
DESKTOP, PHONE = (1366, 768), (390, 844)
SIZES = [DESKTOP, PHONE]
HAN = re.compile(r"[\u4e00-\u9fff]")
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


@pytest.mark.parametrize(("path", "name", "english", "chinese"), PAGES, ids=[p[1] for p in PAGES])
def test_a_link_with_lang_zh_opens_the_chinese_page_in_a_fresh_english_browser(
    browser, app_url, path, name, english, chinese
):
    page = _fresh(browser, "en-US")
    assert _title(page, f"{app_url}/{path}?lang=zh") == chinese
    assert HAN.search(page.get_by_test_id("stMain").inner_text())
    page.context.close()
    page = _fresh(browser, "en-US")
    assert _title(page, f"{app_url}/{path}") == english
    page.context.close()


def test_a_first_visit_follows_a_chinese_browser_and_the_switch_writes_the_link(browser, app_url):
    page = _fresh(browser, "zh-CN")
    assert _title(page, f"{app_url}/data_sources") == "数据来源与许可"
    page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
    expect(page.locator("h1").first).to_have_text("Data sources and licences", timeout=TIMEOUT_MS)
    wait_rendered(page)
    assert "lang=en" in page.url
    page.context.close()


def _whole_page_screenshot(page: Page, size: tuple[int, int], path: Path) -> None:
    # Streamlit scrolls its main block, not the document: the window grows to the page's height for the picture
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": size[0], "height": max(size[1], min(int(height), 12_000))})
    wait_rendered(page)
    page.screenshot(path=str(path), full_page=True)


def _cut(page: Page, desktop: bool) -> list[str]:
    # a phone keeps the sidebar folded away (its hidden links measure as cut in either language): the page is checked
    return page.evaluate(_CUT, "[data-testid=stMain] *" + (", [data-testid=stSidebar] *" if desktop else ""))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("path", "name", "english", "chinese"), PAGES, ids=[p[1] for p in PAGES])
def test_every_page_fits_a_desktop_and_a_phone_in_both_languages(
    browser, app_url, size, lang, path, name, english, chinese
):
    """No text is cut, Chinese widths included, on every tab of the page; a screenshot of each page in each language
    at each size (test-artifacts/e2e/lang-{zh,en}-<page>.png, ...-phone.png)."""
    page = _fresh(browser, "zh-CN" if lang == "zh" else "en-US", size)
    assert _title(page, f"{app_url}/{path}?lang={lang}") == (chinese if lang == "zh" else english)
    desktop = size == DESKTOP
    for tab in [None, *section_tabs(page)[1:]]:
        if tab is not None:
            open_tab(page, tab)
        assert _cut(page, desktop) == [], tab
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if len(section_tabs(page)) > 1:
        open_tab(page, section_tabs(page)[0])  # the screenshot shows the page as it opens
    suffix = "" if desktop else "-phone"
    _whole_page_screenshot(page, size, ARTIFACTS / f"lang-{lang}-{name}{suffix}.png")
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_chinese_verdict_and_ranking_table_fit_the_first_screen(browser, app_url, size):
    """Recommend in Chinese: the verdict and the ranking table are whole (nothing cut, no sideways scrolling), the
    verdict lies on the first screen and the ranking table starts on it (a phone: within two screens, as in
    English, tests/e2e/test_layout.py)."""
    page = _fresh(browser, "zh-CN", size)
    assert _title(page, f"{app_url}/?lang=zh") == "推荐 AI 技术栈"
    ranking = (
        page.get_by_test_id("stMain").locator("[data-testid=stMarkdownContainer]").filter(has=page.locator("table"))
    )
    ranking = ranking.first
    verdict, table = ranking.locator("h3").first, ranking.locator("table").first
    expect(verdict).to_be_visible(timeout=TIMEOUT_MS)
    assert verdict.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth + 1")
    screens = 1 if size == DESKTOP else 2
    verdict_box, table_box = verdict.bounding_box(), table.bounding_box()
    assert verdict_box is not None and table_box is not None
    assert verdict_box["y"] + verdict_box["height"] <= screens * size[1]
    assert table_box["y"] < screens * size[1]
    assert _cut(page, size == DESKTOP) == []
    page.screenshot(path=str(ARTIFACTS / f"lang-zh-recommend-first-screen-{size[0]}x{size[1]}.png"))
    page.context.close()


LLM_WORKLOAD = (
    "group=llm-serving-single-accelerator&wl=model%3Dllama-3.1-8b%2Ccontext%3D2048%2Cttft-ms%3D200%2Ctpot-ms%3D50"
)


@pytest.mark.parametrize(("lang", "cost"), [("zh", "租用：每百万输出 token"), ("en", "rent: USD")])
def test_the_llm_workload_link_shows_the_fit_in_the_page_language(browser, app_url, lang, cost):
    """Recommend with an LLM workload in the link: the workload box's cost sentences are in the page's language,
    nothing is cut, and a screenshot of each language (lang-{zh,en}-recommend-llm-workload.png)."""
    page = _fresh(browser, "zh-CN" if lang == "zh" else "en-US", DESKTOP)
    title = _title(page, f"{app_url}/?{LLM_WORKLOAD}&lang={lang}")
    assert title == ("推荐 AI 技术栈" if lang == "zh" else "Recommend an AI stack")
    expect(page.get_by_test_id("stMain").get_by_text(cost).first).to_be_visible(timeout=TIMEOUT_MS)
    assert _cut(page, True) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _whole_page_screenshot(page, DESKTOP, ARTIFACTS / f"lang-{lang}-recommend-llm-workload.png")
    page.context.close()
