"""Layout and wording in a real browser (issue 14, point 10): what fits on a laptop and a phone, what the labels
say, what a screen reader hears, and that nothing is fetched from outside the app."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from pageload import TIMEOUT_MS, open_tab, section_tabs, wait_rendered
from playwright.sync_api import Page, expect

from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
LAPTOPS = [(1024, 768), (1440, 900)]
PHONE = (390, 844)
PAGES = ["", "frameworks", "accelerators", "evidence", "techniques", "robustness", "my_data", "export", "data_sources"]
# The pages drawn as one tab per section (app_pages._widgets.section_tabs)
SECTIONED = ("frameworks", "accelerators", "robustness")


# Visible text cut off by its box: an element that clips (ellipsis or hidden overflow) narrower than its text.
# Data grids draw on a canvas (their cells are checked through their scroll width), select boxes show one line of
# a chosen value by design.
_CUT = """() => [...document.querySelectorAll('[data-testid=stMain] *, [data-testid=stSidebar] *')]
    .filter(e => e.checkVisibility() && e.textContent.trim() && !e.closest('[data-testid=stDataFrame]')
        && !e.closest('[data-baseweb=select]'))
    .filter(e => {
        const style = getComputedStyle(e);
        const clips = style.textOverflow === 'ellipsis' || style.overflowX === 'hidden' || style.overflow === 'hidden';
        return clips && e.scrollWidth > e.clientWidth + 1;
    })
    .map(e => e.textContent.trim().slice(0, 80))"""

# A chart title wider than its chart is clipped by the SVG.
_CUT_TITLES = """() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')].filter(c => c.checkVisibility())
    .flatMap(c => {
        const svg = c.querySelector('.main-svg').getBoundingClientRect();
        return [...c.querySelectorAll('.gtitle, .g-xtitle, .g-ytitle')].filter(t => {
            const box = t.getBoundingClientRect();
            return box.width > 0 && (box.left < svg.left - 1 || box.right > svg.right + 1);
        }).map(t => t.textContent);
    })"""

# A backslash before ASCII punctuation: a Markdown escape that a screen reader would read out.
_ESCAPED = re.compile(r"\\[\\`*_{}\[\]()#+\-.!|<>~$:&=]")


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _open(page: Page, url: str, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(url)
    expect(page.locator("h1").first).to_be_visible(timeout=TIMEOUT_MS)
    wait_rendered(page)


def _aria_labels(page: Page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label'))")


def _show_chart(page: Page) -> None:
    page.get_by_test_id("stMain").get_by_text(re.compile(r"^Show what each criterion adds .* as a chart$")).click()
    wait_rendered(page)


def _ranking_table(page: Page):
    table = page.locator("[data-testid=stMarkdownContainer] table").filter(
        has=page.locator("th", has_text=re.compile(r"^score$"))
    )
    expect(table).to_have_count(1, timeout=TIMEOUT_MS)
    return table


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p or "recommend")
def test_page_fits_a_laptop_and_fetches_nothing_from_outside(page: Page, app_url: str, path: str):
    """At 1024x768: no text, badge or chart title is cut; the page (favicon included) loads only from the app;
    no aria-label carries a Markdown escape and no Markdown syntax shows as text."""
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("data:", "blob:", app_url)) else None)
    _open(page, f"{app_url}/{path}", LAPTOPS[0])
    if path == "":
        _show_chart(page)
    # every section of a page with tabs, each drawn when its tab is opened
    tabs = section_tabs(page)
    assert path not in SECTIONED or len(tabs) >= 3, tabs
    for tab in [None, *tabs[1:]]:
        if tab is not None:
            open_tab(page, tab)
        assert page.evaluate(_CUT) == [], tab
        assert page.evaluate(_CUT_TITLES) == [], tab
        assert [label for label in _aria_labels(page) if _ESCAPED.search(label)] == [], tab
        text = page.get_by_test_id("stMain").inner_text()
        assert "**" not in text, tab
        assert not _ESCAPED.search(text), tab
    assert outside == []


@pytest.mark.parametrize("size", LAPTOPS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("group", ["training-frameworks", "datacenter-accelerators"])
def test_ranking_shows_rank_name_and_score_without_scrolling(page: Page, app_url: str, kb, size, group):
    _open(page, f"{app_url}/?group={group}", size)
    grid = _ranking_table(page)
    assert grid.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth + 1")
    headers = grid.locator("th").all_text_contents()
    assert headers[:3] == ["rank", "name", "score"]
    names = [r.name for r in recommend.recommend(kb, Preferences(group=group)).ranking]
    assert grid.locator("tbody tr td:nth-child(2)").all_text_contents() == names
    assert page.evaluate(_CUT) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"layout-ranking-{group}-{size[0]}x{size[1]}.png"))


def test_phone_shows_the_recommendation_within_two_screens(page: Page, app_url: str):
    _open(page, app_url, PHONE)
    headline = page.get_by_test_id("stMain").get_by_text(re.compile(r"^(Recommended|Tie for first|Too close)")).first
    expect(headline).to_be_visible(timeout=TIMEOUT_MS)
    box = headline.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 2 * PHONE[1]
    page.screenshot(path=str(ARTIFACTS / "layout-phone.png"))


def _slider_labels(page: Page, where: str) -> list[str]:
    sliders = page.get_by_test_id(where).get_by_test_id("stSlider")
    return [s.get_by_test_id("stWidgetLabel").inner_text() for s in sliders.all()]


def test_weight_sliders_say_relative_weight_and_show_their_share(page: Page, app_url: str, kb):
    _open(page, app_url, LAPTOPS[1])
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    labels = _slider_labels(page, "stMain")
    assert len(labels) == len(kb.dimensions)
    for dim, label in zip(kb.dimensions.values(), labels, strict=True):
        share = rec.matrix.dimension_weights.get(dim.id, 0.0)
        assert dim.name_en in label and "relative weight" in label
        assert f"{share:.0%}" in label
    slider = page.get_by_test_id("stMain").get_by_role("slider").first
    slider.focus()
    slider.press("End")
    expect(page).to_have_url(re.compile(r"w=performance%3D100"), timeout=TIMEOUT_MS)
    wait_rendered(page)
    moved = recommend.recommend(kb, Preferences(group="training-frameworks", dimension_weights={"performance": 100}))
    assert f"{moved.matrix.dimension_weights['performance']:.0%}" in _slider_labels(page, "stMain")[0]
    # the sub-criterion sliders: a relative weight inside their dimension, with the share it gives
    page.get_by_test_id("stSidebar").get_by_text("Sub-criterion weights").click()
    wait_rendered(page)
    inner = _slider_labels(page, "stSidebar")
    assert inner and all("relative weight" in label and re.search(r"\d+% of ", label) for label in inner)
    assert page.evaluate(_CUT) == []


def test_a_group_switch_leaves_no_label_of_the_old_group(page: Page, app_url: str, kb):
    _open(page, app_url, LAPTOPS[1])
    page.get_by_test_id("stSidebar").get_by_text("Sub-criterion weights").click()
    wait_rendered(page)
    old, new = kb.groups["training-frameworks"], kb.groups["edge-accelerators"]
    page.get_by_test_id("stSelectbox").filter(has_text="What are you choosing?").click()
    page.keyboard.type(new.name_en)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"group=edge-accelerators"), timeout=TIMEOUT_MS)
    wait_rendered(page)
    expect(page.get_by_test_id("stSidebar").get_by_text(new.name_en).first).to_be_visible()
    text = page.get_by_test_id("stMain").inner_text() + page.get_by_test_id("stSidebar").inner_text()
    assert old.name_en not in text
    assert not [label for label in _aria_labels(page) if old.name_en in label]


def test_robustness_heatmap_and_tables_share_one_order(page: Page, app_url: str, kb):
    _open(page, f"{app_url}/robustness", LAPTOPS[1])
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    order = [r.name for r in rec.ranking]
    heatmap = page.locator(".st-key-chart-acceptability")
    ticks = heatmap.locator(".yaxislayer-above .ytick text")
    # as drawn, top to bottom
    rows = sorted(ticks.all(), key=lambda t: (t.bounding_box() or {"y": 0})["y"])
    assert [t.text_content() for t in rows] == order
    summary = page.get_by_test_id("stMarkdownContainer").locator("table").filter(has_text="ranked first")
    assert summary.locator("tbody tr td:first-child").all_text_contents() == order


def test_contribution_chart_marks_filled_in_values(page: Page, app_url: str, kb):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    assert rec.matrix.imputed_cells  # MindSpore has cells without evidence
    _open(page, app_url, LAPTOPS[1])
    # the ranking table counts them
    grid = _ranking_table(page)
    assert "filled in" in grid.locator("th").all_text_contents()
    _show_chart(page)
    chart = page.locator(".st-key-contribution-chart")
    expect(chart.locator(".annotation-text", has_text="hatched: filled in")).to_have_count(1)
    hatched = chart.locator(".barlayer .point path[style*='url(']")
    assert hatched.count() == len(rec.matrix.imputed_cells)


def test_columns_that_matter_are_shown_whole_with_names_not_ids(page: Page, app_url: str, kb):
    _open(page, f"{app_url}/evidence", LAPTOPS[0])
    page.get_by_text(re.compile(r"^All \d+ findings")).click()
    wait_rendered(page)
    conflicts = (
        page.get_by_test_id("stMarkdownContainer").locator("table").filter(has=page.locator("th", has_text="message"))
    )
    expect(conflicts).to_have_count(1)
    cells = conflicts.locator("td")
    assert cells.evaluate_all("cells => cells.every(c => c.scrollWidth <= c.clientWidth + 1)")
    assert conflicts.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth + 1")
    metrics = {c.metric for c in kb.claims.values() if c.metric and "_" in c.metric}
    shown = conflicts.inner_text()
    assert not [m for m in metrics if m in shown]
