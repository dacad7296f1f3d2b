"""Robustness figures: SMAA rank acceptability and a weight sweep with its tipping points."""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.colors
import plotly.graph_objects as go

from selector.charts.base import FLAG_COLOUR, MARGIN, figure, ordinal, vline
from selector.escape import hover_labels

_SHARE_SCALE = plotly.colors.get_colorscale("Blues")


def acceptability_heatmap(acceptability: np.ndarray, alternatives: Sequence[str], title: str) -> go.Figure:
    """SMAA rank acceptability: the share of sampled weightings that put each alternative at each rank.

    Parameters
    ----------
    acceptability
        m x m array; row i, column r = share (0-1) of samples ranking alternative i at rank r + 1.
    alternatives
        Display names of the rows.
    """
    acc = np.asarray(acceptability, dtype=float)
    trace = {
        "type": "heatmap",
        "z": (acc * 100).tolist(),
        "x": [ordinal(r + 1) for r in range(acc.shape[1])],
        "y": hover_labels(alternatives),
        "text": [[f"{v:.0%}" for v in row] for row in acc],
        "texttemplate": "%{text}",
        "textfont": {"size": 14},
        "colorscale": _SHARE_SCALE,
        "zmin": 0,
        "zmax": 100,
        "xgap": 2,
        "ygap": 2,
        "hovertemplate": "<b>%{y}</b> ranked %{x}: %{z:.1f}% of the sampled weightings<extra></extra>",
        "showscale": False,  # every cell prints its share; a colour bar would only take room
    }
    layout = {
        "xaxis": {"title": {"text": "rank (1st = best)"}, "side": "bottom"},
        "yaxis": {"title": {"text": "alternative"}, "autorange": "reversed"},
    }
    return figure([trace], layout, title, 200 + 48 * len(alternatives))


def weight_sweep_chart(
    sweep: pd.DataFrame,
    dimension: str,
    current: float,
    tipping: Sequence[float],
    title: str,
    score_title: str = "score",
) -> go.Figure:
    """Each alternative's score as one dimension's weight sweeps 0-100%, with tipping points as vertical lines.

    Parameters
    ----------
    sweep
        Long table with columns ``weight`` (0-1 share of the dimension), ``alternative`` and ``score``.
    dimension
        Display name of the swept dimension (axis title).
    current
        The current share of the dimension (0-1), drawn as a solid line.
    tipping
        Shares (0-1) at which the leader changes.
    score_title
        The y-axis title (say whether higher or lower is better).
    """
    traces = []
    for alternative, part in sweep.groupby("alternative", sort=False):
        name = html.escape(str(alternative))
        traces.append(
            {
                "type": "scatter",
                "x": (part["weight"] * 100).tolist(),
                "y": part["score"].tolist(),
                "mode": "lines",
                "name": name,
                "hovertemplate": f"<b>{name}</b><br>weight %{{x:.0f}}%<br>score %{{y:.3f}}<extra></extra>",
            }
        )
    marks = [vline(current * 100, "#333333", "solid", f"your weight {current:.0%}")]
    marks += [vline(share * 100, FLAG_COLOUR, "dash", f"leader changes at {share:.1%}", 1) for share in tipping]
    layout = {
        "shapes": [shape for shape, _ in marks],
        "annotations": [note for _, note in marks],
        "margin": {**MARGIN, "t": 100},
        "xaxis": {"title": {"text": f"weight of {html.escape(dimension)} (% of the total)"}, "range": [0, 100]},
        "yaxis": {"title": {"text": score_title}},
        "legend": {"orientation": "h", "y": -0.2, "x": 0},
    }
    return figure(traces, layout, title, 460)
