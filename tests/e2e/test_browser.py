"""The app in a real browser (Debian chromium through Playwright): what a user clicks changes what they see."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from pageload import TIMEOUT_MS, open_tab, wait_rendered
from playwright.sync_api import Page, expect

from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.robustness import analysis, figure
from selector.views.evidence import filter_claims

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _ranking_table(page: Page):
    # a Markdown table (static HTML), the one whose header names the shortlist
    return page.locator("[data-testid=stMarkdownContainer] table").filter(
        has=page.locator("th", has_text=re.compile(r"^score$"))
    )


def _ranking(page: Page) -> list[tuple[str, str]]:
    table = _ranking_table(page)
    expect(table).to_have_count(1, timeout=TIMEOUT_MS)
    rows = table.locator("tbody tr")
    return [
        (row.locator("td").nth(1).text_content() or "", row.locator("td").nth(2).text_content() or "")
        for row in rows.all()
    ]


def _idle(page: Page) -> None:
    """Wait until the script run triggered by the last interaction has finished and its output is drawn."""
    wait_rendered(page)


def _shot(page: Page, name: str) -> None:
    """A full-page screenshot of what a user sees once every chart and table is drawn."""
    wait_rendered(page)
    # Streamlit scrolls inside its own container, so a full-page shot needs a window as tall as the content.
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]')?.scrollHeight || 1000")
    page.set_viewport_size({"width": 1440, "height": min(max(int(height), 1000), 6000)})
    # charts and grids redraw for the new size
    wait_rendered(page)
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.set_viewport_size({"width": 1440, "height": 1000})


def test_page_loads_and_shows_the_ranking(page: Page, app_url: str, kb):
    page.goto(app_url)
    expect(page.get_by_role("heading", name="Recommend an AI stack")).to_be_visible(timeout=TIMEOUT_MS)
    shown = _ranking(page)
    expected = recommend.recommend(kb, Preferences(group=next(iter(kb.groups)))).ranking
    assert [name for name, _ in shown] == [r.name for r in expected]
    assert [float(score) for _, score in shown] == pytest.approx([r.score for r in expected], abs=5.1e-5)  # 4 decimals
    # a badge with help text comes with a hidden copy (Streamlit measures it); the visible one is the badge
    badge = page.get_by_text(
        re.compile(r"first in \d+% of 2,000 weightings within ±10 points of yours · \d+% anywhere")
    ).filter(visible=True)
    expect(badge).to_have_count(1, timeout=TIMEOUT_MS)
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
    # the performance weight: the first slider of the page body (the sidebar holds the sub-criterion weights)
    slider = page.get_by_test_id("stMain").get_by_role("slider").first
    expect(slider).to_have_attribute("aria-valuetext", "40", timeout=TIMEOUT_MS)
    slider.focus()
    slider.press("End")
    expect(slider).to_have_attribute("aria-valuetext", "100")
    expect(page).to_have_url(re.compile(r"w=performance%3D100"), timeout=TIMEOUT_MS)
    # the table redraws once the rerun's result arrives: wait for its text to change
    body = _ranking_table(page).locator("tbody")
    expect(body).not_to_have_text(before_text, timeout=TIMEOUT_MS)
    after = _ranking(page)
    assert after != before
    assert sorted(name for name, _ in after) == sorted(name for name, _ in before)
    _shot(page, "slider-moved")


def test_picking_a_claim_shows_its_quote(page: Page, app_url: str, kb):
    page.goto(f"{app_url}/evidence")
    search = page.get_by_label("Search (Chinese or English)")
    expect(search).to_be_visible(timeout=TIMEOUT_MS)
    search.fill("能效比")
    search.press("Enter")
    found = filter_claims(kb, text="能效比")
    # few enough to be shown whole in the static table above the grid
    table = page.get_by_test_id("stMarkdownContainer").locator("table").filter(has_text="quote (Chinese)")
    expect(table.locator("tbody tr")).to_have_count(len(found), timeout=TIMEOUT_MS)
    _idle(page)
    # the claim picker below the table (the grid, in its expander, is a canvas: no stable target to click)
    picker = page.get_by_test_id("stSelectbox").filter(has_text="Show a claim")
    picker.click()
    page.keyboard.type(found[1].id)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=f"Claim {found[1].id}")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("blockquote").filter(has_text=found[1].quote)).to_be_visible()
    _shot(page, "evidence-selected")


def test_robustness_page_draws_the_tipping_points(page: Page, app_url: str, kb):
    page.goto(f"{app_url}/robustness?group=edge-accelerators")
    rec = recommend.recommend(kb, Preferences(group="edge-accelerators"))
    result = analysis.analyse(rec, samples=figure.SAMPLES, seed=figure.SEED)
    shown = f"{result.leader} is {result.badge}: {figure.level(result.leader_share)} ({figure.levels()})."
    expect(page.get_by_text(shown)).to_be_visible(timeout=TIMEOUT_MS)
    _idle(page)
    open_tab(page, "Tipping points")
    for tip in result.tipping_points:
        expect(page.get_by_text(tip.sentence)).to_be_visible()
    _idle(page)
    # the sweep chart draws one dashed line per tipping point of the swept dimension, plus the current weight
    sweep = page.locator(".st-key-chart-weight-sweep").filter(has_text="Scores as the weight")
    expect(sweep.locator(".shapelayer path")).to_have_count(
        1 + sum(t.dimension == result.tipping_points[0].dimension for t in result.tipping_points)
    )
    _shot(page, "robustness-tipping-points")


@pytest.mark.parametrize("path", ["frameworks", "accelerators", "techniques", "robustness"])
def test_other_pages_render_without_errors(page: Page, app_url: str, path: str):
    page.goto(f"{app_url}/{path}")
    expect(page.locator("h1")).to_be_visible(timeout=TIMEOUT_MS)
    _idle(page)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    _shot(page, path)
