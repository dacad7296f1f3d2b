"""Provenance for display: ages of dataset numbers, datasets' licences, the changes made on import, NOTICE files."""

from __future__ import annotations

import datetime as dt

import pytest

from selector.knowledge import loading as knowledge
from selector.knowledge import provenance
from selector.knowledge.loading import DEFAULT_KNOWLEDGE
from selector.knowledge.locators import CONVERSIONS


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _claim_of(kb, source: str):
    return next(c for c in kb.claims.values() if c.source == source)


def test_months_old_counts_whole_months():
    assert provenance.months_old("2025-04-21", dt.date(2026, 10, 21)) == 18
    assert provenance.months_old("2025-04-21", dt.date(2026, 10, 20)) == 17
    assert provenance.months_old("2025-04-21", dt.date(2026, 11, 21)) == 19


def test_age_text_gives_the_snapshot_date_and_says_ageing_past_18_months(kb):
    claim = _claim_of(kb, "fsdl-cloud-gpus")
    date = kb.sources["fsdl-cloud-gpus"].snapshot_date
    assert provenance.age_text(claim, kb, dt.date(2025, 12, 1)) == f"as of {date}"
    old = provenance.age_text(claim, kb, dt.date(2026, 11, 30))
    assert old.startswith(f"as of {date}, {provenance.AGEING_LABEL}")
    assert f"({provenance.months_old(date, dt.date(2026, 11, 30))} months old)" in old


def test_claims_not_from_a_dataset_have_no_age(kb):
    article = next(c for c in kb.claims.values() if c.tier == "claimed")
    assert provenance.snapshot_date(article, kb) == ""
    assert provenance.age_text(article, kb, dt.date(2040, 1, 1)) == ""


def test_dataset_age_text_marks_only_old_snapshots(kb):
    infos = {d.id: d for d in provenance.datasets(kb)}
    fsdl = infos["fsdl-cloud-gpus"]
    assert provenance.AGEING_LABEL in provenance.dataset_age_text(fsdl, dt.date(2026, 11, 30))
    assert provenance.AGEING_LABEL not in provenance.dataset_age_text(fsdl, dt.date(2025, 6, 1))
    assert provenance.dataset_age_text(fsdl, dt.date(2020, 1, 1)) == f"snapshot {fsdl.snapshot_date}"


def test_conversions_used_are_those_the_locators_name(kb):
    for info in provenance.datasets(kb):
        named = {c.locator.conversion for c in kb.claims.values() if c.locator and c.locator.dataset == info.id}
        assert provenance.conversions_used(kb, info.id) == [CONVERSIONS[n][1] for n in sorted(named)]
    assert CONVERSIONS["bytes_to_gb"][1] in provenance.conversions_used(kb, "epoch-ml-hardware")


def test_every_licence_used_has_a_licence_link(kb):
    for info in provenance.datasets(kb):
        if info.id in provenance.FACT_DATASETS:
            assert info.licence not in provenance.LICENCE_URLS and info.licence_files  # said in its NOTICE
            continue
        assert provenance.LICENCE_URLS[info.licence].startswith("https://")


def test_notices_are_the_bundled_notice_files_text(kb, tmp_path):
    infos = {d.id: d for d in provenance.datasets(kb)}
    found = provenance.notices(infos["accelmark"], DEFAULT_KNOWLEDGE)
    assert [name for name, _ in found] == ["accelmark/NOTICE"]
    raw = (DEFAULT_KNOWLEDGE / "imports" / "raw" / "accelmark" / "NOTICE").read_text(encoding="utf-8")
    assert found[0][1] == raw
    assert provenance.notices(infos["epoch-ml-hardware"], DEFAULT_KNOWLEDGE) == []
    missing = provenance.notices(infos["accelmark"], tmp_path)
    assert missing[0][0] == "accelmark/NOTICE" and "not readable" in missing[0][1]
