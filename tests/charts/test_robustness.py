"""Robustness figures: rank acceptability as percentages, a weight sweep with its tipping points."""

from __future__ import annotations

import numpy as np

from selector.charts.robustness import acceptability_heatmap, weight_sweep_chart
from selector.views.robustness import sweep_frame
from tests.charts.figures import titled


def test_acceptability_heatmap_writes_shares_as_percentages():
    acc = np.array([[0.71, 0.29], [0.29, 0.71]])
    fig = acceptability_heatmap(acc, ["A", "B"], "SMAA")
    titled(fig)
    assert fig.data[0].text[0][0] == "71%"
    assert fig.data[0].zmax == 100
    assert list(fig.data[0].x) == ["1st", "2nd"]
    many = acceptability_heatmap(np.eye(12), [f"A{i}" for i in range(12)], "SMAA")
    assert list(many.data[0].x)[10:] == ["11th", "12th"]


def test_weight_sweep_marks_current_weight_and_every_tipping_point():
    frame = sweep_frame(["A", "B"], np.linspace(0, 1, 3), np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]))
    fig = weight_sweep_chart(frame, "Cost", 0.25, [0.5], "Sweep", score_title="score (higher is better)")
    titled(fig)
    assert len(fig.data) == 2
    assert len(fig.layout.shapes) == 2
    assert sorted(s.x0 for s in fig.layout.shapes) == [25.0, 50.0]
    assert fig.layout.yaxis.title.text == "score (higher is better)"


def test_weight_sweep_keeps_close_labels_apart_and_inside_the_figure():
    frame = sweep_frame(["A", "B"], np.linspace(0, 1, 3), np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]))
    fig = weight_sweep_chart(frame, "Cost", 0.40, [0.428, 0.95], "Sweep")
    notes = {a.text: a for a in fig.layout.annotations}
    assert set(notes) == {"your weight 40%", "leader changes at 42.8%", "leader changes at 95.0%"}
    # the current weight and a tipping point 3 points away sit on different rows, so they cannot overlap
    assert notes["your weight 40%"].yshift != notes["leader changes at 42.8%"].yshift
    # a label near the right edge grows inwards
    assert notes["leader changes at 95.0%"].xanchor == "right"
    assert fig.layout.margin.t >= 17 * 2 + 40
