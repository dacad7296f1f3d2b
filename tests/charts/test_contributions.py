"""Contribution bars: each alternative's contributions stacked, redrawn in place as a new figure would be."""

from __future__ import annotations

import json

import plotly.graph_objects as go
import pytest

from selector.charts.contributions import FILLED_HATCH, FILLED_NOTE, contribution_bars, restack_contribution_bars
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.views.recommend import contributions_frame, criterion_profile
from tests.charts.figures import titled


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_contribution_bars_stack_each_alternatives_contributions(kb):
    rec = recommend.recommend(kb, Preferences(group="gpu-inference-runtimes", method="wsm"))
    frame = contributions_frame(kb, rec.matrix, rec.result.contributions)
    order = [r.name for r in rec.ranking]
    fig = contribution_bars(frame, order, "What each criterion adds")
    titled(fig)
    assert fig.layout.barmode == "relative"
    assert len(fig.data) == len(rec.matrix.criteria)
    totals = dict.fromkeys(order, 0.0)
    for trace in fig.data:
        for name, value in zip(trace.y, trace.x, strict=True):
            totals[name] += value
    for ranked in rec.ranking:
        # a weighted sum's contributions add up to its score
        assert totals[ranked.name] == pytest.approx(ranked.score)


def test_every_group_draws_a_contribution_or_profile_chart(kb):
    for group in kb.groups:
        rec = recommend.recommend(kb, Preferences(group=group, method="topsis"))
        assert rec.result.contributions is None
        parts = criterion_profile(rec.matrix)
        frame = contributions_frame(kb, rec.matrix, parts)
        fig = contribution_bars(frame, [r.name for r in rec.ranking], "profile")
        assert len(fig.data) == len(rec.matrix.criteria)


def test_restacking_a_kept_figure_draws_what_a_new_one_would(kb):
    """The app keeps one contribution chart per session and restacks it on every slider move."""

    def built(weights: dict[str, float]) -> tuple[go.Figure, dict[str, list[float]], list[str]]:
        rec = recommend.recommend(kb, Preferences(group="training-frameworks", dimension_weights=weights))
        frame = contributions_frame(kb, rec.matrix, rec.result.contributions)
        order = [r.name for r in rec.ranking]
        values = {kb.entity_name(a): list(rec.result.contributions[i]) for i, a in enumerate(rec.matrix.alternatives)}
        return contribution_bars(frame, order, "contributions"), values, order

    kept, _, first_order = built({})
    fresh, values, order = built({"performance": 100, "cost": 0, "ecosystem": 0, "risk": 0})
    assert order != first_order  # the leader changes, so the bars must be re-sorted, not only resized
    spec = kept.to_dict()
    restack_contribution_bars(spec, values, order)
    assert json.loads(json.dumps(spec)) == json.loads(fresh.to_json())
    # and the restacked dict still passes plotly's validation
    assert json.loads(go.Figure(spec).to_json())["data"] == json.loads(fresh.to_json())["data"]


def test_contribution_bars_hatch_the_parts_filled_in_without_evidence(kb):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    m = rec.matrix
    assert m.imputed_cells, "training frameworks have cells without evidence (MindSpore)"
    frame = contributions_frame(kb, m, rec.result.contributions)
    order = [r.name for r in rec.ranking]
    fig = contribution_bars(frame, order, "contributions")
    filled = {(kb.entity_name(c.alternative), kb.criteria[c.criterion].name_en) for c in m.imputed_cells}
    hatched = {
        (name, trace.name)
        for trace in fig.data
        for name, shape in zip(trace.y, trace.marker.pattern.shape, strict=True)
        if shape == FILLED_HATCH
    }
    assert hatched == filled
    for trace in fig.data:
        for name, note in zip(trace.y, trace.customdata, strict=True):
            assert ("filled in" in note) == ((name, trace.name) in filled)
    assert [a.text for a in fig.layout.annotations] == [FILLED_NOTE]
    # without any filled-in cell nothing is hatched and no note is drawn
    plain = contribution_bars(frame.assign(filled=False), order, "contributions")
    assert all(trace.marker.pattern.shape is None for trace in plain.data)
    assert not plain.layout.annotations


def test_restacking_moves_the_filled_in_marks_with_their_bars(kb):
    rec = recommend.recommend(kb, Preferences(group="training-frameworks"))
    frame = contributions_frame(kb, rec.matrix, rec.result.contributions)
    order = [r.name for r in rec.ranking]
    fig = contribution_bars(frame, order, "contributions")
    values = {kb.entity_name(a): list(rec.result.contributions[i]) for i, a in enumerate(rec.matrix.alternatives)}
    spec = restack_contribution_bars(fig.to_dict(), values, order[::-1])
    for trace in spec["data"]:
        marked = [name for name, shape in zip(trace["y"], trace["marker"]["pattern"]["shape"], strict=True) if shape]
        assert sorted(marked) == sorted(trace["meta"])
