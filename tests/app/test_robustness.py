"""The Robustness page through AppTest: what it shows is what selector.robustness computes for the preferences
in force."""

from __future__ import annotations

import json

import numpy as np
import pytest

from selector import verdict
from selector.decision import recommend
from selector.decision.preferences import Preferences
from selector.robustness import analysis, figure
from tests.app.helpers import markdown_table, ok, opened


def _numbers(column) -> np.ndarray:
    # a Markdown table's cells as numbers: "12.5%" -> 0.125, "n/a" and "never first" -> NaN
    def number(cell: str) -> float:
        if cell.endswith("%"):
            return float(cell[:-1]) / 100
        return float(cell) if cell not in ("n/a", "never first") else np.nan

    return np.array([number(c) for c in column], dtype=float)


def test_robustness_page_shows_what_robustness_analyse_computes(app, kb):
    app.query_params["group"] = "edge-accelerators"
    at = ok(app.run())
    ok(at.switch_page("app_pages/robustness.py").run())
    assert at.number_input(key="rb-samples").value == figure.SAMPLES == 2_000
    assert at.radio(key="rb-space").value == "dimensions"
    assert at.toggle(key="rb-whole").value is True
    (settings,) = [e for e in at.expander if e.label.startswith("Sampling settings")]
    assert not settings.proto.expanded and len(settings.number_input) == 2 and settings.toggle and settings.slider
    rec = recommend.recommend(kb, Preferences(group="edge-accelerators"))
    expected = analysis.analyse(rec, samples=figure.SAMPLES, seed=figure.SEED)
    assert expected.tipping_points, "edge-accelerators has tipping points to show"
    assert [t.label for t in at.tabs] == [
        "Rank acceptability (SMAA)",
        "Tipping points",
        "Do the methods agree?",
        "Rank reversal",
    ]
    acceptability = {c.proto.id for c in at.get("plotly_chart")}
    assert len(acceptability) == 1 and acceptability.pop().endswith("-acceptability"), "the open tab alone"
    dimensions = [kb.dimensions[d].name_en for d in rec.matrix.dimension_weights]
    central = markdown_table(at, "alternative", *dimensions).set_index("alternative")
    ranked_first = markdown_table(at, "ranked first")
    opened(at, "rb-section", "Tipping points")
    shown = " ".join(x.value for x in at.markdown).replace("\\", "")
    for tip in expected.tipping_points:
        assert tip.sentence in shown
    assert any(
        f"{expected.leader} is {expected.badge}: {figure.level(expected.leader_share)}" in x.value.replace("\\", "")
        for x in [*at.success, *at.warning]
    )
    # one figure: the page's default analysis is the badge's share anywhere on the weight simplex, same words
    if rec.recommended == rec.leader.id:
        assert expected.leader_share == verdict.global_share(rec)
        assert figure.first_in(verdict.global_share(rec), 2_000, None) in expected.badge
    # the sweep chart marks the tipping points of the swept dimension as vertical lines
    swept = at.selectbox(key="rb-dimension").value
    lines = [t.weight for t in expected.tipping_points if t.dimension == swept]
    assert lines, "the page opens on a dimension with a tipping point"
    chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("-weight-sweep"))  # its title is text
    shapes = json.loads(chart.proto.spec)["layout"]["shapes"]
    dashed = sorted(s["x0"] for s in shapes if s["line"]["dash"] == "dash")
    assert dashed == pytest.approx(sorted(100 * w for w in lines))
    # method agreement with Kendall's tau, and central weights per dimension
    # (shown to two decimals, and percentages to one)
    opened(at, "rb-section", "Do the methods agree?")
    tau = markdown_table(at, "method").set_index("method")
    assert len(tau) == len(expected.agreement.kendall_tau)
    shown_tau = np.array([_numbers(tau[c]) for c in tau.columns]).T
    assert shown_tau == pytest.approx(expected.agreement.kendall_tau, abs=0.005, nan_ok=True)
    assert list(central.columns) == dimensions
    of = np.array(rec.matrix.dimension_of)
    for name, weights in zip(expected.smaa.alternatives, expected.smaa.central_weights, strict=True):
        row = _numbers(central.loc[name])
        if weights is None:
            assert list(central.loc[name]) == ["never first"] * len(dimensions)
        else:
            sums = [np.asarray(weights)[of == d].sum() for d in rec.matrix.dimension_weights]
            assert row == pytest.approx(sums, abs=0.0005)
    agreement = expected.agreement
    labels = [f"{k.upper()} / {s}" for k, s in zip(agreement.methods, agreement.scalers, strict=True)]
    ranks = markdown_table(at, "alternative", *labels).set_index("alternative")
    for name, row in zip(agreement.alternatives, agreement.ranks.T, strict=True):
        assert list(_numbers(ranks.loc[name, labels])) == list(row)
    # the tables list the alternatives in the ranking's order
    order = [r.name for r in rec.ranking]
    assert list(central.index) == order == list(ranked_first["alternative"])


def test_robustness_page_samples_criteria_within_a_spread(app, kb):
    app.query_params["group"] = "edge-accelerators"
    at = ok(app.run())
    ok(at.switch_page("app_pages/robustness.py").run())
    at.number_input(key="rb-samples").set_value(3000)
    at.radio(key="rb-space").set_value("criteria")
    ok(at.toggle(key="rb-whole").set_value(False).run())
    ok(at.slider(key="rb-spread").set_value(20).run())
    rec = recommend.recommend(kb, Preferences(group="edge-accelerators"))
    expected = analysis.analyse(rec, samples=3000, seed=0, spread=0.2, space="criteria")
    summary = markdown_table(at, "ranked first", "mean rank")
    first = dict(zip(summary["alternative"], _numbers(summary["ranked first"]), strict=True))
    mean = dict(zip(summary["alternative"], _numbers(summary["mean rank"]), strict=True))
    shown = [first[n] for n in expected.smaa.alternatives]
    assert shown == pytest.approx(expected.smaa.first_rank_acceptability, abs=0.0005)
    assert [mean[n] for n in expected.smaa.alternatives] == pytest.approx(expected.smaa.expected_rank, abs=0.005)
    confidence = dict(zip(summary["alternative"], summary["confidence"], strict=True))
    smaa = expected.smaa
    for name, value, central in zip(smaa.alternatives, smaa.confidence, smaa.central_weights, strict=True):
        assert confidence[name] == (
            ("never first" if central is None else "not computed") if value is None else f"{value:.1%}"
        )
    assert any("every criterion weight" in c.value and "20 percentage points" in c.value for c in at.caption)


def test_preferences_follow_the_user_to_the_robustness_page(app):
    at = ok(app.run())
    ok(at.slider(key="w-performance").set_value(90).run())
    at.query_params.clear()  # a page switch in the browser drops the query string
    ok(at.switch_page("app_pages/robustness.py").run())
    # The default group (training frameworks) has no cost criterion, so cost's weight passes on:
    # 90 / (90 + 20 + 15) = 72%
    assert any("Performance 72%" in c.value for c in at.caption)
    assert at.query_params["w"] == "performance=90"
