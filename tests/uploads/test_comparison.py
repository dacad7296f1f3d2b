"""Tests of selector/uploads/comparison.py: users' values beside the bundled ones and which ranking reads them."""

from __future__ import annotations

import pytest

from selector.decision import recommend
from selector.decision.matrix import build
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.uploads import comparison, intake
from tests.conftest import KNOWLEDGE
from tests.uploads.conftest import EDGE, UPLOADS, check

# Left to `make test` (marked slow: tests/conftest.py): every test checks an upload against the whole knowledge.
pytestmark = pytest.mark.slow


def test_conflicts_report_the_article_figure_and_the_relative_difference() -> None:
    result = check(UPLOADS / "good_orin_override.csv")
    kb = result.kb
    found = comparison.user_vs_article_conflicts(kb, comparison.user_source_ids(kb))
    assert {f.user_claim for f in found} == {"u-orin-tops"}
    by_other = {f.other_claim: f for f in found}
    article = kb.claims["c004-orin-tops"]
    conflict = by_other["c004-orin-tops"]
    assert conflict.overrides is True
    assert conflict.other_value == article.value
    assert conflict.relative_difference == pytest.approx((275.0 - article.value) / article.value)
    assert conflict.comparable is True, "precision int8 on both sides; the article's extra `scenario` is no clash"
    assert conflict.other_flagged == article.flagged
    others = [c for c in kb.claims.values() if c.metric == "tops_int8" and c.subject_id == "jetson-orin"]
    assert len(found) == len(others) - 1  # every bundled Orin TOPS claim, not the user's own


def test_conflicts_mark_different_conditions_as_not_comparable() -> None:
    csv_text = "id,entity,metric,value,unit,precision\nu-orin-fp16,jetson-orin,tops_int8,100,TOPS,fp16\n"
    kb = intake.validate_upload("fp16.csv", csv_text.encode(), KNOWLEDGE).kb
    [conflict] = [
        f for f in comparison.user_vs_article_conflicts(kb, ["user-fp16"]) if f.other_claim == "c004-orin-tops"
    ]
    assert conflict.comparable is False and conflict.differing_conditions == ("precision",)
    assert conflict.overrides is False


def test_comparison_rows_put_the_users_value_beside_the_bundled_ones() -> None:
    result = check(UPLOADS / "good_orin_override.csv")
    rows = comparison.comparison_rows(result.kb, result.source_ids)
    assert rows[0]["claim"] == "u-orin-tops" and rows[0]["origin"] == "yours" and rows[0]["tier"] == "measured"
    article = next(r for r in rows if r["claim"] == "c004-orin-tops")
    assert article["origin"] == "article" and article["tier"] == "claimed"
    assert article["ranking"] == "replaced by u-orin-tops"
    # ranked exactly when the claim is evidence of a cell some ranking uses (here: a sparse figure, which the
    # dense INT8 column does not read, so it is stored and not ranked)
    used = False
    for group in result.kb.groups.values():
        if "jetson-orin" in group.members:
            m = build(result.kb, Preferences(group=group.id))
            used |= any("u-orin-tops" in c.evidence for row in m.cells for c in row)
    assert rows[0]["ranking"].startswith("ranked: " if used else "stored, not ranked")


def test_an_upload_no_ranking_reads_is_stored_not_ranked() -> None:
    csv_text = (
        "entity,metric,value,unit,text_en\n"
        "jetson-orin,bandwidth_tbps,0.2,TB/s,Our reading of the Orin's memory bandwidth.\n"
    )
    result = intake.validate_upload("bw.csv", csv_text.encode(), KNOWLEDGE)
    assert result.ok, result.issues
    [row] = [r for r in comparison.comparison_rows(result.kb, result.source_ids) if r["origin"] == "yours"]
    ranked = comparison.ranked_metrics(result.kb)
    assert "bandwidth_tbps" not in ranked
    assert row["ranking"].startswith("stored, not ranked (ranked metrics: ")
    assert all(metric in row["ranking"] for metric in ranked)


def test_user_entities_are_those_the_uploads_define() -> None:
    result = check(UPLOADS / "good_new_chip.yaml")
    assert [e.id for e in comparison.user_entities(result.kb, ["good_new_chip.yaml"])] == ["fixture-npu"]


def _prefs(group: str | Preferences) -> Preferences:
    return group if isinstance(group, Preferences) else Preferences(group=group)


def _ranks(kb, group: str | Preferences) -> dict[str, int]:
    return {r.id: r.rank for r in recommend.recommend(kb, _prefs(group)).ranking}


def _cell(kb, group: str | Preferences, alternative: str, criterion: str):
    m = build(kb, _prefs(group))
    return m.cells[m.alternatives.index(alternative)][m.criteria.index(criterion)]


def _price_upload(rows: str) -> intake.UploadResult:
    result = intake.validate_upload("prices.csv", f"entity,metric,value,unit\n{rows}".encode(), KNOWLEDGE)
    assert result.ok, [str(i) for i in result.issues]
    return result


def test_an_uploaded_price_changes_the_ranking() -> None:
    """Gaudi 3 has no bundled cloud price: the datacenter group stores the April 2026 price column without ranking it
    (issue 32: four of its fifteen chips have one); raised to a sub-weight, Gaudi 3's cell is filled in at the
    scale's worst end, then replaced by the user's own price, which moves it up."""
    bundled, group = knowledge.load(), "datacenter-accelerators"
    assert "cloud-usd-per-gpu-hour-2026" not in build(bundled, Preferences(group=group)).criteria
    raised = Preferences(group=group, criterion_weights={"cloud-usd-per-gpu-hour-2026": 2})
    before_cell = _cell(bundled, raised, "gaudi3", "cloud-usd-per-gpu-hour-2026")
    assert before_cell.imputed
    result = _price_upload("gaudi3,cloud_usd_per_gpu_hour,0.3,USD per GPU-hour\n")
    mine = _cell(result.kb, raised, "gaudi3", "cloud-usd-per-gpu-hour-2026")
    assert not mine.imputed and mine.value == 0.3 and mine.tier == "measured"
    # a bundled price on the 2026 basis stays where the user gave none
    assert _cell(result.kb, raised, "h100", "cloud-usd-per-gpu-hour-2026").tier == "reference"
    before, after = _ranks(bundled, raised), _ranks(result.kb, raised)
    assert after["gaudi3"] < before["gaudi3"], (before, after)


def test_an_uploaded_price_feeds_the_derived_cost_per_million_tokens() -> None:
    """A chip's hourly price ranks in the serving group through its cost per million tokens."""
    bundled, group = knowledge.load(), "llm-serving-single-accelerator"
    result = _price_upload("mtt-s4000,cloud_usd_per_gpu_hour,0.1,USD per GPU-hour\n")
    cell = _cell(result.kb, group, "mtt-s4000", "usd-per-million-tokens-accelmark-suite-a")
    assert not cell.imputed and any(e.startswith("user-prices") for e in cell.evidence), cell
    before, after = _ranks(bundled, group), _ranks(result.kb, group)
    assert after["mtt-s4000"] < before["mtt-s4000"], (before, after)
    [row] = [r for r in comparison.comparison_rows(result.kb, result.source_ids) if r["origin"] == "yours"]
    assert "LLM serving on one accelerator (AccelMark) (Cost per million tokens" in row["ranking"]
    feeds = comparison.ranked_metrics(result.kb)["cloud_usd_per_gpu_hour"]
    assert "LLM serving on one accelerator (AccelMark)" in feeds


def test_uploaded_module_prices_rank_the_edge_modules() -> None:
    """NVIDIA lists developer-kit prices for two of the edge group's modules only: the column is stored, not ranked;
    raised to a sub-weight it ranks on the users' prices where they gave one."""
    bundled = knowledge.load()
    edge = build(bundled, Preferences(group=EDGE))
    assert "module-price-usd" not in edge.criteria
    assert any(e.id == "module-price-usd" for e in edge.excluded_criteria)
    result = _price_upload("jetson-orin,release_price_usd,1999,USD\nedge-tpu,release_price_usd,60,USD\n")
    raised = Preferences(group=EDGE, criterion_weights={"module-price-usd": 1})
    assert _cell(result.kb, raised, "jetson-orin", "module-price-usd").value == 1999.0
    assert _cell(result.kb, raised, "edge-tpu", "module-price-usd").value == 60.0
    rec = recommend.recommend(result.kb, raised)
    m, parts = rec.matrix, rec.result.contributions
    price = m.criteria.index("module-price-usd")
    # the cheaper module gains on the price column; the cost weight is now shared by power and price
    assert parts[m.alternatives.index("edge-tpu"), price] > parts[m.alternatives.index("jetson-orin"), price] > 0
