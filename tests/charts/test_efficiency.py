"""Energy efficiency: the Pareto frontier through its points, TOPS/W bars with target and average lines."""

from __future__ import annotations

import pandas as pd

from selector.charts.efficiency import efficiency_bars, efficiency_scatter
from selector.views.accelerators import pareto_mask
from tests.charts.figures import titled


def test_efficiency_scatter_draws_the_frontier_through_its_points():
    frame = pd.DataFrame(
        {
            "name": ["big", "small", "bad"],
            "tops": [172.0, 4.0, 3.0],
            "watts": [60.0, 2.0, 30.0],
            "tops_per_w": [2.87, 2.0, 0.1],
            "flagged": [True, False, False],
            "flags": ["contradicts_datasheet: x", "", ""],
            "claims": ["a, b", "c, d", "e, f"],
        }
    )
    mask = pareto_mask(frame[["tops", "watts"]].to_numpy(), ["max", "min"])
    fig = efficiency_scatter(frame, mask, "TOPS vs W")
    titled(fig)
    line = next(t for t in fig.data if t.name == "Pareto frontier")
    assert sorted(line.x) == [2.0, 60.0]
    assert fig.layout.xaxis.type == "log" and "W" in fig.layout.xaxis.title.text
    flagged = next(t for t in fig.data if t.name == "flagged claim")
    assert flagged.marker.symbol == "x" and list(flagged.x) == [60.0]


def test_efficiency_bars_draw_target_and_average_lines():
    frame = pd.DataFrame(
        {
            "name": ["A", "B"],
            "tops_per_w": [10.0, 10500.0],
            "basis": ["claimed", "claimed"],
            "claims": ["c1", "c2"],
            "flagged": [False, True],
            "flags": ["", "implausible: 10.5 POPS/W"],
        }
    )
    fig = efficiency_bars(frame, "TOPS/W", target=("target", 50.0), average=("average", 15.0))
    titled(fig)
    lines = {t.name: t for t in fig.data if t.type == "scatter"}
    assert set(lines) == {"target: 50 TOPS/W", "average: 15 TOPS/W"}
    assert list(lines["target: 50 TOPS/W"].x) == [50.0, 50.0]
    assert fig.layout.xaxis.type == "log"
    assert len(efficiency_bars(frame, "TOPS/W").data) == 1
    # bar labels write thousands out rather than in exponent notation
    assert list(fig.data[0].text) == ["10,500", "10"]
