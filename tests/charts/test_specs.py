"""The spec explorer chart: one trace per vendor, provenance on hover, escaped text."""

from __future__ import annotations

import datetime as dt

import pytest

from selector.charts.specs import AGEING_NOTE, spec_scatter
from selector.decision import specs
from selector.knowledge import loading as knowledge
from selector.knowledge.loading import DEFAULT_KNOWLEDGE
from tests.charts.figures import EVIL, validated


@pytest.fixture(scope="module")
def values():
    return specs.spec_values(knowledge.load(), DEFAULT_KNOWLEDGE, dt.date(2026, 11, 30))


def test_one_trace_per_vendor_drawing_exactly_the_pairs(values):
    pairs = specs.axis_pairs(values, "memory-bandwidth", "bf16-tflops")
    fig = spec_scatter(pairs, "Bandwidth (TB/s)", "BF16 (TFLOPS)", "t", x_unit="TB/s", y_unit="TFLOPS")
    validated(fig)
    assert [t.name for t in fig.data] == sorted(pairs["vendor"].unique(), key=str.casefold)
    drawn = {(n, x, y) for t in fig.data for n, x, y in zip(t.text, t.x, t.y, strict=True)}
    assert drawn == set(zip(pairs["name"], pairs["x_value"], pairs["y_value"], strict=True))
    assert fig.layout.xaxis.title.text == "Bandwidth (TB/s)" and fig.layout.xaxis.type == "linear"
    log = spec_scatter(pairs, "x", "y", "t", log_x=True, log_y=True)
    assert log.layout.xaxis.type == log.layout.yaxis.type == "log"


def test_hover_names_dataset_row_and_dates_of_both_values(values):
    pairs = specs.axis_pairs(values, "memory-capacity", "tdp-w")
    fig = spec_scatter(pairs, "Memory", "TDP", "t", x_unit="GB", y_unit="W")
    by_name = {n: c for t in fig.data for n, c in zip(t.text, t.customdata, strict=True)}
    for _, pair in pairs.iterrows():
        hover = by_name[pair["name"]]
        for axis, slot in (("x", 1), ("y", 2)):
            assert pair[f"{axis}_tier"] in hover[slot]
            if pair[f"{axis}_snapshot"]:
                assert f"snapshot {pair[f'{axis}_snapshot']}" in hover[slot]
                assert f"retrieved {pair[f'{axis}_retrieved']}" in hover[slot]
    assert "%{customdata[1]}" in fig.data[0].hovertemplate and "%{customdata[2]}" in fig.data[0].hovertemplate


def test_ageing_points_are_hollow_and_say_so(values):
    pairs = specs.axis_pairs(values, "cloud-usd-per-gpu-hour", "memory-capacity")
    assert pairs["x_ageing"].any() and not pairs["x_ageing"].all()
    fig = spec_scatter(pairs, "price", "memory", "t", x_unit="USD", y_unit="GB")
    by_name = {}
    for trace in fig.data:
        for name, symbol, hover in zip(trace.text, trace.marker.symbol, trace.customdata, strict=True):
            by_name[name] = (symbol, hover[1])
    for _, pair in pairs.iterrows():
        symbol, hover = by_name[pair["name"]]
        assert (symbol == "circle-open") == bool(pair["x_ageing"] or pair["y_ageing"])
        assert (AGEING_NOTE in hover) == bool(pair["x_ageing"])


def test_knowledge_text_is_escaped(values):
    pairs = specs.axis_pairs(values, "memory-bandwidth", "bf16-tflops").head(2).copy()
    pairs.loc[:, "name"] = EVIL
    pairs.loc[:, "vendor"] = EVIL
    pairs.loc[:, "x_source"] = EVIL
    pairs.loc[:, "x_rows"] = EVIL
    fig = spec_scatter(pairs, EVIL, "y", EVIL)
    assert "<img" not in fig.to_json()
    assert "&lt;img" in fig.data[0].name and "&lt;img" in fig.data[0].customdata[0][1]


def test_no_pairs_give_an_empty_titled_chart(values):
    empty = specs.axis_pairs(specs.filter_values(values, vendors=["no such vendor"]), "tdp-w", "memory-capacity")
    fig = spec_scatter(empty, "x", "y", "nothing")
    assert len(fig.data) == 0 and fig.layout.title.text == "nothing"
