"""One robustness figure and numbers for people, in a real browser (issue 34, points 4 and 6): what the Recommend
badge, the Robustness page, the Export page and the downloaded Markdown and HTML records print for one ranking."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from pageload import TIMEOUT_MS, wait_rendered
from playwright.sync_api import Page, expect

from selector import verdict
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
# The 70B group: its leader is first in every weighting near the defaults but in fewer than 75% of all of them, so
# the badge's colour (the share near yours) and the page's level (the share anywhere) read different thresholds.
GROUP = "llm-inference-accelerators"
# The pair of thresholds as the issue fixed them (0.75 / 0.5), written out here rather than read from the code.
LEVELS = "robust at 75% or more of first places, fragile from 50%, not robust below 50%"
SAMPLES = "2,000"
# A number in scientific notation (1.293e+04, 3e-7), the form the issue found in the page and every report.
# A hash or a claim id (``a4e6f``, ``mi325x-l70``) holds such letters and digits inside a word: a number stands alone.
SCIENTIFIC = re.compile(r"(?<![\w.])\d+(?:\.\d+)?e[+-]?\d+(?!\w)")


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture(scope="module")
def judged(kb):
    prefs = Preferences(group=GROUP)
    rec = recommend.recommend(kb, prefs)
    local = verdict.local_share(rec)
    whole = verdict.whole_simplex_share(kb, prefs, rec.recommended_entry.name)
    return rec, verdict.judge(rec, local_share=local, global_share=whole), whole


def _open(page: Page, url: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(url)
    expect(page.locator("h1").first).to_be_visible(timeout=TIMEOUT_MS)
    wait_rendered(page)


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"figures-{name}.png"), full_page=True)


def _download(page: Page, label: str, folder: Path) -> str:
    button = page.get_by_role("button", name=re.compile(label))
    expect(button).to_be_visible(timeout=TIMEOUT_MS)
    with page.expect_download(timeout=TIMEOUT_MS) as caught:
        button.click()
    path = folder / caught.value.suggested_filename
    caught.value.save_as(path)
    return path.read_text(encoding="utf-8")


def _html_text(page: str) -> str:
    """An HTML record as a reader sees it: without styles, scripts (the decision record's JSON) and tags."""
    body = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def _without_record(markdown: str) -> str:
    """The Markdown record without its machine-readable decision record (full-precision JSON, by design)."""
    return re.sub(r"```json decision-record\n.*?\n```", " ", markdown, flags=re.S)


def _downloads(page: Page, app_url: str, folder: Path) -> dict[str, str]:
    _open(page, f"{app_url}/export?group={GROUP}")
    expect(page.get_by_text("Recommendation report")).to_be_visible(timeout=TIMEOUT_MS)
    return {
        "md": _without_record(_download(page, "Markdown", folder)),
        "html": _html_text(_download(page, "HTML", folder)),
    }


# ----------------------------------------------------------------------------------------------------------
# 4. One robustness figure


def test_the_badge_the_robustness_page_and_the_report_show_one_figure(page: Page, app_url: str, judged, tmp_path):
    rec, verdict_, whole = judged
    name = rec.recommended_entry.name
    share = f"{whole:.0%}"
    level = "robust" if whole >= 0.75 else "fragile" if whole >= 0.5 else "not robust"
    held = f"{name} is first in {share} of {SAMPLES} weightings anywhere on the weight simplex: {level}"
    assert f"of {SAMPLES} weightings within ±10 points of yours" in verdict_.badge and share in verdict_.badge

    # Recommend: the badge under the headline, its help naming the sample count and the thresholds
    _open(page, f"{app_url}/?group={GROUP}")
    main = page.get_by_test_id("stMain")
    badge = main.get_by_text(verdict_.badge, exact=False).first
    expect(badge).to_be_visible()
    main.get_by_test_id("stTooltipIcon").first.hover()
    tooltip = page.get_by_test_id("stTooltipContent")
    expect(tooltip).to_be_visible(timeout=TIMEOUT_MS)
    assert f"{SAMPLES} weightings" in tooltip.inner_text() and LEVELS in tooltip.inner_text()
    _shot(page, "recommend-badge")

    # Robustness: the same badge, then the share anywhere with its level and the same thresholds
    _open(page, f"{app_url}/robustness?group={GROUP}")
    text = page.get_by_test_id("stMain").inner_text()
    assert f"{verdict_.badge} (the Recommend page's badge)" in text
    assert f"{held} ({LEVELS})." in text
    assert f"Sampled: {SAMPLES} weightings" in text
    _shot(page, "robustness-page")

    # Export and the downloaded records: the badge, and the same share, sample count, level and thresholds
    texts = _downloads(page, app_url, tmp_path)
    for fmt, text in texts.items():
        flat = re.sub(r"\s+", " ", text.replace("\\", ""))
        assert f"Robustness around your weights: {verdict_.badge}" in flat, fmt
        assert f"{held} (SMAA rank acceptability; {LEVELS})." in flat, fmt
        assert f"{share} of {SAMPLES} sampled weightings rank {name} first" in flat, fmt
    page.get_by_test_id("stMetric").filter(has_text="Score leader first in").get_by_test_id("stTooltipIcon").hover()
    expect(page.get_by_test_id("stTooltipContent")).to_contain_text(f"share of {SAMPLES} sampled weightings")
    _shot(page, "export")


# ----------------------------------------------------------------------------------------------------------
# 6. Numbers for people


def _grouped(printed: str, value: float) -> None:
    """`printed` is `value` for a reader: thousands in groups of three with commas, at most 4 significant digits
    lost, no exponent."""
    assert re.fullmatch(r"\d{1,3}(,\d{3})*(\.\d+)?", printed), f"{printed!r} is not written for people"
    assert abs(float(printed.replace(",", "")) - value) <= 5e-4 * abs(value), (printed, value)


GROUPED = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")


def test_numbers_are_written_for_people_in_the_page_and_the_downloads(page: Page, app_url: str, kb, judged, tmp_path):
    m = judged[0].matrix
    # the thousands of this group (tokens per second per accelerator), measured, not filled in
    big = [
        (m.criteria[j], cell.value)
        for row in m.cells
        for j, cell in enumerate(row)
        if cell.value >= 1000 and not cell.imputed
    ]
    assert len(big) >= 4, "the case needs values in the thousands"

    # the page: no exponent anywhere, and each evidence value (after a dash) grouped and followed by its unit
    _open(page, f"{app_url}/?group={GROUP}")
    main_text = page.get_by_test_id("stMain").inner_text()
    assert not SCIENTIFIC.search(main_text), SCIENTIFIC.search(main_text)
    unit = kb.criteria[big[0][0]].unit
    shown = re.findall(r"— ([\d,.]+) " + re.escape(unit), main_text)
    assert shown, f"no evidence value in {unit} on the page"
    for printed in shown:
        _grouped(printed, float(printed.replace(",", "")))
        assert float(printed.replace(",", "")) < 1000 or "," in printed, printed
    _shot(page, "recommend-numbers")

    # the records: no exponent outside the machine-readable record, each big cell grouped, every unit named
    texts = _downloads(page, app_url, tmp_path)
    for fmt, text in texts.items():
        assert not SCIENTIFIC.search(text), (fmt, SCIENTIFIC.search(text))
        printed = [float(p.replace(",", "")) for p in GROUPED.findall(text)]
        for criterion, value in big:
            assert any(abs(p - value) <= 5e-4 * value for p in printed), (fmt, criterion, value)
            assert kb.criteria[criterion].unit in text, (fmt, kb.criteria[criterion].unit)
