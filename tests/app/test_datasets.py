"""The app's view of the bundled public datasets (AppTest): Evidence filters by tier and dataset (in the link and
the profile), the Accelerators spec explorer, footnotes and ages wherever a dataset's number is shown, and the
footer linking the "Data sources and licences" page (the page itself: test_data_sources.py)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from streamlit.testing.v1 import AppTest

from selector import profile
from selector.charts.specs import spec_scatter
from selector.decision import matrix, specs
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.knowledge import provenance
from selector.knowledge.loading import DEFAULT_KNOWLEDGE
from selector.views.evidence import filter_claims
from selector.views.recommend import cell_footnotes
from tests.app.helpers import APP, markdown_tables, opened, shown_claims

TODAY = "2026-11-30"  # the cloud price list (2025-04-21) is 19 months old: ageing


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


@pytest.fixture
def app(monkeypatch) -> AppTest:
    monkeypatch.setenv("SELECTOR_TODAY", TODAY)
    return AppTest.from_file(APP, default_timeout=60)


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _page(app: AppTest, page: str) -> AppTest:
    _ok(app.run())
    return _ok(app.switch_page(f"app_pages/{page}.py").run())


def _claims_table(at: AppTest):
    return shown_claims(at)


def _captions(at: AppTest) -> list[str]:
    # as the reader sees them: the pages escape knowledge text for Markdown (selector.escape.streamlit_md)
    return [c.value.replace("\\", "") for c in at.caption]


# ----------------------------------------------------------------------------------------------------------
# Evidence: tiers and datasets


def _more_filters(at: AppTest) -> AppTest:
    # the Evidence page's list filters are drawn when asked for (or while one is in force)
    return _ok(at.toggle(key="ev-more").set_value(True).run())


def test_evidence_offers_every_tier_strongest_first_and_every_dataset(app, kb):
    at = _more_filters(_page(app, "evidence"))
    assert at.multiselect(key="ev-tiers").options == list(provenance.tier_order())
    datasets = [d.id for d in provenance.datasets(kb)]
    shown = at.multiselect(key="ev-datasets").options
    assert len(shown) == len(datasets) >= 4
    assert all(kb.sources[d].title_en in o for d, o in zip(datasets, shown, strict=True))
    # documents and datasets are separate lists
    assert not set(at.multiselect(key="ev-docs").options) & set(shown)


def test_picking_a_dataset_and_a_tier_filters_the_table_and_goes_into_the_link(app, kb):
    at = _more_filters(_page(app, "evidence"))
    at.multiselect(key="ev-datasets").set_value(["mlperf-inference-v5.1"]).run()
    at.multiselect(key="ev-tiers").set_value(["benchmarked"]).run()
    _ok(at)
    table = _claims_table(at)
    expected = filter_claims(kb, tiers=["benchmarked"], datasets=["mlperf-inference-v5.1"])
    assert expected and sorted(table["id"]) == sorted(c.id for c in expected)
    assert (table["footnote"] != "").all() and table["footnote"].str.contains("result ").all()
    assert profile.decode_filters(at.query_params["ev"]) == {
        "datasets": ("mlperf-inference-v5.1",),
        "tiers": ("benchmarked",),
    }


def test_a_link_and_a_profile_with_dataset_filters_round_trip_exactly(app, kb):
    filters = {"datasets": ["accelmark", "fsdl-cloud-gpus"], "tiers": ["reference"], "text": ["A100"]}
    app.query_params["ev"] = profile.encode_filters(filters)
    at = _page(app, "evidence")
    assert at.multiselect(key="ev-datasets").value == ["accelmark", "fsdl-cloud-gpus"]
    assert at.multiselect(key="ev-tiers").value == ["reference"]
    expected = filter_claims(kb, text="A100", tiers=["reference"], datasets=["accelmark", "fsdl-cloud-gpus"])
    assert expected and sorted(_claims_table(at)["id"]) == sorted(c.id for c in expected)
    # the session's filters, saved as a profile and shared again as a link, come back unchanged
    kept = at.session_state["ev-filters"]
    saved = profile.dump(profile.make(Preferences(group=next(iter(kb.groups))), kept))
    loaded = profile.load(saved.encode("utf-8"), DEFAULT_KNOWLEDGE, check_uploads=False)
    assert {k: list(v) for k, v in loaded.filters.items()} == kept
    params = profile.to_link_params(loaded)
    assert profile.decode_filters(params["ev"]) == {k: tuple(v) for k, v in filters.items()}
    again = AppTest.from_file(APP, default_timeout=60)
    again.query_params["ev"] = params["ev"]
    again = _page(again, "evidence")
    assert again.multiselect(key="ev-datasets").value == ["accelmark", "fsdl-cloud-gpus"]
    assert again.session_state["ev-filters"] == kept


def test_evidence_counts_ageing_numbers_and_shows_a_dataset_claims_footnote(app, kb):
    at = _more_filters(_page(app, "evidence"))
    at.multiselect(key="ev-datasets").set_value(["fsdl-cloud-gpus"]).run()
    table = _claims_table(at)
    assert table["ageing"].all() and (table["snapshot"] == kb.sources["fsdl-cloud-gpus"].snapshot_date).all()
    assert any(f"{len(table)} from a snapshot older than 18 months" in c for c in _captions(at))
    claim = kb.claims[table["id"].iloc[0]]
    at.selectbox(key="ev-claim").set_value(claim.id).run()
    _ok(at)
    assert any(c.startswith("Footnote:") and claim.locator.row.split(" | ")[0] in c for c in _captions(at))
    assert any("Ageing number" in w.value for w in at.warning)


def test_no_number_is_ageing_while_the_snapshots_are_young(monkeypatch):
    monkeypatch.setenv("SELECTOR_TODAY", "2025-12-31")
    at = _page(AppTest.from_file(APP, default_timeout=60), "evidence")
    assert not _claims_table(at)["ageing"].any()


# ----------------------------------------------------------------------------------------------------------
# Accelerators: the spec explorer


def _explorer(at: AppTest) -> dict:
    (chart,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-spec-explorer")]  # its title is text
    return json.loads(chart.proto.spec)


def _points(spec: dict) -> set[tuple[str, str, float, float]]:
    return {(t["name"], n, x, y) for t in spec["data"] for n, x, y in zip(t["text"], t["x"], t["y"], strict=True)}


def _expected_points(kb, x: str, y: str, **filters) -> set[tuple[str, str, float, float]]:
    values = specs.spec_values(kb, DEFAULT_KNOWLEDGE, dt.date.fromisoformat(TODAY))
    pairs = specs.axis_pairs(specs.filter_values(values, **filters), x, y)
    fig = spec_scatter(pairs, "x", "y", "t")
    return {(t.name, n, x, y) for t in fig.data for n, x, y in zip(t.text, t.x, t.y, strict=True)}


def test_spec_explorer_draws_what_selector_computes(app, kb):
    at = _page(app, "accelerators")
    assert at.selectbox(key="spec-x").value == "memory-bandwidth"
    assert at.selectbox(key="spec-y").value == "bf16-tflops"
    spec = _explorer(at)
    assert _points(spec) == _expected_points(kb, "memory-bandwidth", "bf16-tflops") != set()
    assert spec["layout"]["xaxis"]["type"] == "log"
    hover = spec["data"][0]["customdata"][0][1]
    assert "snapshot" in hover and "retrieved" in hover


def test_spec_explorer_axes_and_filters_redraw_it(app, kb):
    at = _page(app, "accelerators")
    at.selectbox(key="spec-x").set_value("release-year").run()
    at.selectbox(key="spec-y").set_value("cloud-usd-per-gpu-hour").run()
    spec = _explorer(_ok(at))
    assert _points(spec) == _expected_points(kb, "release-year", "cloud-usd-per-gpu-hour")
    assert spec["layout"]["xaxis"]["type"] == "linear", "release year is never a log axis"
    at.multiselect(key="spec-segments").set_value(["datacenter"]).run()
    at.multiselect(key="spec-vendors").set_value(["NVIDIA"]).run()
    at.slider(key="spec-years").set_value((2022, 2025)).run()
    at.checkbox(key="spec-unknown-year").uncheck().run()
    spec = _explorer(_ok(at))
    expected = _expected_points(
        kb,
        "release-year",
        "cloud-usd-per-gpu-hour",
        segments=["datacenter"],
        vendors=["NVIDIA"],
        years=(2022, 2025),
        include_unknown_year=False,
    )
    assert _points(spec) == expected != set()
    assert {v for v, *_ in expected} == {"NVIDIA"}
    assert all(2022 <= x <= 2025 for *_, x, _ in _points(spec))
    symbols = [s for t in spec["data"] for s in t["marker"]["symbol"]]
    assert "circle-open" in symbols, "an ageing cloud price is drawn hollow"


def test_spec_explorer_table_and_dataset_numbers_carry_dates_and_footnotes(app, kb):
    at = _page(app, "accelerators")
    (table,) = [d.value for d in at.dataframe if any(": footnote" in c for c in d.value.columns)]
    assert any(c.endswith(": as of") for c in table.columns)
    at = opened(at, "acc-section", "By segment")
    located = [d.value for d in at.dataframe if "footnote" in d.value.columns and "as of" in d.value.columns]
    assert located, "each segment lists its dataset numbers"
    mlperf = next(t for t in located if t["footnote"].str.contains("derived").any())
    assert mlperf["footnote"].str.contains("result ").any()


def test_a_benchmarked_number_picked_on_accelerators_shows_its_footnote(app, kb):
    at = opened(_page(app, "accelerators"), "acc-section", "Evidence of a number")
    claim = next(c for c in kb.claims.values() if c.tier == "benchmarked" and c.locator.derived)
    picker = at.selectbox(key="acc-claim")
    label = next(o for o in picker.options if o.endswith(f"({claim.id})"))
    picker.set_value(label).run()
    _ok(at)
    notes = [c for c in _captions(at) if c.startswith("Footnote:")]
    assert notes and "derived" in notes[0] and claim.locator.result_id in notes[0]


def test_the_ranking_cells_evidence_shows_the_footnote(app, kb):
    at = _ok(app.run())
    at.selectbox(key="group").set_value("llm-inference-accelerators").run()
    _ok(at)
    cell = next(
        o for o in at.selectbox(key="cell-llm-inference-accelerators").options if "Offline" in o or "offline" in o
    )
    at.selectbox(key="cell-llm-inference-accelerators").set_value(cell).run()
    _ok(at)
    notes = [c for c in _captions(at) if c.startswith("Footnote:")]
    assert notes and all("derived" in n and "closed" in n for n in notes)
    # and every dataset number of the matrix has its footnote listed under it
    (table,) = [t for t in markdown_tables(at) if "footnote" in t.columns and "alternative" in t.columns]
    m = matrix.build(kb, Preferences(group="llm-inference-accelerators"))
    expected = cell_footnotes(kb, m, dt.date.fromisoformat(TODAY))
    assert list(table["footnote"]) == list(expected["footnote"]) and len(table)


# ----------------------------------------------------------------------------------------------------------
# Data sources and licences


@pytest.mark.parametrize("name", ["recommend", "evidence", "accelerators", "export"])
def test_every_page_ends_with_the_data_sources_footer(app, name, kb):
    at = _page(app, name)
    footer = [c for c in _captions(at) if c.startswith("Data:")]
    assert footer and all(d.licence in footer[0] for d in provenance.datasets(kb))
    assert any(link.proto.page == "data_sources" for link in at.get("page_link"))
