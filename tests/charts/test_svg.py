"""SVG charts: well-formed drawings whose bars and cells are where the data says, with every text escaped."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.charts import svg
from tests.charts.figures import EVIL

NS = "{http://www.w3.org/2000/svg}"


def _rects(drawing: str) -> list[ET.Element]:
    """The bars or cells: rectangles that carry a hover title (legend swatches carry none)."""
    return [r for r in ET.fromstring(drawing).iter(f"{NS}rect") if r.find(f"{NS}title") is not None]


def _x_of(drawing: str, tick: str) -> float:
    """Where the axis puts a tick value: the x of its label."""
    label = next(t for t in ET.fromstring(drawing).iter(f"{NS}text") if t.text == tick and t.get("text-anchor"))
    return float(label.get("x"))


def test_bars_are_as_long_as_their_values_and_stack_in_series_order():
    drawing = svg.bars(
        ["A", "B"],
        [svg.Series("x", (2.0, 1.0), "#111111"), svg.Series("y", (1.0, 0.0), "#222222")],
        x_title="points",
        label="test",
    )
    zero, one = _x_of(drawing, "0"), _x_of(drawing, "1")
    unit = one - zero
    bars = _rects(drawing)
    assert [r.find(f"{NS}title").text for r in bars] == ["A: x 2", "A: y 1", "B: x 1"]  # a zero draws nothing
    widths = [float(r.get("width")) / unit for r in bars]
    assert widths == pytest.approx([2.0, 1.0, 1.0], abs=0.01)
    starts = [(float(r.get("x")) - zero) / unit for r in bars]
    assert starts == pytest.approx([0.0, 2.0, 0.0], abs=0.01)  # y stacks after x
    assert [r.get("fill") for r in bars] == ["#111111", "#222222", "#111111"]


def test_filled_in_parts_are_drawn_pale_and_dashed_and_say_so():
    drawing = svg.bars(
        ["A", "B"],
        [svg.Series("x", (2.0, 1.0), "#111111", filled=(False, True)), svg.Series("y", (1.0, 1.0), "#222222")],
        x_title="points",
        label="test",
    )
    marked = [r.find(f"{NS}title").text for r in _rects(drawing) if r.get("stroke-dasharray")]
    assert marked == ["B: x 1 (filled in: no evidence)"]
    assert all(r.get("fill-opacity") == "0.35" for r in _rects(drawing) if r.get("stroke-dasharray"))
    assert svg.FILLED_NOTE in [t.text for t in ET.fromstring(drawing).iter(f"{NS}text")]
    plain = svg.bars(["A"], [svg.Series("x", (2.0,), "#111111")], x_title="points", label="test")
    assert svg.FILLED_NOTE not in plain and "stroke-dasharray" not in plain


def test_negative_parts_stack_to_the_left_of_zero():
    drawing = svg.bars(
        ["A"], [svg.Series("gain", (0.3,), "#1"), svg.Series("cost", (-0.1,), "#2")], x_title="s", label="t"
    )
    zero, unit = _x_of(drawing, "0"), _x_of(drawing, "0.1") - _x_of(drawing, "0")
    gain, cost = _rects(drawing)
    assert (float(gain.get("x")) - zero) / unit == pytest.approx(0.0, abs=0.01)
    assert (float(cost.get("x")) - zero) / unit == pytest.approx(-1.0, abs=0.01)
    assert float(cost.get("width")) / unit == pytest.approx(1.0, abs=0.01)


def test_the_axis_covers_the_longest_bar():
    drawing = svg.bars(["A"], [svg.Series("s", (0.32,), "#1")], x_title="s", label="t", value_text=["0.320"])
    ticks = [float(t) for t in re.findall(r'text-anchor="middle">([-\d.]+)</text>', drawing)]
    assert min(ticks) == 0 and max(ticks) >= 0.32
    assert "0.320" in drawing


def test_a_legend_names_the_series_when_there_are_several():
    several = svg.bars(["A"], [svg.Series("x", (1,), "#1"), svg.Series("y", (1,), "#2")], x_title="", label="t")
    single = svg.bars(["A"], [svg.Series("only", (1,), "#1")], x_title="", label="t")
    assert ">x</text>" in several and ">y</text>" in several
    assert ">only</text>" not in single


def test_long_names_are_shortened_on_the_axis_and_kept_whole_on_hover():
    name = "A very long criterion name that would push the bars off the page " * 2
    drawing = svg.bars([name], [svg.Series("s", (1,), "#1")], x_title="", label="t")
    label = next(t for t in ET.fromstring(drawing).iter(f"{NS}text") if t.get("text-anchor") == "end")
    assert label.find(f"{NS}title").text == name
    assert label.find(f"{NS}title").tail.endswith("…") and len(label.find(f"{NS}title").tail) < len(name)


def test_heatmap_colours_and_labels_each_share():
    drawing = svg.heatmap(["A", "B"], ["1st", "2nd"], [[0.75, 0.25], [0.25, 0.75]], x_title="rank", label="t")
    cells = _rects(drawing)
    assert len(cells) == 4
    assert [c.find(f"{NS}title").text for c in cells][:2] == ["A ranked 1st: 75.0%", "A ranked 2nd: 25.0%"]
    assert cells[0].get("fill") == svg.share_colour(0.75) != svg.share_colour(0.25) == cells[1].get("fill")
    assert drawing.count(">75%</text>") == 2


def test_share_colours_run_from_light_to_dark():
    assert svg.share_colour(0) == svg.BLUES[0] and svg.share_colour(1) == svg.BLUES[-1]
    assert svg.share_colour(-1) == svg.BLUES[0] and svg.share_colour(float("nan")) == svg.BLUES[0]


@given(st.text(min_size=1, max_size=40))
def test_any_text_stays_text(name):
    drawing = svg.bars(
        [name, EVIL], [svg.Series(name, (1, 2), "#1"), svg.Series("s", (1, 1), "#2")], x_title=name, label=name
    )
    root = ET.fromstring(drawing)  # well-formed whatever the names hold
    assert {e.tag for e in root.iter()} <= {f"{NS}{t}" for t in ("svg", "rect", "line", "text", "title")}
    assert EVIL not in drawing


@pytest.mark.parametrize(("low", "high"), [(0, 0.32), (0, 35.6), (-0.12, 0.3), (0, 1), (0, 10500), (-5, 0)])
def test_ticks_are_round_and_cover_the_range(low, high):
    ticks = svg.nice_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high and 3 <= len(ticks) <= 8
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
