"""The report's figures: effective weights, scores (or contributions) and SMAA rank acceptability, from its model."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from selector.charts.base import BASE_COLOUR, themed
from selector.charts.contributions import contribution_bars
from selector.charts.robustness import acceptability_heatmap
from selector.report.formats import percent, score
from selector.report.model import Report

FONT_FAMILY = '"Noto Sans CJK SC", "Noto Sans", "DejaVu Sans", sans-serif'


def report_figures(report: Report) -> dict[str, tuple[str, Any]]:
    """The report's charts by key, each with its caption: weights, scores (or contributions), SMAA acceptability.

    The caption is printed by the page, not inside the chart, so charts carry no title of their own.
    """
    figures: dict[str, Any] = {}
    names = [o.name for o in report.options]
    if all(o.contributions is not None for o in report.options):
        frame = pd.DataFrame(
            [
                {"alternative": o.name, "criterion": c.name, "dimension": c.dimension, "contribution": v}
                for o in report.options
                for c, v in zip(report.criteria, o.contributions or (), strict=True)
            ]
        )
        figures["scores"] = contribution_bars(frame, names, "")
    else:
        better = "higher" if report.higher_is_better else "lower"
        fig = go.Figure(
            go.Bar(
                orientation="h",
                y=[html.escape(n) for n in names],
                x=[o.score for o in report.options],
                text=[score(o.score) for o in report.options],
                textposition="auto",
                marker={"color": BASE_COLOUR},
            )
        )
        fig.update_yaxes(autorange="reversed")
        fig.update_xaxes(title=f"score ({better} is better)")
        fig.update_layout(
            template="plotly_white",
            height=200 + 40 * len(names),
            margin={"l": 10, "r": 10, "t": 60, "b": 10},
        )
        figures["scores"] = fig
    weights = go.Figure()
    for dimension in dict.fromkeys(c.dimension for c in report.criteria):
        part = [c for c in report.criteria if c.dimension == dimension]
        weights.add_trace(
            go.Bar(
                orientation="h",
                name=html.escape(dimension),
                y=[html.escape(c.name) for c in part],
                x=[100 * c.weight for c in part],
                text=[percent(c.weight, 1) for c in part],
                textposition="auto",
                hovertemplate="%{y}: %{x:.1f}%<extra></extra>",
            )
        )
    weights.update_yaxes(autorange="reversed")
    weights.update_xaxes(title="effective weight (% of the total)")
    weights.update_layout(
        template="plotly_white",
        height=180 + 34 * len(report.criteria),
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        legend={"orientation": "h", "y": -0.25, "x": 0, "title": "dimension"},
    )
    figures["weights"] = weights
    if report.robustness.acceptability:
        figures["acceptability"] = acceptability_heatmap(np.array(report.robustness.acceptability), names, "")
    contributions = all(o.contributions is not None for o in report.options)
    captions = {
        "weights": "Effective weight of each criterion, coloured by dimension",
        "scores": f"{'Contribution of each criterion to the score' if contributions else 'Score of each option'} "
        f"({report.method_label}, {report.scaling})",
        "acceptability": f"Rank acceptability: share of {report.robustness.samples} sampled weightings that put "
        "each option at each rank (SMAA)",
    }
    for key, fig in figures.items():
        themed(fig).update_layout(
            title=None, font={"family": FONT_FAMILY}, margin={"t": 50 if key == "acceptability" else 20}
        )
    order = ("weights", "scores", "acceptability")
    return {key: (captions[key], figures[key]) for key in order if key in figures}
