"""What the screens show of a dataset's number: footnote, snapshot date, ageing; the Evidence page's dataset filter."""

from __future__ import annotations

import datetime as dt

import pytest

from selector import knowledge, provenance, views
from selector.models import LOCATED_TIERS

OLD = dt.date(2026, 11, 30)  # the cloud price list (2025-04-21) is 19 months old
YOUNG = dt.date(2025, 12, 31)


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_claims_table_gives_each_dataset_number_its_snapshot_ageing_and_footnote(kb):
    table = views.claims_table(kb, today=OLD).set_index("id")
    for claim in kb.claims.values():
        row = table.loc[claim.id]
        assert row["footnote"] == provenance.footnote(claim)
        assert row["snapshot"] == (kb.sources[claim.source].snapshot_date if claim.tier in LOCATED_TIERS else "")
        assert bool(row["ageing"]) == provenance.is_ageing(claim, kb, OLD)
    assert table["ageing"].any() and not views.claims_table(kb, today=YOUNG)["ageing"].any()
    benchmarked = table[table["tier"] == "benchmarked"]
    assert len(benchmarked) and (benchmarked["footnote"] != "").all()


def test_claim_evidence_carries_the_footnote_and_age(kb):
    mlperf = next(c for c in kb.claims.values() if c.source == "mlperf-inference-v5.1")
    ev = views.claim_evidence(kb, mlperf.id, OLD)
    assert ev["footnote"] == mlperf.locator.footnote()
    for part in (mlperf.locator.result_id, mlperf.locator.round, mlperf.locator.division, "derived"):
        assert part in ev["footnote"]
    assert ev["age"] == provenance.age_text(mlperf, kb, OLD)
    article = next(c for c in kb.claims.values() if c.tier == "claimed")
    assert views.claim_evidence(kb, article.id)["footnote"] == ""


def test_filter_by_dataset_and_tier(kb):
    found = views.filter_claims(kb, datasets=["epoch-ml-hardware"])
    assert found and {c.source for c in found} == {"epoch-ml-hardware"}
    assert len(found) == sum(c.source == "epoch-ml-hardware" for c in kb.claims.values())
    benchmarked = views.filter_claims(kb, tiers=["benchmarked"], datasets=["accelmark"])
    assert benchmarked and all(c.tier == "benchmarked" and c.source == "accelmark" for c in benchmarked)


def test_documents_and_datasets_together_match_a_claim_from_either(kb):
    article = next(c.source for c in kb.claims.values() if c.tier == "claimed")
    both = views.filter_claims(kb, documents=[article], datasets=["fsdl-cloud-gpus"])
    assert {c.source for c in both} == {article, "fsdl-cloud-gpus"}
    assert len(both) == len(views.filter_claims(kb, documents=[article])) + len(
        views.filter_claims(kb, datasets=["fsdl-cloud-gpus"])
    )


def test_dataset_numbers_list_only_located_claims_with_their_dates(kb):
    claims = views.accelerator_claims(kb, today=OLD)
    table = views.dataset_numbers(kb, claims, "datacenter")
    expected = claims[(claims["segment"] == "datacenter") & claims["tier"].isin(sorted(LOCATED_TIERS))]
    assert len(table) == len(expected) > 0
    assert list(table["claim"]) == list(expected["claim"])
    for _, row in table.iterrows():
        claim = kb.claims[row["claim"]]
        assert row["dataset"] == kb.sources[claim.source].title_en
        assert row["as of"] == kb.sources[claim.source].snapshot_date
        assert row["footnote"] == claim.locator.footnote()
        assert bool(row["ageing"]) == provenance.is_ageing(claim, kb, OLD)


def test_cell_footnotes_list_every_dataset_claim_behind_the_matrix(kb):
    from selector import matrix
    from selector.preferences import Preferences

    m = matrix.build(kb, Preferences(group="llm-inference-accelerators"))
    table = views.cell_footnotes(kb, m, OLD)
    located = [
        (c.alternative, i) for row in m.cells for c in row for i in c.evidence if kb.claims[i].locator is not None
    ]
    assert len(table) == len(located) > 0
    assert set(table["claim"]) == {i for _, i in located}
    for _, row in table.iterrows():
        claim = kb.claims[row["claim"]]
        assert row["footnote"] == claim.locator.footnote()
        assert bool(row["ageing"]) == provenance.is_ageing(claim, kb, OLD)
    assert table["footnote"].str.contains("derived").any()
    articles = matrix.build(kb, Preferences(group="gpu-inference-runtimes"))
    assert views.cell_footnotes(kb, articles).empty
