"""The report's figures, drawn from the plain data the report gives (selector.report.render.figure_data): weights,
scores or contributions, rank acceptability."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict

import pytest

from selector.charts.report import report_figures as draw
from selector.decision.preferences import Preferences
from selector.knowledge import loading as knowledge
from selector.report import build
from selector.report.render import figure_data

NS = "{http://www.w3.org/2000/svg}"


def report_figures(built):  # noqa: ANN001, ANN201 - a Report; its figures as the report draws them
    return draw(figure_data(built))


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _bars(drawing: str) -> list[tuple[str, float, float]]:
    """(hover title, x, width) of every bar or cell."""
    return [
        (r.find(f"{NS}title").text, float(r.get("x")), float(r.get("width")))
        for r in ET.fromstring(drawing).iter(f"{NS}rect")
        if r.find(f"{NS}title") is not None
    ]


def test_an_additive_method_stacks_each_criterion_and_the_parts_add_up_to_the_score(kb):
    built = build.build_report(kb, Preferences(group="gpu-inference-runtimes", method="wsm"), samples=200)
    figures = report_figures(built)
    assert list(figures) == ["weights", "scores", "acceptability"]
    caption, drawing = figures["scores"]
    assert caption.startswith("Contribution of each criterion") and built.method_label in caption
    widths: dict[str, float] = defaultdict(float)
    for title, _, width in _bars(drawing):
        option = title.split(": ")[0]
        widths[option] += width
    per_point = widths[built.options[0].name] / built.options[0].score
    for option in built.options:  # the stacked parts of each option add up to its score, drawn to one scale
        assert widths[option.name] / per_point == pytest.approx(option.score, rel=0.01)


def test_weights_are_drawn_per_criterion_and_coloured_by_dimension(kb):
    built = build.build_report(kb, Preferences(group="gpu-inference-runtimes"), samples=0)
    _, drawing = report_figures(built)["weights"]
    weighted = [c for c in built.criteria if c.weight > 0]
    rects = [r for r in ET.fromstring(drawing).iter(f"{NS}rect") if r.find(f"{NS}title") is not None]
    assert [r.find(f"{NS}title").text.split(": ")[0] for r in rects] == [c.name for c in weighted]
    colour_of = {c.dimension: set() for c in weighted}
    for criterion, rect in zip(weighted, rects, strict=True):
        colour_of[criterion.dimension].add(rect.get("fill"))
    colours = [next(iter(c)) for c in colour_of.values() if len(c) == 1]
    assert len(colours) == len(colour_of) == len(set(colours)) >= 2  # one colour per dimension, each its own


def test_a_method_without_contributions_draws_one_score_bar_per_option(kb):
    built = build.build_report(kb, Preferences(group="datacenter-accelerators", method="topsis"), samples=0)
    figures = report_figures(built)
    assert "acceptability" not in figures  # robustness not computed
    caption, drawing = figures["scores"]
    assert caption.startswith("Score of each option")
    assert [t for t, _, _ in _bars(drawing)] == [f"{o.name}: {o.score:.3g}" for o in built.options]


def test_rank_acceptability_has_a_cell_per_option_and_rank(kb):
    built = build.build_report(kb, Preferences(group="training-frameworks"), samples=200)
    caption, drawing = report_figures(built)["acceptability"]
    assert "200 sampled weightings" in caption
    cells = _bars(drawing)
    n = len(built.options)
    assert len(cells) == n * len(built.robustness.acceptability[0])
    first = built.options[0]
    assert cells[0][0] == f"{first.name} ranked 1st: {100 * built.robustness.acceptability[0][0]:.1f}%"
