"""Charts: titled and labelled figures that draw exactly the data given, with knowledge text escaped."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from selector import charts, knowledge, recommend
from selector.preferences import Preferences
from selector.views.accelerators import metric_frame, pareto_mask
from selector.views.recommend import contributions_frame, criterion_profile
from selector.views.robustness import sweep_frame

EVIL = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _titled(fig: go.Figure) -> None:
    # charts are built unvalidated: rebuilding with validation on must accept every property and change nothing
    validated = json.loads(go.Figure(fig.to_dict()).to_json())
    built = json.loads(fig.to_json())
    for spec in (validated, built):
        spec["layout"].pop("template", None)  # plotly fills an empty template with a placeholder of its own
    assert validated == built
    assert fig.layout.template.layout.plot_bgcolor is None  # no template of its own: the host styles it
    assert fig.layout.title.text
    assert fig.layout.xaxis.title.text
    assert fig.layout.height and fig.layout.height >= 200


def _all_text(fig: go.Figure) -> str:
    return fig.to_json()


def test_hover_text_escapes_markup_and_keeps_lines():
    text = charts.hover_text(f"first line\n{EVIL}", width=200)
    assert "<img" not in text
    assert "&lt;img" in text
    assert text.count("<br>") == 1


def test_hover_text_breaks_long_chinese_runs():
    text = charts.hover_text("能" * 100, width=30)
    assert text.count("<br>") == 3
    assert charts.hover_text(None) == ""


def test_contribution_bars_stack_each_alternatives_contributions(kb):
    rec = recommend.recommend(kb, Preferences(group="gpu-inference-runtimes", method="wsm"))
    frame = contributions_frame(kb, rec.matrix, rec.result.contributions)
    order = [r.name for r in rec.ranking]
    fig = charts.contribution_bars(frame, order, "What each criterion adds")
    _titled(fig)
    assert fig.layout.barmode == "relative"
    assert len(fig.data) == len(rec.matrix.criteria)
    totals = dict.fromkeys(order, 0.0)
    for trace in fig.data:
        for name, value in zip(trace.y, trace.x, strict=True):
            totals[name] += value
    for ranked in rec.ranking:
        # a weighted sum's contributions add up to its score
        assert totals[ranked.name] == pytest.approx(ranked.score)


def test_feature_heatmap_mirrors_colour_of_lower_is_better_columns():
    values = pd.DataFrame([[5.0, 1.0], [2.0, np.nan]], index=["A", EVIL], columns=["speed", "lock-in"])
    hover = pd.DataFrame([["h1", "h2"], ["h3", EVIL]], index=values.index, columns=values.columns)
    fig = charts.feature_heatmap(values, ["max", "min"], hover, "Ratings")
    _titled(fig)
    heat = fig.data[0]
    assert heat.z[0][0] == 5.0 and heat.z[0][1] == 5.0  # a lock-in of 1 is as good as a speed of 5
    assert heat.text[0][1] == "1" and heat.text[1][1] == ""
    assert "lower is better" in heat.x[1].replace("<br>", " ")
    assert EVIL not in _all_text(fig)


def test_benchmark_bars_mark_flagged_claims_and_say_which_way_is_better():
    frame = pd.DataFrame(
        {
            "entity": ["A", "B"],
            "value": [1.2, 1.8],
            "unit": ["ms", "ms"],
            "claim": ["c1", "c2"],
            "document": ["doc", "doc"],
            "quote_zh": ["引用", EVIL],
            "text_en": ["a", "b"],
            "flagged": [False, True],
            "flags": ["", "implausible: too good"],
        }
    )
    fig = charts.benchmark_bars(frame, "Latency", "ms", lower_is_better=True)
    _titled(fig)
    bar = fig.data[0]
    assert list(bar.x) == [1.2, 1.8]
    assert bar.marker.color[1] == charts.FLAG_COLOUR and bar.marker.color[0] != charts.FLAG_COLOUR
    assert "lower is better" in fig.layout.xaxis.title.text
    assert EVIL not in _all_text(fig)


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
    fig = charts.efficiency_scatter(frame, mask, "TOPS vs W")
    _titled(fig)
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
    fig = charts.efficiency_bars(frame, "TOPS/W", target=("target", 50.0), average=("average", 15.0))
    _titled(fig)
    lines = {t.name: t for t in fig.data if t.type == "scatter"}
    assert set(lines) == {"target: 50 TOPS/W", "average: 15 TOPS/W"}
    assert list(lines["target: 50 TOPS/W"].x) == [50.0, 50.0]
    assert fig.layout.xaxis.type == "log"
    assert len(charts.efficiency_bars(frame, "TOPS/W").data) == 1
    # bar labels write thousands out rather than in exponent notation
    assert list(fig.data[0].text) == ["10,500", "10"]


def test_acceptability_heatmap_writes_shares_as_percentages():
    acc = np.array([[0.71, 0.29], [0.29, 0.71]])
    fig = charts.acceptability_heatmap(acc, ["A", "B"], "SMAA")
    _titled(fig)
    assert fig.data[0].text[0][0] == "71%"
    assert fig.data[0].zmax == 100
    assert list(fig.data[0].x) == ["1st", "2nd"]
    many = charts.acceptability_heatmap(np.eye(12), [f"A{i}" for i in range(12)], "SMAA")
    assert list(many.data[0].x)[10:] == ["11th", "12th"]


def test_weight_sweep_marks_current_weight_and_every_tipping_point():
    frame = sweep_frame(["A", "B"], np.linspace(0, 1, 3), np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]))
    fig = charts.weight_sweep_chart(frame, "Cost", 0.25, [0.5], "Sweep", score_title="score (higher is better)")
    _titled(fig)
    assert len(fig.data) == 2
    assert len(fig.layout.shapes) == 2
    assert sorted(s.x0 for s in fig.layout.shapes) == [25.0, 50.0]
    assert fig.layout.yaxis.title.text == "score (higher is better)"


def test_metric_bars_keep_the_setting_on_hover(kb):
    frame = metric_frame(kb, "bandwidth_tbps")
    if frame.empty:
        pytest.skip("no bandwidth claim in the knowledge")
    fig = charts.metric_bars(frame, "Bandwidth", "bandwidth (TB/s)")
    _titled(fig)
    ordered = frame.sort_values("value", ascending=False)
    customdata = [list(row) for row in fig.data[0].customdata]
    assert [row[1] for row in customdata] == list(ordered["claim"])
    assert [row[0] for row in customdata] == [charts.hover_text(c) or "none stated" for c in ordered["conditions"]]


def test_every_group_draws_a_contribution_or_profile_chart(kb):
    for group in kb.groups:
        rec = recommend.recommend(kb, Preferences(group=group, method="topsis"))
        assert rec.result.contributions is None
        parts = criterion_profile(rec.matrix)
        frame = contributions_frame(kb, rec.matrix, parts)
        fig = charts.contribution_bars(frame, [r.name for r in rec.ranking], "profile")
        assert len(fig.data) == len(rec.matrix.criteria)


def test_weight_sweep_keeps_close_labels_apart_and_inside_the_figure():
    frame = sweep_frame(["A", "B"], np.linspace(0, 1, 3), np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]))
    fig = charts.weight_sweep_chart(frame, "Cost", 0.40, [0.428, 0.95], "Sweep")
    notes = {a.text: a for a in fig.layout.annotations}
    assert set(notes) == {"your weight 40%", "leader changes at 42.8%", "leader changes at 95.0%"}
    # the current weight and a tipping point 3 points away sit on different rows, so they cannot overlap
    assert notes["your weight 40%"].yshift != notes["leader changes at 42.8%"].yshift
    # a label near the right edge grows inwards
    assert notes["leader changes at 95.0%"].xanchor == "right"
    assert fig.layout.margin.t >= 17 * 2 + 40


def test_themed_attaches_the_built_in_template_for_stand_alone_rendering(kb):
    rec = recommend.recommend(kb, Preferences(group="gpu-inference-runtimes", method="wsm"))
    frame = contributions_frame(kb, rec.matrix, rec.result.contributions)
    fig = charts.contribution_bars(frame, [r.name for r in rec.ranking], "t")
    plain = len(fig.to_json())
    assert charts.themed(fig) is fig
    assert fig.layout.template.layout.plot_bgcolor == "white"
    assert len(fig.to_json()) > plain + 5_000  # the template is what made every in-app chart heavier
    go.Figure(fig.to_dict())  # still valid plotly, although attached without validation


def test_restacking_a_kept_figure_draws_what_a_new_one_would(kb):
    """The app keeps one contribution chart per session and restacks it on every slider move."""

    def built(weights: dict[str, float]) -> tuple[go.Figure, dict[str, list[float]], list[str]]:
        rec = recommend.recommend(kb, Preferences(group="training-frameworks", dimension_weights=weights))
        frame = contributions_frame(kb, rec.matrix, rec.result.contributions)
        order = [r.name for r in rec.ranking]
        values = {kb.entity_name(a): list(rec.result.contributions[i]) for i, a in enumerate(rec.matrix.alternatives)}
        return charts.contribution_bars(frame, order, "contributions"), values, order

    kept, _, first_order = built({})
    fresh, values, order = built({"performance": 100, "cost": 0, "ecosystem": 0, "risk": 0})
    assert order != first_order  # the leader changes, so the bars must be re-sorted, not only resized
    charts.restack_contribution_bars(kept, values, order)
    assert json.loads(kept.to_json()) == json.loads(fresh.to_json())
