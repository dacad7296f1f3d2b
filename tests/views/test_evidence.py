"""selector.views.evidence: the claims table, search and filters, a claim as evidence (footnotes and ages)."""

from __future__ import annotations

import datetime as dt

import pytest

from selector.knowledge import loading as knowledge
from selector.knowledge import provenance, vocabulary
from selector.knowledge.models import LOCATED_TIERS
from selector.views.evidence import (
    CLAIM_COLUMNS,
    PREVIEW_COLUMNS,
    claim_evidence,
    claims_preview,
    claims_table,
    filter_claims,
    labelled_claims,
)
from selector.views.labels import document_label, value_text

OLD = dt.date(2026, 11, 30)  # the cloud price list (2025-04-21) is 19 months old
YOUNG = dt.date(2025, 12, 31)


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_claims_table_has_one_row_per_claim_with_quote_and_english(kb):
    table = claims_table(kb)
    assert len(table) == len(kb.claims)
    assert list(table.columns) == list(CLAIM_COLUMNS)
    row = table.set_index("id").loc["c000-green-ai-efficiency-target"]
    claim = kb.claims["c000-green-ai-efficiency-target"]
    assert row["quote_zh"] == claim.quote
    assert row["text_en"] == claim.text_en
    assert row["flagged"]
    assert claim.flags[0].reason in row["flags"]


def test_search_finds_chinese_and_english_text(kb):
    chinese = filter_claims(kb, text="能效比")
    assert chinese
    assert all("能效比" in (c.quote or "") + c.text_en for c in chinese)
    english = filter_claims(kb, text="tensorrt THROUGHPUT")
    assert english
    for claim in english:
        parts = [claim.id, claim.quote or "", claim.text_en, claim.rationale or "", claim.note or "", *claim.about]
        haystack = " ".join(parts).lower()
        assert "throughput" in haystack


def test_filters_combine_as_an_intersection(kb):
    flagged = filter_claims(kb, flagged=True)
    assert flagged and all(c.flagged for c in flagged)
    unflagged = filter_claims(kb, flagged=False)
    assert len(flagged) + len(unflagged) == len(kb.claims)
    doc = filter_claims(kb, documents=["004"])
    both = filter_claims(kb, documents=["004"], flagged=True)
    assert {c.id for c in both} == {c.id for c in doc} & {c.id for c in flagged}
    about_h200 = filter_claims(kb, entities=["h200"])
    assert about_h200 and all("h200" in c.about for c in about_h200)


def test_claim_evidence_names_document_section_and_quote(kb):
    ev = claim_evidence(kb, "c004-bench-tensorrt-throughput")
    assert ev["document"].startswith("doc 004")
    assert ev["section"].startswith("1.1 ")
    assert ev["quote_zh"] == kb.claims["c004-bench-tensorrt-throughput"].quote
    assert ev["value"] == "3,200 img/s"


def test_an_assessed_rating_carries_its_rubric_level_and_a_benchmark_none(kb):
    rated = next(c for c in kb.claims.values() if c.tier == "assessed" and c.metric == "rating_training_speed")
    ev = claim_evidence(kb, rated.id)
    level = int(rated.value) if rated.value == int(rated.value) else None
    assert ev["rationale"] and "Training speed (assessed)" in ev["rubric"]
    if level is not None:
        crit = kb.criteria["rating-training-speed"]
        assert next(r.text_en for r in crit.rubric if r.level == level) in ev["rubric"]
    assert claim_evidence(kb, "c004-bench-tensorrt-throughput")["rubric"] == ""


def test_claims_table_gives_each_dataset_number_its_snapshot_ageing_and_footnote(kb):
    table = claims_table(kb, today=OLD).set_index("id")
    for claim in kb.claims.values():
        row = table.loc[claim.id]
        assert row["footnote"] == provenance.footnote(claim, kb)
        assert row["snapshot"] == (kb.sources[claim.source].snapshot_date if claim.locator is not None else "")
        assert bool(row["ageing"]) == provenance.is_ageing(claim, kb, OLD)
    assert table["ageing"].any() and not claims_table(kb, today=YOUNG)["ageing"].any()
    # a fact claim cites a public document: its address and retrieval date
    source = kb.sources[kb.claims["fact-h200"].source]
    assert table.loc["fact-h200", "footnote"] == f"{source.title_en}; {source.url}; retrieved {source.retrieved}"
    benchmarked = table[table["tier"] == "benchmarked"]
    assert len(benchmarked) and (benchmarked["footnote"] != "").all()


def test_claim_evidence_carries_the_footnote_and_age(kb):
    mlperf = next(c for c in kb.claims.values() if c.source == "mlperf-inference-v5.1")
    ev = claim_evidence(kb, mlperf.id, OLD)
    assert ev["footnote"] == mlperf.locator.footnote()
    for part in (mlperf.locator.result_id, mlperf.locator.round, mlperf.locator.division, "derived"):
        assert part in ev["footnote"]
    assert ev["age"] == provenance.age_text(mlperf, kb, OLD)
    article = next(c for c in kb.claims.values() if c.tier == "claimed")
    assert claim_evidence(kb, article.id)["footnote"] == ""


def test_filter_by_dataset_and_tier(kb):
    found = filter_claims(kb, datasets=["epoch-ml-hardware"])
    assert found and {c.source for c in found} == {"epoch-ml-hardware"}
    assert len(found) == sum(c.source == "epoch-ml-hardware" for c in kb.claims.values())
    benchmarked = filter_claims(kb, tiers=["benchmarked"], datasets=["accelmark"])
    assert benchmarked and all(c.tier == "benchmarked" and c.source == "accelmark" for c in benchmarked)


def test_documents_and_datasets_together_match_a_claim_from_either(kb):
    article = next(c.source for c in kb.claims.values() if c.tier == "claimed")
    both = filter_claims(kb, documents=[article], datasets=["fsdl-cloud-gpus"])
    assert {c.source for c in both} == {article, "fsdl-cloud-gpus"}
    assert len(both) == len(filter_claims(kb, documents=[article])) + len(
        filter_claims(kb, datasets=["fsdl-cloud-gpus"])
    )


def test_claims_preview_shows_each_number_with_its_source_and_flags(kb):
    located = next(c for c in kb.claims.values() if c.tier in LOCATED_TIERS and c.value is not None)
    article = next(c for c in kb.claims.values() if c.section and c.flags and c.value is not None)
    preview = claims_preview(kb, [located.id, article.id], OLD).set_index("id")
    assert list(preview.columns) == list(PREVIEW_COLUMNS[1:])
    row = preview.loc[located.id]
    assert value_text(located) in row["number"] and row["quote (Chinese)"] == (located.quote or "")
    assert provenance.footnote(located) in row["source"]
    assert provenance.age_text(located, kb, OLD) in row["source"]
    row = preview.loc[article.id]
    assert row["English"] == article.text_en and row["quote (Chinese)"] == article.quote
    assert row["source"] == f"{document_label(kb, article.source)} · section {article.section}"
    assert row["flagged as"] == ", ".join(f.kind.replace("_", " ") for f in article.flags)


def test_claims_preview_in_chinese_puts_the_quote_first_and_translates_the_headers(kb):
    article = next(c for c in kb.claims.values() if c.section and c.quote and c.value is not None)
    english = claims_preview(kb, [article.id], OLD)
    chinese = claims_preview(kb, [article.id], OLD, lang="zh")
    assert list(chinese.columns) == ["id", "原文引述（中文）", "英文", "数值", "来源", "存疑类型"]
    row = chinese.iloc[0]
    assert row["原文引述（中文）"] == article.quote and row["英文"] == article.text_en
    assert row["来源"].endswith(f"第 {article.section} 节")
    # the same cells, in another order: only the words around the data change
    assert row["数值"] == english.iloc[0]["number"]


def test_labelled_claims_names_metrics_and_documents_and_keeps_the_rest(kb):
    table = claims_table(kb, today=OLD)
    labelled = labelled_claims(kb, table)
    assert list(labelled.columns) == list(table.columns) and list(labelled["id"]) == list(table["id"])
    row = labelled.set_index("id").loc["c000-green-ai-efficiency-target"]
    claim = kb.claims["c000-green-ai-efficiency-target"]
    assert row["document"] == document_label(kb, claim.source)
    assert row["metric"] == vocabulary.label(kb, claim.metric)
    assert row["flags"] == ", ".join(f.kind.replace("_", " ") for f in claim.flags)
    assert labelled.drop(columns=["metric", "document", "flags"]).equals(
        table.drop(columns=["metric", "document", "flags"])
    )
