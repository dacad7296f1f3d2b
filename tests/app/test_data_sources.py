"""The "Data sources and licences" page through AppTest: one box per bundled dataset with what
selector.knowledge.provenance says of it (licence and its link, claims, snapshot age, attribution, changes on import,
upstream, licence files, NOTICE texts), then the tiers of evidence."""

from __future__ import annotations

import datetime as dt

import pytest
from streamlit.testing.v1 import AppTest

from selector.escape import streamlit_md
from selector.knowledge import provenance
from selector.knowledge.loading import DEFAULT_KNOWLEDGE
from tests.app.helpers import APP, ok

TODAY = "2026-11-30"  # the cloud price list (2025-04-21) is 19 months old: ageing


@pytest.fixture
def app(monkeypatch) -> AppTest:
    monkeypatch.setenv("SELECTOR_TODAY", TODAY)
    return AppTest.from_file(APP, default_timeout=60)


@pytest.fixture
def sources_page(app) -> AppTest:
    ok(app.run())
    return ok(app.switch_page("app_pages/data_sources.py").run())


def shown(text: str) -> str:
    # as the reader sees it: the page escapes knowledge text for Markdown (selector.escape.streamlit_md), with an
    # invisible word joiner where Streamlit would make a link of a URL written in the text
    return text.replace("\\", "").replace("\u2060", "")


def boxes(at: AppTest) -> dict[str, object]:
    """Each dataset's bordered box by its title."""
    return {shown(box.subheader[0].value): box for box in at.get("flex_container") if box.subheader}


def test_data_sources_page_names_each_licence_attribution_and_notice(sources_page, kb):
    text = "\n".join(m.value for m in sources_page.markdown)
    for data in provenance.datasets(kb):
        assert any(data.title in s.value.replace("\\", "") for s in sources_page.subheader)
        assert data.licence in text.replace("\\", "")
        assert data.attribution[:40] in text.replace("\\", "")
    assert "CC-BY-4.0](https://creativecommons.org/licenses/by/4.0/)" in text.replace("\\", "")
    assert any(e.label.startswith("NOTICE") and "accelmark" in e.label for e in sources_page.expander)
    assert any("older than 18 months" in m for m in text.replace("\\", "").splitlines()), "FSDL is ageing"


def test_each_dataset_has_a_box_with_what_provenance_says_of_it(sources_page, kb):
    datasets = provenance.datasets(kb)
    found = boxes(sources_page)
    assert list(found) == [d.title for d in datasets]  # one box each, sorted by id
    today = dt.date.fromisoformat(TODAY)
    for data in datasets:
        box = found[data.title]
        lines = [shown(m.value) for m in box.markdown]
        url = provenance.LICENCE_URLS.get(data.licence)
        licence = f"[{data.licence}]({url})" if url else data.licence
        age = provenance.dataset_age_text(data, today)
        assert lines[0] == f"**Licence:** {licence} · **{data.claims} claims** · {age}"
        assert data.claims == sum(1 for c in kb.claims.values() if c.source == data.id)
        assert lines[1] == f"**Attribution:** {data.attribution}"
        changes = "; ".join(provenance.conversions_used(kb, data.id))
        assert (
            lines[2]
            == f"**Changes made on import:** {changes}. Values are rounded to 6 decimals; nothing else is altered."
        )
        (caption,) = [shown(c.value) for c in box.caption]
        assert caption.startswith("Upstream: " + "; ".join(data.upstream))
        assert caption.endswith(
            "licence files bundled: " + ", ".join(f"knowledge/imports/raw/{f}" for f in data.licence_files)
        )


def test_every_notice_is_shown_in_full_under_its_dataset(sources_page, kb):
    expected = {data.title: provenance.notices(data, DEFAULT_KNOWLEDGE) for data in provenance.datasets(kb)}
    assert any(expected.values()), "a bundled dataset ships a NOTICE file"
    for title, box in boxes(sources_page).items():
        assert [(e.label, e.code[0].value) for e in box.expander] == [
            # the label is Markdown: the page escapes the file's path (pypi-simple/NOTICE), st.code drops blank lines
            (f"NOTICE ({streamlit_md(name)})", text.strip())
            for name, text in expected[title]
        ]


def test_an_ageing_snapshot_is_marked_and_a_young_one_is_not(sources_page, kb):
    ages = {title: shown(box.markdown[0].value) for title, box in boxes(sources_page).items()}
    for data in provenance.datasets(kb):
        months = provenance.months_old(data.snapshot_date, dt.date.fromisoformat(TODAY))
        assert ("ageing, older than 18 months" in ages[data.title]) == (months > provenance.AGEING_MONTHS)
        if months >= 0:
            assert f"({months} months old" in ages[data.title]
        else:  # fetched after the pinned test day (the package index's snapshot): no age, just its date
            assert "months old" not in ages[data.title] and data.snapshot_date in ages[data.title]


def test_the_tiers_of_evidence_are_listed_strongest_first(sources_page):
    (tiers,) = [m for m in sources_page.markdown if m.value.startswith("- **")]
    assert shown(tiers.value).splitlines() == [
        f"- **{tier}**: {provenance.TIER_DESCRIPTIONS[tier]}" for tier in provenance.tier_order()
    ]
    assert [line.split("**")[1] for line in tiers.value.splitlines()] == [
        "measured",
        "benchmarked",
        "reference",
        "claimed",
        "assessed",
    ]
