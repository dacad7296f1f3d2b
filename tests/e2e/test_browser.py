"""The app in a real browser (Debian chromium through Playwright): what a user clicks changes what they see."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from playwright.sync_api import Page, expect

from selector import knowledge, recommend, views
from selector.preferences import Preferences

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _ranking_table(page: Page):
    # The data grid draws on a canvas; its accessible table mirror carries the cell text.
    return page.locator("[data-testid=stDataFrame] table").filter(has=page.locator("th", has_text="shortlisted"))


def _ranking(page: Page) -> list[tuple[str, str]]:
    table = _ranking_table(page)
    expect(table).to_have_count(1, timeout=TIMEOUT_MS)
    rows = table.locator("tbody tr")
    return [
        (row.locator("td").nth(1).text_content() or "", row.locator("td").nth(2).text_content() or "")
        for row in rows.all()
    ]


def _idle(page: Page) -> None:
    """Wait until the script run triggered by the last interaction has finished."""
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=TIMEOUT_MS)


def _shot(page: Page, name: str) -> None:
    # Streamlit scrolls inside its own container, so a full-page shot needs a window as tall as the content.
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]')?.scrollHeight || 1000")
    page.set_viewport_size({"width": 1440, "height": min(max(int(height), 1000), 4000)})
    # charts and lazily drawn widgets redraw for the new size; wait until every chart has its SVG again
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')]"
        ".every(chart => chart.querySelector('svg.main-svg'))",
        timeout=TIMEOUT_MS,
    )
    page.wait_for_timeout(800)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_page_loads_and_shows_the_ranking(page: Page, app_url: str, kb):
    page.goto(app_url)
    expect(page.get_by_role("heading", name="Recommend an AI stack")).to_be_visible(timeout=TIMEOUT_MS)
    shown = _ranking(page)
    expected = recommend.recommend(kb, Preferences(group=next(iter(kb.groups)))).ranking
    assert [name for name, _ in shown] == [r.name for r in expected]
    assert [float(score) for _, score in shown] == pytest.approx([r.score for r in expected])
    expect(page.get_by_text(re.compile(r"first in \d+% of plausible weightings"))).to_be_visible()
    _shot(page, "recommend")


def test_answering_a_question_fires_its_rule(page: Page, app_url: str, kb):
    page.goto(app_url)
    rationale = page.get_by_text("Article 000's decision tree: industrial deployment")
    expect(page.get_by_text("Industrial deployment", exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    expect(rationale).to_have_count(0)
    page.get_by_text("Industrial deployment", exact=True).click()
    expect(rationale).to_be_visible(timeout=TIMEOUT_MS)
    expect(page).to_have_url(re.compile(r"answers=goal%3Dindustrial"))
    # the rule's sources open on demand: its quote is the article's own sentence
    page.get_by_text("Sources (1)").first.click()
    quote = kb.claims[kb.rules["tree000-industrial"].claims[0]].quote
    expect(page.locator("blockquote").filter(has_text=quote).first).to_be_visible(timeout=TIMEOUT_MS)
    _shot(page, "decision-path")


def test_keyboard_on_a_weight_slider_changes_the_ranking(page: Page, app_url: str):
    page.goto(app_url)
    before = _ranking(page)
    before_text = _ranking_table(page).locator("tbody").text_content() or ""
    slider = page.get_by_role("slider").first
    expect(slider).to_have_attribute("aria-valuetext", "40", timeout=TIMEOUT_MS)
    slider.focus()
    slider.press("End")
    expect(slider).to_have_attribute("aria-valuetext", "100")
    expect(page).to_have_url(re.compile(r"w=performance%3D100"), timeout=TIMEOUT_MS)
    # the grid redraws once the rerun's result arrives: wait for its text to change
    body = _ranking_table(page).locator("tbody")
    expect(body).not_to_have_text(before_text, timeout=TIMEOUT_MS)
    after = _ranking(page)
    assert after != before
    assert sorted(name for name, _ in after) == sorted(name for name, _ in before)
    _shot(page, "slider-moved")


def test_selecting_an_evidence_row_shows_its_quote(page: Page, app_url: str, kb):
    page.goto(f"{app_url}/evidence")
    search = page.get_by_label("Search (Chinese or English)")
    expect(search).to_be_visible(timeout=TIMEOUT_MS)
    search.fill("能效比")
    search.press("Enter")
    first = views.filter_claims(kb, text="能效比")[0]
    grid = page.locator("[data-testid=stDataFrame]").first
    expect(grid.locator("table tbody tr")).to_have_count(len(views.filter_claims(kb, text="能效比")))
    # tick the row's selection box at the left edge of the first data row (the grid is a canvas)
    box = grid.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 18, box["y"] + 35 + 17)
    expect(page.get_by_role("heading", name=f"Claim {first.id}")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("blockquote").filter(has_text=first.quote)).to_be_visible()
    _shot(page, "evidence-selected")


@pytest.mark.parametrize("path", ["frameworks", "accelerators", "techniques", "robustness"])
def test_other_pages_render_without_errors(page: Page, app_url: str, path: str):
    page.goto(f"{app_url}/{path}")
    expect(page.locator("h1")).to_be_visible(timeout=TIMEOUT_MS)
    _idle(page)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    _shot(page, path)
