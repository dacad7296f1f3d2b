"""The Accelerators page (AppTest): one tab per section, only the open one drawn; spec tables by segment as static
tables, grids (the explorer's table, each segment's dataset numbers) only in closed expanders, every number kept."""

from __future__ import annotations

import datetime as dt
import html
import json

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from app_pages import _cached
from selector.escape import streamlit_md as md
from selector.escape import streamlit_table
from selector.knowledge import provenance
from selector.knowledge.models import LOCATED_TIERS
from selector.views.accelerators import accelerator_claims, dataset_numbers, spec_table
from selector.views.labels import SEGMENT_LABELS
from tests.app.helpers import APP, ok, opened

TODAY = "2026-11-30"


@pytest.fixture
def screen(app, monkeypatch):
    monkeypatch.setenv("SELECTOR_TODAY", TODAY)
    ok(app.run())
    return ok(app.switch_page("app_pages/accelerators.py").run())


@pytest.fixture(scope="module")
def claims(kb):
    return accelerator_claims(kb, today=dt.date.fromisoformat(TODAY))


SECTIONS = ("Spec explorer", "By segment", "Energy efficiency", "Memory and bandwidth", "Evidence of a number")


def _markdown(at) -> list[str]:
    return [m.value for m in at.markdown]


def _charts(at) -> list[str]:
    return [c.proto.id for c in at.get("plotly_chart")]


def _only(ids: list[str], *keys: str) -> bool:
    # a chart's id ends with its widget key
    return len(ids) == len(keys) and all(any(i.endswith(f"-{k}") for i in ids) for k in keys)


def _by_segment(screen):
    return opened(screen, "acc-section", "By segment")


def test_the_page_opens_on_the_spec_explorer_and_draws_only_the_open_tab(screen, claims):
    assert [t.label for t in screen.tabs][: len(SECTIONS)] == list(SECTIONS)
    assert _only(_charts(screen), "spec-explorer"), "the spec explorer's chart alone"
    assert not any("As the articles state them" in m for m in _markdown(screen))
    efficiency = opened(screen, "acc-section", "Energy efficiency")
    assert _only(_charts(efficiency), "tops-watts", "tops-per-watt")
    memory = opened(screen, "acc-section", "Memory and bandwidth")
    assert _only(_charts(memory), "metric-memory_capacity_gb", "metric-bandwidth_tbps")
    evidence = opened(screen, "acc-section", "Evidence of a number")
    assert not evidence.get("plotly_chart") and len(evidence.selectbox(key="acc-claim").options) == len(claims)


@pytest.mark.parametrize("section", ["Spec explorer", "By segment"])
def test_data_grids_are_only_in_closed_expanders(screen, section):
    at = opened(screen, "acc-section", section)
    assert at.dataframe, "the explorer's table and each segment's dataset numbers stay grids"
    tucked = [d for e in at.expander if not e.proto.expanded for d in e.dataframe]
    assert len(tucked) == len(at.dataframe)


def test_each_segment_shows_every_stated_number_in_a_static_table(screen, kb, claims):
    stated = claims[~claims["tier"].isin(sorted(LOCATED_TIERS))]
    shown = _markdown(_by_segment(screen))
    tables = 0
    for segment in SEGMENT_LABELS:
        table = spec_table(stated, segment)
        if len(table):
            assert streamlit_table(table.reset_index(), dict.fromkeys(table.columns, ".12g")) in shown
            tables += 1
    assert tables >= 2


def test_each_segments_dataset_numbers_are_a_grid_with_footnotes_and_ages_in_a_closed_expander(screen, kb, claims):
    screen = _by_segment(screen)
    tucked = {
        e.label: d.value
        for e in screen.expander
        if not e.proto.expanded and e.label.startswith("From public datasets")
        for d in e.dataframe
    }
    segments = [s for s in SEGMENT_LABELS if len(dataset_numbers(kb, claims, s))]
    assert len(segments) >= 2 and len(tucked) == len(segments)
    for segment in segments:
        located = dataset_numbers(kb, claims, segment)
        label = f"From public datasets: {len(located)} numbers, each with its footnote and date"
        pd.testing.assert_frame_equal(tucked[label].reset_index(drop=True), located, check_dtype=False)
    captions = [c.value for c in screen.caption]
    assert any(f"older than {provenance.AGEING_MONTHS} months" in c for c in captions)


def test_a_chart_every_session_shares_is_drawn_untitled_under_its_title_and_left_as_built(app, kb, monkeypatch):
    # the efficiency bars are built once per server (app_pages/_cached.figure_spec): two sessions draw them, each
    # with the title as a line above the chart, and the shared figure keeps its title for the next
    monkeypatch.setenv("SELECTOR_TODAY", TODAY)
    key = (kb.data_hash, dt.date.fromisoformat(TODAY), "en")
    drawn = []
    for session in (app, AppTest.from_file(APP, default_timeout=60)):
        ok(session.run())
        at = opened(ok(session.switch_page("app_pages/accelerators.py").run()), "acc-section", "Energy efficiency")
        (chart,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-tops-per-watt")]
        drawn.append(json.loads(chart.proto.spec))
        shared = _cached.figure_spec("figure-acc-tops-per-watt", key, lambda: pytest.fail("built a second time"))
        title = shared["layout"]["title"]["text"]
        assert title and drawn[-1]["layout"]["title"]["text"] == ""
        assert f"**{md(html.unescape(title))}**" in _markdown(at)
        assert drawn[-1]["data"] == shared["data"]
    assert drawn[0] == drawn[1]
