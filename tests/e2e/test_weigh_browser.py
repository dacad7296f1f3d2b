"""The "Help me weigh" box in a real browser (Debian chromium through Playwright): swing weighting and pairwise
comparisons fill the dimension sliders, the link records the answers (and reproduces them when opened), and the
report downloaded from Export says how the weights were elicited."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from pageload import TIMEOUT_MS, wait_rendered
from playwright.sync_api import Page, expect

from selector.decision import elicitation
from selector.knowledge import loading as knowledge
from selector.views import weigh

pytestmark = pytest.mark.e2e

BOX = "Help me weigh: swing weighting or pairwise comparisons"
DIMENSIONS = ("performance", "cost", "ecosystem", "risk")


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _dimension_slider(page: Page, kb, dim: str):
    name = kb.dimensions[dim]
    return page.get_by_role("slider", name=re.compile(rf"^{name.name_en} \({name.name_zh}\): relative weight"))


def _slider_values(page: Page, kb) -> list[str]:
    return [_dimension_slider(page, kb, d).get_attribute("aria-valuetext") for d in DIMENSIONS]


def _expect_sliders(page: Page, kb, weights: dict[str, float]) -> None:
    for d in DIMENSIONS:
        expect(_dimension_slider(page, kb, d)).to_have_attribute(
            "aria-valuetext", f"{weights[d]:g}", timeout=TIMEOUT_MS
        )


def _open_box(page: Page, app_url: str) -> None:
    page.goto(app_url)
    expect(page.get_by_role("heading", name="Recommend an AI stack")).to_be_visible(timeout=TIMEOUT_MS)
    page.get_by_text(BOX).click()
    wait_rendered(page)


def _set(page: Page, name: str, key: str) -> None:
    slider = page.get_by_role("slider", name=name)
    slider.focus()
    slider.press(key)
    wait_rendered(page)


def _report_markdown(page: Page, app_url: str, tmp_path: Path) -> str:
    """The Markdown report from the Export page, reached through the navigation (the session keeps the weights)."""
    page.get_by_role("link", name="Export").click()
    button = page.get_by_role("button", name="Markdown (decision record)")
    expect(button).to_be_visible(timeout=TIMEOUT_MS)
    with page.expect_download(timeout=TIMEOUT_MS) as caught:
        button.click()
    path = tmp_path / "report.md"
    caught.value.save_as(path)
    return path.read_text(encoding="utf-8").replace("\\", "")  # the Markdown escapes removed


def test_swing_weighting_fills_the_sliders_the_link_and_the_report(page: Page, app_url: str, kb, tmp_path):
    _open_box(page, app_url)
    # the swings are shown on the group's scales, with the evidence's range
    expect(page.get_by_text(re.compile(r"from 1 to 5 .*this group's evidence")).first).to_be_visible()
    # performance is the swing taken first (the heaviest weight in force); cost to 100, ecosystem to 0
    _set(page, "Cost's swing, beside Performance's 100", "End")
    _set(page, "Ecosystem's swing, beside Performance's 100", "Home")
    risk = int(
        page.get_by_role("slider", name="Risk's swing, beside Performance's 100").get_attribute("aria-valuetext")
    )
    ratings = {"performance": 100, "cost": 100, "ecosystem": 0, "risk": risk}
    expected = elicitation.percentages(elicitation.swing(list(DIMENSIONS), ratings).weights)
    page.get_by_role("button", name="Use these weights").click()
    _expect_sliders(page, kb, expected)
    expect(page.get_by_text(re.compile("These weights come from swing weighting"))).to_be_visible(timeout=TIMEOUT_MS)
    query = parse_qs(urlparse(page.url).query)
    assert query["el"] == [f"swing:performance=100,cost=100,ecosystem=0,risk={risk}"]
    link = page.url
    report = _report_markdown(page, app_url, tmp_path)
    assert "**How the weights were elicited:** swing weighting" in report
    assert "- Cost: 100 (the swing taken first)" in report
    assert "- Ecosystem: 0 (0 % of the first swing)" in report
    # the link opened afresh shows the same sliders and the same record
    page.goto(link)
    _expect_sliders(page, kb, expected)
    expect(page.get_by_text(re.compile("These weights come from swing weighting"))).to_be_visible(timeout=TIMEOUT_MS)


def test_pairwise_comparisons_flag_an_inconsistency_revise_it_and_fill_the_sliders(
    page: Page, app_url: str, kb, tmp_path
):
    _open_box(page, app_url)
    page.get_by_text("Pairwise comparisons (AHP)").click()
    wait_rendered(page)
    judgements = weigh.starting_judgements({d: dim.weight for d, dim in kb.dimensions.items()}, weigh.comparisons(kb))
    names = {d: dim.name_en for d, dim in kb.dimensions.items()}

    def slider_name(key: str) -> str:
        a, b = key.split("/")
        return f"{names[a]} (left) or {names[b]} (right): which matters more, and how much?"

    def result() -> elicitation.PairwiseResult:
        return elicitation.pairwise(
            list(DIMENSIONS), [elicitation.parse_judgement(f"{k}={v}") for k, v in judgements.items()]
        )

    # Risk far above Ecosystem (the slider's right end, 1/9) contradicts the other judgements
    _set(page, slider_name("ecosystem/risk"), "End")
    judgements["ecosystem/risk"] = "1/9"
    assert not result().acceptable
    warning = page.get_by_text(re.compile(r"Consistency ratio \d\.\d{3}: above 0\.10"))
    expect(warning).to_be_visible(timeout=TIMEOUT_MS)
    expect(warning).to_contain_text(f"Consistency ratio {result().consistency_ratio:.3f}")
    # revise the judgement named until the ratio is acceptable, checking each suggestion against selector's
    for _ in range(6):
        current = result()
        if current.acceptable:
            break
        worst = current.most_inconsistent
        expect(warning).to_contain_text(f"The most inconsistent: {worst.given.sentence(names)}")
        page.get_by_role("button", name=f"Revise it: {worst.revised_sentence(names)}").click()
        wait_rendered(page)
        key = f"{worst.given.better}/{worst.given.worse}"
        judgements[key] = elicitation.format_value(worst.suggestion)
        label = weigh.choice_label(worst.suggestion, names[worst.given.better], names[worst.given.worse])
        expect(page.get_by_role("slider", name=slider_name(key))).to_have_attribute("aria-valuetext", label)
    final = result()
    assert final.acceptable
    expect(warning).to_have_count(0, timeout=TIMEOUT_MS)
    expect(page.get_by_text(f"Consistency ratio {final.consistency_ratio:.3f}: acceptable")).to_be_visible()
    page.get_by_role("button", name="Use these weights").click()
    expected = elicitation.percentages(final.weights)
    _expect_sliders(page, kb, expected)
    query = parse_qs(urlparse(page.url).query)
    assert query["el"] == ["pairwise:" + ",".join(f"{k}={v}" for k, v in judgements.items())]
    report = _report_markdown(page, app_url, tmp_path)
    assert "**How the weights were elicited:** pairwise comparisons (AHP)" in report
    assert f"Consistency ratio {final.consistency_ratio:.3f}: acceptable" in report
    for sentence in elicitation.answer_sentences(final, names):
        assert f"- {sentence}" in report
