"""The Accelerators page (AppTest): spec tables by segment and small sets of dataset numbers as static tables,
grids (the explorer's table, a large set of dataset numbers) only in closed expanders, every number kept."""

from __future__ import annotations

import datetime as dt

import pytest

from selector import provenance
from selector.escape import streamlit_md, streamlit_table
from selector.models import LOCATED_TIERS
from selector.views.accelerators import accelerator_claims, dataset_numbers, spec_table
from selector.views.labels import SEGMENT_LABELS
from tests.app.helpers import ok

TODAY = "2026-11-30"


@pytest.fixture
def page(app, monkeypatch):
    monkeypatch.setenv("SELECTOR_TODAY", TODAY)
    ok(app.run())
    return ok(app.switch_page("app_pages/accelerators.py").run())


@pytest.fixture(scope="module")
def claims(kb):
    return accelerator_claims(kb, today=dt.date.fromisoformat(TODAY))


def _markdown(at) -> list[str]:
    return [m.value for m in at.markdown]


def test_data_grids_are_only_in_closed_expanders(page):
    assert page.dataframe, "the explorer's table and the largest set of dataset numbers stay grids"
    tucked = [d for e in page.expander if not e.proto.expanded for d in e.dataframe]
    assert len(tucked) == len(page.dataframe)


def test_each_segment_shows_every_stated_number_in_a_static_table(page, kb, claims):
    stated = claims[~claims["tier"].isin(sorted(LOCATED_TIERS))]
    shown = _markdown(page)
    tables = 0
    for segment in SEGMENT_LABELS:
        table = spec_table(stated, segment)
        if len(table):
            assert streamlit_table(table.reset_index(), dict.fromkeys(table.columns, ".12g")) in shown
            tables += 1
    assert tables >= 2


def test_small_sets_of_dataset_numbers_are_static_with_footnotes_and_ages(page, kb, claims):
    small = [s for s in SEGMENT_LABELS if 0 < len(dataset_numbers(kb, claims, s)) <= 60]
    assert small, "the bundled data has a segment with a few dataset numbers (workstation)"
    text = "\n".join(_markdown(page))
    for segment in small:
        located = dataset_numbers(kb, claims, segment)
        for row in located.itertuples():
            line = next(x for x in text.splitlines() if x.endswith(f"| {streamlit_md(row.claim)} |"))
            assert streamlit_md(row.footnote) in line and f"| {streamlit_md(format(row.value, '.12g'))} |" in line
            assert ("| ageing |" in line) == row.ageing
    captions = [c.value for c in page.caption]
    assert any(f"older than {provenance.AGEING_MONTHS} months" in c for c in captions)
