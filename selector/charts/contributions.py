"""Contribution bars: how much each criterion adds to each alternative's score (redrawn in place on a slider move)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from selector.charts.base import figure
from selector.escape import hover_labels

FILLED_HATCH = "/"
FILLED_NOTE = "hatched: filled in by the missing-value policy (no evidence)"


def contribution_bars(
    frame: pd.DataFrame, order: Sequence[str], title: str, x_title: str = "contribution to the score (points)"
) -> go.Figure:
    """Stacked horizontal bars: how much each criterion adds to each alternative's score.

    Parameters
    ----------
    frame
        Long table with columns ``alternative``, ``criterion``, ``dimension``, ``contribution`` and, optionally,
        ``filled`` (True where the cell had no evidence and the missing-value policy filled it in). Filled-in
        parts are hatched, say so on hover, and a note under the chart explains the hatching: a value without
        evidence never reads as data.
    order
        Alternatives from best to worst; the best is drawn on top.
    """
    # Plain lookups rather than a pandas pivot: this chart is redrawn on every slider move.
    rows = list(zip(frame["alternative"], frame["criterion"], frame["dimension"], frame["contribution"], strict=True))
    criteria = list(dict.fromkeys(c for _, c, _, _ in rows))
    value = {(a, c): float(v) for a, c, _, v in rows}
    dimension_of = {c: d for _, c, d, _ in rows}
    filled = (
        {(a, c) for a, c, f in zip(frame["alternative"], frame["criterion"], frame["filled"], strict=True) if f}
        if "filled" in frame
        else set()
    )
    names = hover_labels(order)
    traces = []
    for criterion in criteria:
        trace = {
            "type": "bar",
            "orientation": "h",
            "y": names,
            "x": [value.get((a, criterion), float("nan")) for a in order],
            "name": html.escape(str(criterion)),
            "hovertemplate": f"<b>%{{y}}</b><br>{html.escape(str(criterion))} "
            f"({html.escape(str(dimension_of[criterion]))})<br>contribution %{{x:.3f}}"
            + ("%{customdata}" if filled else "")
            + "<extra></extra>",
        }
        if filled:
            # `meta` keeps which alternatives' parts are filled in, so a restack can put the marks in a new order
            trace["meta"] = sorted(a for a in order if (a, criterion) in filled)
            trace |= _filled_marks(trace["meta"], order)
        traces.append(trace)
    layout = {
        "barmode": "relative",
        "legend": {"orientation": "h", "y": -0.25, "x": 0, "title": {"text": "criterion"}},
        "xaxis": {"title": {"text": x_title}, "zeroline": True, "zerolinecolor": "#888"},
        "yaxis": {"title": {"text": "alternative"}, "autorange": "reversed"},
    }
    if filled:
        note = {"text": FILLED_NOTE, "xref": "paper", "yref": "paper", "x": 0, "y": 1, "yanchor": "bottom"}
        layout["annotations"] = [{**note, "xanchor": "left", "showarrow": False}]
    return figure(traces, layout, title, 260 + 38 * len(order))


def _filled_marks(filled: Sequence[str], order: Sequence[str]) -> dict:
    """The hatching and hover note of one criterion's bars whose alternatives in `filled` have no evidence."""
    return {
        "marker": {"pattern": {"shape": [FILLED_HATCH if a in filled else "" for a in order]}},
        "customdata": ["<br>filled in: no evidence" if a in filled else "" for a in order],
    }


def restack_contribution_bars(spec: dict, contributions: Mapping[str, Sequence[float]], order: Sequence[str]) -> dict:
    """Redraw, in place, the plain dict of a figure from :func:`contribution_bars` (its ``to_dict()``) for new
    contributions of the same criteria.

    `contributions` maps each alternative to its values in the figure's trace (criterion) order; `order` lists
    the alternatives from best to worst. The result is the dict of the figure :func:`contribution_bars` would
    build for the same data (tests/charts/test_contributions.py compares them): only each trace's bars (and
    their filled-in marks) change. A dict rather than the figure: plotly's property setters validate every
    assignment, which cost more than the rest of a slider move.
    """
    names = hover_labels(order)
    for j, trace in enumerate(spec["data"]):
        trace["x"] = [float(contributions[a][j]) for a in order]
        trace["y"] = names
        if "meta" in trace:
            marks = _filled_marks(trace["meta"], order)
            trace["marker"]["pattern"]["shape"], trace["customdata"] = (
                marks["marker"]["pattern"]["shape"],
                marks["customdata"],
            )
    return spec
