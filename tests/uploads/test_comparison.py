"""Tests of selector/uploads/comparison.py: users' values beside the bundled ones and which ranking reads them."""

from __future__ import annotations

import pytest

from selector.matrix import build
from selector.preferences import Preferences
from selector.uploads import comparison, intake
from tests.conftest import KNOWLEDGE
from tests.uploads.conftest import UPLOADS, check


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
